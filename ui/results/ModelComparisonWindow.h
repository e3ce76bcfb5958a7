#pragma once

#include "engine/job/ModelComparison.h"

#include <QDialog>
#include <QString>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace sysid::ui {

class CurvePlot;
class ModelComparisonRunner;
class ProjectDocument;

// Fitted models side by side on one data set of the project: the user adds the project's current
// result and result files (RESULT.json of sysid fit, or .sysid projects with a result), picks the
// record and compares. The engine (job::compareModels, on a worker thread) simulates each model at
// its estimate (a periodic-response fit: its periodic steady state) and scores it; the window shows
// the table (cost, AIC, AICc, BIC, rmse and fit % per output), the outputs overlaid on the data and
// the residuals.
class ModelComparisonWindow : public QDialog {
    Q_OBJECT
public:
    explicit ModelComparisonWindow(ProjectDocument* document, QWidget* parent = nullptr);

    // The project's current result; false with *error when there is none or its data are missing.
    bool addProjectResult(QString* error = nullptr);
    // A RESULT.json or a .sysid project with a result; false with *error naming the file.
    bool addFile(const QString& path, QString* error = nullptr);
    void removeModel(int index);
    int modelCount() const { return static_cast<int>(candidates_.size()); }
    // Starts the comparison on the chosen data set (nothing while one runs).
    void compare();

    ModelComparisonRunner* runner() const { return runner_; }
    QTableWidget* table() const { return table_; }
    QComboBox* recordCombo() const { return record_; }
    QComboBox* outputCombo() const { return output_; }
    CurvePlot* outputPlot() const { return outputs_; }
    CurvePlot* residualPlot() const { return residuals_; }
    QPushButton* compareButton() const { return compare_; }
    QString statusText() const;
    const std::shared_ptr<const job::ModelComparison>& comparison() const { return comparison_; }

signals:
    void compared();  // a comparison was shown

private:
    void offerDataSets();
    void addFileDialog();
    void finish(const std::shared_ptr<const job::ModelComparison>& comparison);
    void showTable();
    void showCurves();
    void setRunning(bool running);

    ProjectDocument* document_;
    std::vector<job::ModelCandidate> candidates_;
    std::shared_ptr<const job::ModelComparison> comparison_;
    ModelComparisonRunner* runner_;
    QListWidget* models_ = nullptr;
    QComboBox* record_ = nullptr;
    QComboBox* output_ = nullptr;
    QPushButton* compare_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* formulas_ = nullptr;
    QLabel* status_ = nullptr;
    CurvePlot* outputs_ = nullptr;
    CurvePlot* residuals_ = nullptr;
};

}  // namespace sysid::ui
