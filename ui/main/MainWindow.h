#pragma once

#include "engine/estimate/FitSettings.h"
#include "engine/job/FitJob.h"

#include <Eigen/Dense>
#include <QMainWindow>
#include <QString>
#include <QTimer>

#include <map>
#include <string>
#include <vector>

class QPlainTextEdit;
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
class ModelComparisonWindow;
class PeriodicController;
class OptimalEstimationRunner;
class OptimalEstimationView;
class StudyPanel;
class ContourPanel;
class MultistartPanel;
class ProfilePanel;
class FieldPanel;
class ResidualAnalysisPanel;
class FitController;
class RunToolBar;
class FitViews;
class LiveSimulation;
class Session;
class ExportActions;

// The sysid-gui window: dockable panels (model, parameters, data, filters, estimator,
// results, log) around the live plots, and the menus. Everything numerical runs in engine jobs:
// FitController runs fits, PeriodicController periodic solutions; Session keeps the autosave and
// recent files, ExportActions the File ▸ Export menu. This class wires them to the ProjectDocument.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `path`: a .sysid project or a .model file; empty opens the bundled example project.
    explicit MainWindow(const QString& path = QString(), QWidget* parent = nullptr);
    ~MainWindow() override;

    ProjectDocument* document() const { return document_; }
    FitRunner* runner() const;
    LiveSimulation* liveSimulation() const { return live_; }
    ResultsPanel* resultsPanel() const { return results_; }
    FilterPanel* filterPanel() const { return filter_; }
    ModelEditor* modelEditor() const { return editor_; }
    EstimatorPanel* estimatorPanel() const { return estimator_; }
    ParameterHistoryPlot* parameterPlot() const { return parameterPlot_; }
    CostPlot* costPlot() const { return costPlot_; }
    TimeSeriesPlot* outputPlot(int output) const;
    PeriodicPanel* periodicPanel() const { return periodic_; }
    PeriodicController* periodicController() const { return periodicController_; }
    // The window that compares fitted models side by side (Run > Compare models), shown and raised.
    ModelComparisonWindow* showModelComparison();
    StudyPanel* studyPanel() const { return study_; }
    PhasePortraitPlot* orbitPlot() const { return orbitPlot_; }
    BranchPlot* branchPlot() const { return branchPlot_; }
    OptimalEstimationRunner* optimalRunner() const;
    OptimalEstimationView* optimalView() const { return optimalView_; }
    ContourPanel* contourPanel() const { return contour_; }
    ProfilePanel* profilePanel() const { return profiles_; }
    MultistartPanel* multistartPanel() const { return multistart_; }
    FieldPanel* fieldPanel() const { return field_; }
    ResidualAnalysisPanel* residualAnalysisPanel() const { return residualAnalysis_; }
    RunToolBar* runToolBar() const { return runToolBar_; }

    // .sysid, .model or .csv (import). A project among the bundled examples opens as an untitled
    // copy, so that Save asks where instead of overwriting the example.
    bool openPath(const QString& path);
    QAction* updateModelAction() const { return updateModelAction_; }
    bool saveTo(const QString& path);
    void runFit();  // optimal estimation when the estimator panel has it selected
    void cancelFit();
    bool saveScreenshot(const QString& path);  // renders the window to a PNG
    // Offers to restore an autosave left by a crash; call once after show().
    void offerAutosaveRestore();
    QString autosavePath() const;  // this window's autosave file
    // Writes the unsaved project to autosavePath() (every 30 s while modified; nothing when saved).
    void writeAutosave();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildPlots();
    void buildDocks();
    void buildControllers();
    void buildMenus();
    // The first-start sizes of the docks for the window's size and the model (a saved layout replaces them).
    void arrangeDocks();
    // After a project or model is opened: a taller Results dock if its parameters' rows would not show whole.
    void makeRoomForResults();
    void connectDocument();
    void connectControllers();
    // A message of a run: to the log and the status bar.
    void showMessage(const QString& text);
    // A run's message in the status bar; it goes when the project changes (it described the project before).
    void showRunStatus(const QString& text, int timeoutMs);
    bool maybeSave();  // false: the user cancelled
    void foldStartingValuesIntoText();
    // Writes the last fit's estimates into the model text as the starting values (one undo step).
    void updateModelWithEstimates();
    // A parameter's starting value written into its `param` line (the filter panel's suggestion
    // from the spectral peak), said in the status bar with `reason`.
    void setStartingValue(const QString& name, double value, const QString& reason);
    void newProject();
    void newFromTemplate(const QString& modelFile);
    void openExample();
    void openDialog();
    bool save();
    bool saveAs();
    // trueValues: the parameter values a synthetic record was made with (kept with the data set).
    void importData(const QString& path = QString(), const std::map<std::string, double>& trueValues = {});
    void generateSyntheticData();
    void showEquations();
    void about();
    void refreshTitle();
    void refreshModel();
    void refreshData();

    ProjectDocument* document_;
    QAction* updateModelAction_ = nullptr;
    FitController* fit_ = nullptr;
    Session* session_ = nullptr;
    ExportActions* exports_ = nullptr;
    ModelEditor* editor_ = nullptr;
    SymbolList* symbols_ = nullptr;
    ParameterTable* parameterTable_ = nullptr;
    ExperimentList* experiments_ = nullptr;
    FilterPanel* filter_ = nullptr;
    EstimatorPanel* estimator_ = nullptr;
    ResultsPanel* results_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QTabWidget* plots_ = nullptr;
    FitViews* fitViews_ = nullptr;
    LiveSimulation* live_ = nullptr;
    ParameterHistoryPlot* parameterPlot_ = nullptr;
    CostPlot* costPlot_ = nullptr;
    PhasePortraitPlot* phasePlot_ = nullptr;
    PhasePortraitPlot* orbitPlot_ = nullptr;
    BranchPlot* branchPlot_ = nullptr;
    PeriodicPanel* periodic_ = nullptr;
    PeriodicController* periodicController_ = nullptr;
    ModelComparisonWindow* modelComparison_ = nullptr;  // made when first shown
    OptimalEstimationView* optimalView_ = nullptr;
    StudyPanel* study_ = nullptr;
    ContourPanel* contour_ = nullptr;
    ProfilePanel* profiles_ = nullptr;
    MultistartPanel* multistart_ = nullptr;
    FieldPanel* field_ = nullptr;
    ResidualAnalysisPanel* residualAnalysis_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    RunToolBar* runToolBar_ = nullptr;
    QString runStatus_;  // the run's message in the status bar, while it is there
    bool updatingEditor_ = false;
};

}  // namespace sysid::ui
