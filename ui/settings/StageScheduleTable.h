#pragma once

#include "engine/estimate/OptimalEstimationStage.h"

#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

class QPushButton;
class QTableWidget;

namespace sysid::ui {

// The loose-to-tight schedule of optimal estimation (Rutten 1993, §5.4): one column per stage,
// one row per stage setting. Rows, labels, tooltips, rules and choices come from
// estimate::optimalEstimationStageFields(), the table the project file and the command line
// (--stage K:NAME=VALUE) read too. A setting a stage does not use (the tolerances of a fixed-step
// method, the steps of an adaptive one) is greyed out. An invalid number is marked red and the
// stage keeps its last valid value; problems() names the stage and the setting.
class StageScheduleTable : public QWidget {
    Q_OBJECT

public:
    explicit StageScheduleTable(QWidget* parent = nullptr);

    void setStages(const std::vector<estimate::OptimalEstimationStage>& stages);
    const std::vector<estimate::OptimalEstimationStage>& stages() const { return stages_; }
    // "stage 2 relative tolerance: "0" ..." for every invalid entry; empty when all are valid.
    QStringList problems() const;

    QTableWidget* table() const { return table_; }
    // The editor of setting `key` ("integrator.rtol") of stage `stage` (from 0), or nullptr.
    QWidget* editor(int stage, const std::string& key) const;
    QPushButton* addButton() const { return add_; }
    QPushButton* removeButton() const { return remove_; }
    QPushButton* defaultsButton() const { return defaults_; }

signals:
    void stagesChanged();

private:
    void rebuild();
    void updateEnabled();
    void changed();

    QTableWidget* table_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
    QPushButton* defaults_ = nullptr;
    std::vector<estimate::OptimalEstimationStage> stages_;
    bool updating_ = false;
};

}  // namespace sysid::ui
