#pragma once

#include "engine/estimate/FitSettings.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <string>

class QCheckBox;
class QComboBox;
class QTableWidget;
class QTableWidgetItem;

namespace sysid::ui {

// Settings of the equation-error methods (Normann 1989): the integration formula (the single-step
// or the multistep ones, after setMethod), one row per state with the weight of its equation
// error (empty: Normann's scaling, 1/T^2 for a coordinate with a velocity state, else 1), and
// whether the fitted model is simulated for the traces and output residuals. A weight cell
// holding an invalid entry turns red with a tooltip, settings() keeps the last valid value and
// inputProblems() names it; settings given back unchanged leave the cells as typed.
class EquationErrorSettingsWidget : public QWidget {
    Q_OBJECT

public:
    explicit EquationErrorSettingsWidget(QWidget* parent = nullptr);

    // Shows the formulas of the method (single-step or multistep); others keep their choice.
    void setMethod(estimate::EstimationMethod method);
    // The model's states, one weight row each; weights of names that stay are kept.
    void setStates(const QStringList& states);

    void setSettings(const estimate::EquationErrorSettings& settings);
    estimate::EquationErrorSettings settings() const;
    bool isValid() const { return inputProblems().isEmpty(); }
    // One line per invalid weight entry, naming the state and the rule.
    QStringList inputProblems() const;

    QComboBox* formulaCombo() const { return formula_; }
    QTableWidget* weightTable() const { return weights_; }
    QCheckBox* simulateCheck() const { return simulate_; }

signals:
    void settingsChanged();

private:
    void fillFormulas();
    void rebuildWeights();
    void weightEdited(QTableWidgetItem* item);

    QComboBox* formula_ = nullptr;
    QTableWidget* weights_ = nullptr;
    QCheckBox* simulate_ = nullptr;
    estimate::EstimationMethod method_ = estimate::EstimationMethod::Multistep;
    QStringList states_;
    estimate::EquationErrorSettings values_;  // the last valid values, also of states not shown
    std::map<std::string, QString> problems_;  // per state: why its weight cell is invalid
    bool updating_ = false;
};

}  // namespace sysid::ui
