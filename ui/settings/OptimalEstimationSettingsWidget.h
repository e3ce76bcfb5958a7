#pragma once

#include "engine/estimate/OptimalEstimation.h"

#include <QStringList>
#include <QWidget>

#include <map>
#include <string>

class QComboBox;
class QSpinBox;
class QTableWidget;
class QTableWidgetItem;

namespace sysid::ui {

// Settings of optimal estimation (seed 001): one row per augmented state with its model
// residual weight W and the optional prior q_a, W_a on its value at the start, one row per
// residual eps with its measurement weight V, the number of shooting points and the first
// stage of the tolerance schedule (method and steps per interval). An empty
// cell means the default (W = V = 1, no prior). A cell holding an invalid entry turns red
// with a tooltip, and settings() keeps the last valid value.
class OptimalEstimationSettingsWidget : public QWidget {
    Q_OBJECT

public:
    enum Column { NameColumn, WeightColumn, PriorValueColumn, PriorWeightColumn };

    explicit OptimalEstimationSettingsWidget(QWidget* parent = nullptr);

    // The names the weights may use (OptimalEstimationNames); values of names that stay are kept.
    void setNames(const QStringList& augmentedStates, const QStringList& residuals);
    int stateRowCount() const { return static_cast<int>(states_.size()); }

    void setSettings(const estimate::OptimalEstimationSettings& settings);
    estimate::OptimalEstimationSettings settings() const;
    bool isValid() const;

    QTableWidget* weightTable() const { return table_; }
    QSpinBox* shootingPointsSpin() const { return points_; }
    QComboBox* firstStageCombo() const { return firstStage_; }
    QSpinBox* firstStageStepsSpin() const { return firstStageSteps_; }

signals:
    void settingsChanged();

private:
    void rebuild();
    void setFirstStage(const estimate::OptimalEstimationSettings& settings);
    void cellEdited(QTableWidgetItem* item);

    QTableWidget* table_ = nullptr;
    QSpinBox* points_ = nullptr;
    QComboBox* firstStage_ = nullptr;
    QSpinBox* firstStageSteps_ = nullptr;
    std::vector<std::string> states_, residuals_;
    estimate::OptimalEstimationSettings values_;  // the last valid values, also of names not shown
    std::map<std::pair<int, int>, bool> invalid_;
    bool updating_ = false;
};

}  // namespace sysid::ui
