#pragma once

#include "engine/estimate/OptimalEstimation.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <optional>
#include <string>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTableWidgetItem;

namespace sysid::ui {

class StageScheduleTable;

// Settings of optimal estimation (Rutten 1993): one row per augmented state with its model
// residual weight W, the optional prior q_a, W_a on its value at the start and its initial guess
// (an expression of t, the measured signals and the parameters), one row per residual eps with its
// measurement weight V; the number of shooting points with the stiffness check (kappa*dt >= -2
// suggests a number), the Newton iterations per stage, what the run starts from (the data, the
// last result or a result file) and the tolerance schedule (StageScheduleTable). An empty cell
// means the default (W = V = 1, no prior, the guess from the data). A cell holding an invalid
// entry turns red with a tooltip, and settings() keeps the last valid value.
class OptimalEstimationSettingsWidget : public QWidget {
    Q_OBJECT

public:
    enum Column { NameColumn, WeightColumn, PriorValueColumn, PriorWeightColumn, GuessColumn };
    // The entries of startFromCombo(): its item data.
    enum StartFrom { StartFromData, StartFromLastResult, StartFromFile };

    explicit OptimalEstimationSettingsWidget(QWidget* parent = nullptr);

    // The names the weights may use (OptimalEstimationNames); values of names that stay are kept.
    void setNames(const QStringList& augmentedStates, const QStringList& residuals);
    int stateRowCount() const { return static_cast<int>(states_.size()); }

    void setSettings(const estimate::OptimalEstimationSettings& settings);
    estimate::OptimalEstimationSettings settings() const;
    bool isValid() const;
    // What is invalid, one line each (naming the stage and setting, or the table cell); empty when valid.
    QStringList problems() const;

    // The stiffness found by the check (or by a run) at the given shooting points: the suggestion
    // is shown next to the shooting points, with a button that takes it. nullopt clears it.
    void setStiffness(const std::optional<estimate::StiffnessDiagnostics>& diagnostics);

    QTableWidget* weightTable() const { return table_; }
    QSpinBox* shootingPointsSpin() const { return points_; }
    QSpinBox* maxIterationsSpin() const { return maxIterations_; }
    QComboBox* startFromCombo() const { return startFrom_; }
    StageScheduleTable* stageTable() const { return stages_; }
    QPushButton* checkStiffnessButton() const { return check_; }
    QPushButton* useSuggestionButton() const { return useSuggestion_; }
    QLabel* stiffnessLabel() const { return stiffness_; }

signals:
    void settingsChanged();
    void stiffnessCheckRequested();

private:
    void rebuild();
    void cellEdited(QTableWidgetItem* item);
    void showStartFrom();
    void startFromChosen();
    void changed();

    QTableWidget* table_ = nullptr;
    QSpinBox* points_ = nullptr;
    QSpinBox* maxIterations_ = nullptr;
    QComboBox* startFrom_ = nullptr;
    StageScheduleTable* stages_ = nullptr;
    QPushButton* check_ = nullptr;
    QPushButton* useSuggestion_ = nullptr;
    QLabel* stiffness_ = nullptr;
    std::size_t suggested_ = 0;
    std::vector<std::string> states_, residuals_;
    estimate::OptimalEstimationSettings values_;  // the last valid values, also of names not shown
    std::map<std::pair<int, int>, bool> invalid_;
    bool updating_ = false;
};

}  // namespace sysid::ui
