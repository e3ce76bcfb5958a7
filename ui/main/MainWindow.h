#pragma once

#include "engine/estimate/FitSettings.h"
#include "engine/job/FitJob.h"

#include <Eigen/Dense>
#include <QMainWindow>
#include <QString>
#include <QTimer>

#include <map>
#include <string>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QMenu;
class QVBoxLayout;

namespace sysid::ui {

class ProjectDocument;
class FitRunner;
class ModelEditor;
class SymbolList;
class ParameterTable;
class ExperimentList;
class FilterPanel;
class EstimatorPanel;
class ResultsPanel;
class TimeSeriesPlot;
class ParameterHistoryPlot;
class CostPlot;
class PhasePortraitPlot;
class BranchPlot;
class PeriodicPanel;
class PeriodicController;
class OptimalEstimationRunner;
class OptimalEstimationView;
class StudyPanel;
class ContourPanel;
class FieldPanel;

// The sysid-gui window: dockable panels (model, parameters, data, filters, estimator,
// results, log) around the live plots. Everything numerical runs in engine jobs through
// FitRunner; this class only wires the panels to the ProjectDocument.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `path`: a .sysid project or a .model file; empty opens the bundled example project.
    explicit MainWindow(const QString& path = QString(), QWidget* parent = nullptr);
    ~MainWindow() override;

    ProjectDocument* document() const { return document_; }
    FitRunner* runner() const { return runner_; }
    ResultsPanel* resultsPanel() const { return results_; }
    FilterPanel* filterPanel() const { return filter_; }
    ModelEditor* modelEditor() const { return editor_; }
    EstimatorPanel* estimatorPanel() const { return estimator_; }
    ParameterHistoryPlot* parameterPlot() const { return parameterPlot_; }
    CostPlot* costPlot() const { return costPlot_; }
    TimeSeriesPlot* outputPlot(int output) const;
    PeriodicPanel* periodicPanel() const { return periodic_; }
    PeriodicController* periodicController() const { return periodicController_; }
    StudyPanel* studyPanel() const { return study_; }
    PhasePortraitPlot* orbitPlot() const { return orbitPlot_; }
    BranchPlot* branchPlot() const { return branchPlot_; }
    OptimalEstimationRunner* optimalRunner() const { return optimalRunner_; }
    OptimalEstimationView* optimalView() const { return optimalView_; }
    ContourPanel* contourPanel() const { return contour_; }
    FieldPanel* fieldPanel() const { return field_; }

    bool openPath(const QString& path);  // .sysid, .model or .csv (import)
    bool saveTo(const QString& path);
    void runFit();  // optimal estimation when the estimator panel has it selected
    void cancelFit();
    bool saveScreenshot(const QString& path);  // renders the window to a PNG
    // Offers to restore an autosave left by a crash; call once after show().
    void offerAutosaveRestore();
    static QString autosavePath();
    // Writes the unsaved project to autosavePath() (every 30 s while modified; nothing when saved).
    void writeAutosave();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildPlots();
    void buildDocks();
    void buildMenus();
    void connectDocument();
    void connectRunner();
    void connectOptimalRunner();
    void runOptimalEstimation();
    void startFit(job::FitJob job);
    // Output error from the shown equation-error estimate ("Use as start").
    void refineByOutputError();
    // The last fitted response of the previewed column, for the filter panel's spectrum.
    void showIdentifiedSpectrum();
    bool maybeSave();  // false: the user cancelled
    void foldStartingValuesIntoText();
    void newProject();
    void newFromTemplate(const QString& modelFile);
    void openDialog();
    bool save();
    bool saveAs();
    // trueValues: the parameter values a synthetic record was made with (kept with the data set).
    void importData(const QString& path = QString(), const std::map<std::string, double>& trueValues = {});
    void generateSyntheticData();
    void exportParametersJson();
    void exportParametersCsv();
    void exportReport();
    void exportFigure();
    void showEquations();
    void about();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void refreshTitle();
    void refreshModel();
    void refreshData();
    void refreshMeasuredPlots();
    void removeAutosave();

    ProjectDocument* document_;
    FitRunner* runner_;
    ModelEditor* editor_ = nullptr;
    SymbolList* symbols_ = nullptr;
    ParameterTable* parameterTable_ = nullptr;
    ExperimentList* experiments_ = nullptr;
    FilterPanel* filter_ = nullptr;
    EstimatorPanel* estimator_ = nullptr;
    ResultsPanel* results_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QTabWidget* plots_ = nullptr;
    QWidget* outputPage_ = nullptr;
    QVBoxLayout* outputLayout_ = nullptr;
    std::vector<TimeSeriesPlot*> outputPlots_;
    ParameterHistoryPlot* parameterPlot_ = nullptr;
    CostPlot* costPlot_ = nullptr;
    PhasePortraitPlot* phasePlot_ = nullptr;
    PhasePortraitPlot* orbitPlot_ = nullptr;
    BranchPlot* branchPlot_ = nullptr;
    PeriodicPanel* periodic_ = nullptr;
    PeriodicController* periodicController_ = nullptr;
    OptimalEstimationRunner* optimalRunner_ = nullptr;
    OptimalEstimationView* optimalView_ = nullptr;
    StudyPanel* study_ = nullptr;
    ContourPanel* contour_ = nullptr;
    FieldPanel* field_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* statusIteration_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QTimer autosaveTimer_;
    bool updatingEditor_ = false;
    estimate::EstimationMethod lastFitMethod_ = estimate::EstimationMethod::OutputError;
    std::vector<double> lastTraceTimes_;  // the current data set's last model response
    Eigen::MatrixXd lastTraceOutputs_;
};

}  // namespace sysid::ui
