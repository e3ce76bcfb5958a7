#include "ui/main/MainWindow.h"

#include "ui/data/DataManagerDialog.h"
#include "ui/data/ExperimentList.h"
#include "ui/data/ImportDialog.h"
#include "ui/data/SyntheticDataDialog.h"
#include "ui/editor/EquationsDialog.h"
#include "ui/editor/ModelEditor.h"
#include "ui/editor/ParameterTable.h"
#include "ui/editor/ProblemList.h"
#include "ui/editor/SymbolList.h"
#include "ui/help/ExampleBrowser.h"
#include "ui/help/HelpWindow.h"
#include "ui/main/Examples.h"
#include "ui/main/ExportActions.h"
#include "ui/main/FitController.h"
#include "ui/main/RunToolBar.h"
#include "ui/main/ScreenFit.h"
#include "ui/main/Session.h"
#include "ui/periodic/PeriodicController.h"
#include "ui/periodic/PeriodicPanel.h"
#include "ui/plots/BranchPlot.h"
#include "ui/plots/ContourPlot.h"
#include "ui/plots/CostPlot.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/FieldPlot.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/PlotWidget.h"
#include "ui/plots/ProfilePlot.h"
#include "ui/plots/ResidualCorrelationPlot.h"
#include "ui/plots/SpectrumPlot.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/plots/WaterfallPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ContourPanel.h"
#include "ui/results/FieldPanel.h"
#include "ui/results/FitViews.h"
#include "ui/results/ModelComparisonWindow.h"
#include "ui/results/MultistartPanel.h"
#include "ui/results/OptimalEstimationView.h"
#include "ui/results/ProfilePanel.h"
#include "ui/results/ResidualAnalysisPanel.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/EngineNotices.h"
#include "ui/run/FitRunner.h"
#include "ui/run/LiveSimulation.h"
#include "ui/run/OptimalEstimationRunner.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/settings/FilterPanel.h"
#include "ui/settings/OptimalEstimationSettingsWidget.h"
#include "ui/settings/WheelGuard.h"
#include "ui/study/StudyPanel.h"

#include "engine/core/AtomicFile.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/job/OptimalEstimationJob.h"
#include "engine/model/ModelFile.h"
#include "engine/model/SubModels.h"
#include "engine/project/OptimalEstimationJson.h"
#include "ui/settings/Utf8.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QBuffer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QStyle>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <ginac/version.h>
#include <muParserDef.h>

#include <boost/version.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <tuple>

namespace sysid::ui {

namespace {

// A model file, read by the engine's rules (a regular file of bounded size).
QString readText(const QString& path, QString* error)
{
    std::string problem;
    const std::optional<std::string> text = model::readModelFile(path.toStdString(), problem);
    if (!text) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(problem));
        return {};
    }
    return toQString(*text);
}

QStringList toList(const std::vector<std::string>& names)
{
    QStringList list;
    for (const auto& n : names)
        list << QString::fromStdString(n);
    return list;
}

// The name a model file's problems are reported under: its file name, or its whole path when it
// includes sub-models, which are read from its folder.
QString modelSourceOf(const QString& path, const QString& text)
{
    return model::includesSubModels(text.toStdString()) ? QFileInfo(path).absoluteFilePath()
                                                        : QFileInfo(path).fileName();
}

}  // namespace

MainWindow::MainWindow(const QString& path, QWidget* parent) : QMainWindow(parent), document_(new ProjectDocument(this))
{
    WheelGuard::install();
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    buildPlots();
    buildDocks();
    buildControllers();
    buildMenus();
    connectDocument();
    connectControllers();

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        fitToScreen(this, QSize(1600, 1000));
    const bool restored = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    session_->setRecentMenu(recentMenu_, [this](const QString& recent) {
        if (maybeSave())
            openPath(recent);
    });

    const QString start = path.isEmpty() ? examplesDir() + QStringLiteral("/sdof_cubic.sysid") : path;
    if (!openPath(start)) {
        document_->newFromModel(QStringLiteral("# a new model\nparam a = 1\nstate y = 1\ny' = -a*y\noutput y\n"),
                                QStringLiteral("untitled.model"));
    }
    if (!restored)
        arrangeDocks();
    refreshTitle();
}

MainWindow::~MainWindow() = default;

FitRunner* MainWindow::runner() const
{
    return fit_->runner();
}

OptimalEstimationRunner* MainWindow::optimalRunner() const
{
    return fit_->optimalRunner();
}

TimeSeriesPlot* MainWindow::outputPlot(int output) const
{
    return fitViews_->outputPlot(output);
}

void MainWindow::buildPlots()
{
    plots_ = new QTabWidget(this);
    residualAnalysis_ = new ResidualAnalysisPanel(plots_);
    plots_->addTab(residualAnalysis_, tr("Residual analysis"));  // next to the Outputs page and its residuals
    parameterPlot_ = new ParameterHistoryPlot(plots_);
    plots_->addTab(parameterPlot_, tr("Parameters"));
    costPlot_ = new CostPlot(plots_);
    plots_->addTab(costPlot_, tr("Cost"));
    phasePlot_ = new PhasePortraitPlot(plots_);
    plots_->addTab(phasePlot_, tr("Phase portrait"));
    orbitPlot_ = new PhasePortraitPlot(plots_);
    plots_->addTab(orbitPlot_, tr("Periodic orbit"));
    branchPlot_ = new BranchPlot(plots_);
    plots_->addTab(branchPlot_, tr("Frequency response"));
    optimalView_ = new OptimalEstimationView(plots_);
    plots_->addTab(optimalView_, tr("Optimal estimation"));
    contour_ = new ContourPanel(document_, plots_);
    plots_->addTab(contour_, tr("Cost contour"));
    profiles_ = new ProfilePanel(document_, plots_);
    plots_->addTab(profiles_, tr("Profiles"));
    multistart_ = new MultistartPanel(document_, plots_);
    plots_->addTab(multistart_, tr("Multistart"));
    field_ = new FieldPanel(document_, plots_);
    plots_->addTab(field_, tr("Field"));
    setCentralWidget(plots_);
}

void MainWindow::buildDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    auto* modelBox = new QWidget(this);
    auto* modelLayout = new QVBoxLayout(modelBox);
    modelLayout->setContentsMargins(0, 0, 0, 0);
    editor_ = new ModelEditor(modelBox);
    symbols_ = new SymbolList(modelBox);
    symbols_->setMaximumHeight(160);
    modelLayout->addWidget(editor_, 3);
    modelLayout->addWidget(new ProblemList(editor_, modelBox), 1);
    modelLayout->addWidget(symbols_, 1);
    auto* modelDock = dock(tr("Model"), QStringLiteral("modelDock"), modelBox, Qt::LeftDockWidgetArea);

    parameterTable_ = new ParameterTable(this);
    parameterTable_->setEditor(editor_);
    auto* parameterDock =
        dock(tr("Parameters"), QStringLiteral("parameterDock"), parameterTable_, Qt::LeftDockWidgetArea);
    tabifyDockWidget(modelDock, parameterDock);

    auto* dataBox = new QWidget(this);
    auto* dataLayout = new QVBoxLayout(dataBox);
    experiments_ = new ExperimentList(dataBox);
    auto* importButton = new QPushButton(tr("Import data…"), dataBox);
    auto* syntheticButton = new QPushButton(tr("Generate synthetic data…"), dataBox);
    auto* manageButton = new QPushButton(tr("Manage data sets…"), dataBox);
    manageButton->setObjectName(QStringLiteral("manageDataSetsButton"));
    manageButton->setToolTip(tr("Rename data sets, map their columns, include or exclude them from the fit and "
                                "keep some for validation"));
    connect(importButton, &QPushButton::clicked, this, [this] { importData(); });
    connect(syntheticButton, &QPushButton::clicked, this, &MainWindow::generateSyntheticData);
    const auto manage = [this](int index) {
        auto* manager = findChild<DataManagerDialog*>();
        if (!manager)
            manager = new DataManagerDialog(document_, this);
        manager->selectDataSet(index);
        manager->show();
        manager->raise();
        manager->activateWindow();
    };
    connect(manageButton, &QPushButton::clicked, this, [this, manage] { manage(document_->currentDataSet()); });
    connect(experiments_, &ExperimentList::manageRequested, this, manage);
    dataLayout->addWidget(experiments_);
    dataLayout->addWidget(manageButton);
    dataLayout->addWidget(importButton);
    dataLayout->addWidget(syntheticButton);
    // What is identified (model, parameters, data) on the left, how (estimator, preprocessing,
    // periodic solution, study) on the right: each side one stack of tabs, as tall as the screen allows.
    auto* dataDock = dock(tr("Data"), QStringLiteral("dataDock"), scrollable(dataBox), Qt::LeftDockWidgetArea);
    tabifyDockWidget(parameterDock, dataDock);
    modelDock->raise();

    filter_ = new FilterPanel(this);
    auto* filterDock =
        dock(tr("Filter and noise"), QStringLiteral("filterDock"), scrollable(filter_), Qt::RightDockWidgetArea);

    estimator_ = new EstimatorPanel(this);
    auto* estimatorDock =
        dock(tr("Estimator"), QStringLiteral("estimatorDock"), scrollable(estimator_), Qt::RightDockWidgetArea);
    tabifyDockWidget(estimatorDock, filterDock);
    periodic_ = new PeriodicPanel(this);
    auto* periodicDock =
        dock(tr("Periodic solution"), QStringLiteral("periodicDock"), scrollable(periodic_), Qt::RightDockWidgetArea);
    tabifyDockWidget(estimatorDock, periodicDock);
    study_ = new StudyPanel(document_, this);
    auto* studyDock = dock(tr("Noise study"), QStringLiteral("studyDock"), scrollable(study_), Qt::RightDockWidgetArea);
    tabifyDockWidget(estimatorDock, studyDock);
    estimatorDock->raise();
    periodicController_ = new PeriodicController(document_, periodic_, orbitPlot_, branchPlot_, this);
    connect(periodicController_, &PeriodicController::orbitShown, this,
            [this] { plots_->setCurrentWidget(orbitPlot_); });
    connect(periodicController_, &PeriodicController::branchShown, this,
            [this] { plots_->setCurrentWidget(branchPlot_); });

    results_ = new ResultsPanel(this);
    auto* resultsDock = dock(tr("Results"), QStringLiteral("resultsDock"), results_, Qt::BottomDockWidgetArea);
    log_ = new QPlainTextEdit(this);
    log_->setObjectName(QStringLiteral("runLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    auto* logDock = dock(tr("Log"), QStringLiteral("logDock"), log_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(resultsDock, logDock);
    resultsDock->raise();
}

namespace {

// Rows the Results dock is sized for: the model's estimated parameters (and the outputs' noise sd of a method that
// estimates them), between a few and a dozen.
int resultRows(const ModelSummary& summary, const estimate::FitSettings& settings)
{
    const auto estimated = std::count_if(summary.parameters.begin(), summary.parameters.end(),
                                         [](const model::Parameter& p) { return !p.fixed; });
    const bool noise = estimate::traitsOf(settings.method).weighting == estimate::OutputWeighting::Estimated;
    return std::clamp(static_cast<int>(estimated) + (noise ? static_cast<int>(summary.outputs.size()) : 0), 5, 12);
}

}  // namespace

void MainWindow::arrangeDocks()
{
    const auto dockNamed = [this](const char* name) { return findChild<QDockWidget*>(QLatin1String(name)); };
    QDockWidget* modelDock = dockNamed("modelDock");
    QDockWidget* estimatorDock = dockNamed("estimatorDock");
    QDockWidget* resultsDock = dockNamed("resultsDock");
    const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    // The model's lines read whole at 80 columns; on a laptop screen the plots keep the larger part.
    const int modelWidth = editor_->lineNumberAreaWidth() + scrollBar + 12 +
        80 * editor_->fontMetrics().horizontalAdvance(QLatin1Char('m'));
    const int settingsWidth = estimator_->minimumSizeHint().width() + scrollBar + 8;
    resizeDocks({modelDock, estimatorDock},
                {std::min(modelWidth, width() * 36 / 100), std::min(settingsWidth, width() * 30 / 100)},
                Qt::Horizontal);
    // Before the window is shown the dock's title and the tab bar under it can only be estimated.
    const int dockFrame = 2 * fontMetrics().height() + 30;
    resizeDocks(
        {resultsDock},
        {std::min(results_->heightForRows(resultRows(document_->modelSummary(), document_->settings())) + dockFrame,
                  height() / 2)},
        Qt::Vertical);
}

void MainWindow::makeRoomForResults()
{
    auto* dock = findChild<QDockWidget*>(QStringLiteral("resultsDock"));
    if (!isVisible() || !dock || dock->isFloating() || dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    const int wanted = results_->heightForRows(resultRows(document_->modelSummary(), document_->settings()));
    // resizeDocks counts the title and a tabbed group's tab bar too: measure what it gave, then correct once.
    int size = dock->height();
    for (int attempt = 0; attempt < 2 && results_->height() < wanted && size < height() / 2; ++attempt) {
        size = std::min(size + wanted - results_->height(), height() / 2);
        resizeDocks({dock}, {size}, Qt::Vertical);
        layout()->activate();
    }
}

void MainWindow::buildControllers()
{
    FitController::Views views;
    views.dialogParent = this;
    views.estimator = estimator_;
    views.results = results_;
    views.filter = filter_;
    views.parameterPlot = parameterPlot_;
    views.costPlot = costPlot_;
    views.field = field_;
    views.optimalView = optimalView_;
    fit_ = new FitController(document_, views, this);
    FitViews::Views shown;
    shown.results = results_;
    shown.parameters = parameterPlot_;
    shown.cost = costPlot_;
    shown.phase = phasePlot_;
    shown.optimal = optimalView_;
    shown.field = field_;
    shown.residuals = residualAnalysis_;
    fitViews_ = new FitViews(document_, shown, plots_, this);
    live_ = new LiveSimulation(document_, this);
    plots_->insertTab(0, scrollable(fitViews_->outputPage()),
                      tr("Outputs"));  // many outputs scroll, not grow the window
    plots_->setCurrentIndex(0);
    session_ = new Session(document_, this, this);
    ExportActions::Figures figures;
    figures.current = [this]() -> PlotWidget* {
        auto* plot = qobject_cast<PlotWidget*>(plots_->currentWidget());
        if (!plot && plots_->currentWidget() == contour_)
            plot = contour_->plot();
        if (!plot && plots_->currentWidget() == profiles_ && !profiles_->plots().isEmpty())
            plot = profiles_->plots().front();
        if (!plot && plots_->currentWidget() == multistart_)
            plot = multistart_->waterfall();
        if (!plot && plots_->currentWidget() == field_)
            plot = field_->plot();
        if (!plot && plots_->currentWidget() == residualAnalysis_)
            plot = residualAnalysis_->plot();
        if (!plot)
            plot = fitViews_->outputPlot(0);
        return plot;
    };
    figures.report = [this] {
        // A plot that draws nothing (no iterations, nothing computed) is left out.
        const auto ifDrawn = [](PlotWidget* plot, bool drawn) { return drawn ? plot : nullptr; };
        const auto withLegend = [](PlotWidget* plot) { return plot->legendEntries().isEmpty() ? nullptr : plot; };
        std::vector<ExportActions::ReportPlot> report;
        // The outputs on the first fitted data set, then on each validation data set.
        int fitted = 0;
        while (fitted < document_->dataSetCount() && !document_->dataSet(fitted).fitted())
            ++fitted;
        for (int j = 0; j < fitViews_->outputPlotCount(); ++j) {
            TimeSeriesPlot* plot = fitViews_->outputPlot(j);
            report.push_back({QStringLiteral("output_%1.png").arg(j + 1),
                              tr("Output %1: the measured data, the model's response with the estimates, and the "
                                 "residual (measured − model) below.")
                                  .arg(plot->outputName()),
                              plot, fitted < document_->dataSetCount() ? fitted : -1});
        }
        for (int set = 0; set < document_->dataSetCount(); ++set) {
            if (!fitViews_->hasValidationResponse(set))
                continue;
            const QString name = QString::fromStdString(document_->dataSet(set).name);
            for (int j = 0; j < fitViews_->outputPlotCount(); ++j) {
                TimeSeriesPlot* plot = fitViews_->outputPlot(j);
                report.push_back({QStringLiteral("validation_%1_output_%2.png").arg(set + 1).arg(j + 1),
                                  tr("Validation data set %1, output %2: the measured data and the model simulated "
                                     "with the estimates (not fitted to these data), and the residual below.")
                                      .arg(name.isEmpty() ? QString::number(set + 1) : name, plot->outputName()),
                                  plot, set, true});
            }
        }
        report.push_back({QStringLiteral("parameters.png"), tr("Each estimated parameter per iteration."),
                          ifDrawn(parameterPlot_, parameterPlot_->iterationCount() > 0)});
        report.push_back({QStringLiteral("cost.png"), tr("The cost per iteration."),
                          ifDrawn(costPlot_, costPlot_->iterationCount() > 0)});
        report.push_back({QStringLiteral("phase_portrait.png"),
                          tr("Phase portrait of the first output: measured and model."), withLegend(phasePlot_)});
        report.push_back({QStringLiteral("preprocessing.png"), tr("A data column before and after preprocessing."),
                          withLegend(filter_->signalPlot())});
        report.push_back({QStringLiteral("spectrum.png"),
                          tr("Power spectral density of the data, raw and after preprocessing (with the "
                             "low-pass cutoff when one is set)."),
                          withLegend(filter_->spectrumPlot())});
        report.push_back({QStringLiteral("contour.png"),
                          tr("The cost over a grid of two parameters, with the fit's path."),
                          ifDrawn(contour_->plot(), contour_->plot()->hasSurface())});
        return report;
    };
    exports_ = new ExportActions(document_, this, statusBar(), std::move(figures), this);
}

ModelComparisonWindow* MainWindow::showModelComparison()
{
    if (!modelComparison_) {
        modelComparison_ = new ModelComparisonWindow(document_, this);
        if (document_->result())
            modelComparison_->addProjectResult();
    }
    modelComparison_->show();
    modelComparison_->raise();
    modelComparison_->activateWindow();
    return modelComparison_;
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (maybeSave())
            newProject();
    });
    file->addAction(tr("E&xamples…"), this, &MainWindow::openExample);
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(tr("Parameters as JSON…"), exports_, &ExportActions::exportParametersJson);
    exportMenu->addAction(tr("Parameters as CSV…"), exports_, &ExportActions::exportParametersCsv);
    exportMenu->addAction(tr("Current figure…"), exports_, &ExportActions::exportFigure);
    exportMenu->addAction(tr("Report (HTML and PDF)…"), exports_, &ExportActions::exportReport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = edit->addAction(tr("&Undo"), QKeySequence::Undo, editor_, &QPlainTextEdit::undo);
    QAction* redo = edit->addAction(tr("&Redo"), QKeySequence::Redo, editor_, &QPlainTextEdit::redo);
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(editor_, &QPlainTextEdit::undoAvailable, undo, &QAction::setEnabled);
    connect(editor_, &QPlainTextEdit::redoAvailable, redo, &QAction::setEnabled);

    QMenu* modelMenu = menuBar()->addMenu(tr("&Model"));
    modelMenu->addAction(tr("Show derived &equations…"), this, &MainWindow::showEquations);
    modelMenu->addAction(tr("&Import data…"), this, [this] { importData(); });
    modelMenu->addAction(tr("&Generate synthetic data…"), this, &MainWindow::generateSyntheticData);
    modelMenu->addSeparator();
    updateModelAction_ =
        modelMenu->addAction(tr("&Update model with estimates"), this, &MainWindow::updateModelWithEstimates);
    updateModelAction_->setObjectName(QStringLiteral("updateModelAction"));
    updateModelAction_->setToolTip(tr("Write the estimates into the model as the starting values of the next fit"));
    updateModelAction_->setEnabled(false);
    results_->addActionButton(updateModelAction_);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    QAction* fitAction = run->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Fit"),
                                        QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::runFit);
    fitAction->setObjectName(QStringLiteral("runFitAction"));
    fitAction->setIconText(tr("Run fit"));
    fitAction->setToolTip(tr("Fit the model to the data with the estimator's settings (Ctrl+R)"));
    QAction* cancelAction = run->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"),
                                           QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelFit);
    cancelAction->setObjectName(QStringLiteral("cancelFitAction"));
    cancelAction->setToolTip(tr("Stop the fit and keep its best estimate (Esc)"));
    runToolBar_ = new RunToolBar(fitAction, cancelAction, this);
    addToolBar(Qt::TopToolBarArea, runToolBar_);
    run->addSeparator();
    run->addAction(tr("Find &periodic solution"), QKeySequence(Qt::CTRL | Qt::Key_P), periodicController_,
                   &PeriodicController::run);
    run->addAction(tr("Cancel periodic solution"), periodicController_, &PeriodicController::cancel);
    run->addSeparator();
    QAction* compareAction = run->addAction(tr("Compare &models…"), this, [this] { showModelComparison(); });
    compareAction->setToolTip(tr("Fitted models side by side on one data set: cost, information criteria, "
                                 "outputs and residuals"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Model language reference"), QKeySequence::HelpContents, this,
                    [this] { showHelp(this, HelpTopic::ModelLanguage); });
    help->addAction(tr("&Quick start"), this, [this] { showHelp(this, HelpTopic::QuickStart); });
    help->addSeparator();
    help->addAction(tr("&About sysid"), this, &MainWindow::about);
}

void MainWindow::connectDocument()
{
    connect(document_, &ProjectDocument::modelTextChanged, this, &MainWindow::refreshModel);
    connect(document_, &ProjectDocument::dataChanged, this, &MainWindow::refreshData);
    connect(document_, &ProjectDocument::currentDataSetChanged, this, [this](int) { refreshData(); });
    // Panels shown from the document must not write back what they were just given.
    connect(document_, &ProjectDocument::preprocessingChanged, this, [this] {
        const QSignalBlocker block(filter_);
        filter_->setPreprocessing(document_->preprocessing());
    });
    connect(document_, &ProjectDocument::settingsChanged, this, [this] {
        const QSignalBlocker block(estimator_);
        estimator_->setSettings(document_->settings());
        // Only a loaded project changes these; rebuilding the table on every fit setting would
        // disturb an edit in progress.
        const auto& optimal = document_->project().optimalEstimation;
        OptimalEstimationSettingsWidget* widget = estimator_->optimalSettingsWidget();
        const auto stored = optimal ? *optimal : estimate::OptimalEstimationSettings{};
        if (project::optimalSettingsToJson(stored) != project::optimalSettingsToJson(widget->settings())) {
            const QSignalBlocker blockOptimal(widget);
            widget->setSettings(stored);
        }
    });
    connect(document_, &ProjectDocument::problemChanged, this, [this] {
        if (!runStatus_.isEmpty() && statusBar()->currentMessage() == runStatus_)
            statusBar()->clearMessage();
        runStatus_.clear();
        if (!fit_->runner()->isRunning() && !fit_->optimalRunner()->isRunning())
            runToolBar_->setProgressText(QString());
    });
    connect(document_, &ProjectDocument::projectReplaced, this, [this] {
        statusBar()->clearMessage();
        runToolBar_->setProgressText(QString());
    });
    connect(document_, &ProjectDocument::modifiedChanged, this, &MainWindow::refreshTitle);
    connect(document_, &ProjectDocument::resultChanged, this,
            [this] { updateModelAction_->setEnabled(document_->result().has_value()); });
    connect(document_, &ProjectDocument::filePathChanged, this, &MainWindow::refreshTitle);

    connect(editor_, &QPlainTextEdit::textChanged, this, [this] {
        if (!updatingEditor_)
            document_->setModelText(editor_->toPlainText());
    });
    // The model's first problem stays in the status bar until it is fixed (the list shows them all).
    connect(editor_, &ModelEditor::firstProblemChanged, this, [this](const QString& problem) {
        if (!problem.isEmpty())
            statusBar()->showMessage(tr("Model: %1").arg(problem));
        else if (statusBar()->currentMessage().startsWith(tr("Model: ")))
            statusBar()->clearMessage();
    });
    connect(filter_, &FilterPanel::preprocessingChanged, this,
            [this] { document_->setPreprocessing(filter_->preprocessing()); });
    connect(filter_, &FilterPanel::startValueRequested, this, &MainWindow::setStartingValue);
    connect(estimator_, &EstimatorPanel::settingsChanged, this,
            [this] { document_->setSettings(estimator_->settings()); });
    connect(estimator_, &EstimatorPanel::optimalSettingsChanged, this,
            [this] { document_->setOptimalEstimationSettings(estimator_->optimalSettingsWidget()->settings()); });
    connect(estimator_, &EstimatorPanel::runRequested, this, &MainWindow::runFit);
    connect(results_, &ResultsPanel::refineRequested, fit_, &FitController::refineByOutputError);
    connect(estimator_, &EstimatorPanel::cancelRequested, this, &MainWindow::cancelFit);
    connect(experiments_, &ExperimentList::currentExperimentChanged, document_, &ProjectDocument::setCurrentDataSet);
    connect(experiments_, &ExperimentList::removeRequested, document_, &ProjectDocument::removeDataSet);
}

void MainWindow::connectControllers()
{
    connect(fit_, &FitController::runningChanged, runToolBar_, &RunToolBar::setRunning);
    connect(fit_, &FitController::iterationProgress, runToolBar_, &RunToolBar::setIteration);
    connect(fit_, &FitController::iterationText, runToolBar_, &RunToolBar::setProgressText);
    connect(fit_, &FitController::runningChanged, fitViews_, &FitViews::setRunning);
    connect(fit_, &FitController::modelResponse, fitViews_, &FitViews::showResponse);
    connect(fit_, &FitController::validationResponse, fitViews_, &FitViews::showValidation);
    connect(fit_, &FitController::runningChanged, live_, &LiveSimulation::setPaused);
    connect(live_, &LiveSimulation::simulated, fitViews_, &FitViews::showLiveResponse);
    connect(live_, &LiveSimulation::cleared, fitViews_, &FitViews::clearLiveResponse);
    connect(live_, &LiveSimulation::failed, this, [this](const QString& text) { showRunStatus(text, 8000); });
    connect(live_, &LiveSimulation::constraintDrift, this, [this](const QString& text) { showRunStatus(text, 8000); });
    connect(fit_, &FitController::optimalEstimationStarted, fitViews_, &FitViews::optimalEstimationStarted);
    connect(fit_, &FitController::optimalEstimationStarted, this, [this] { plots_->setCurrentWidget(optimalView_); });
    connect(fit_, &FitController::stiffnessChecked, this, [this] { plots_->setCurrentWidget(optimalView_); });
    connect(estimator_->optimalSettingsWidget(), &OptimalEstimationSettingsWidget::stiffnessCheckRequested, fit_,
            &FitController::checkOptimalStiffness);
    connect(fit_, &FitController::logLine, log_, &QPlainTextEdit::appendPlainText);
    connect(fit_, &FitController::statusMessage, this, &MainWindow::showRunStatus);
    // The panels' own runs: their messages go to the log and the status bar alike.
    connect(periodicController_, &PeriodicController::message, this, &MainWindow::showMessage);
    connect(contour_, &ContourPanel::message, this, &MainWindow::showMessage);
    connect(profiles_, &ProfilePanel::message, this, &MainWindow::showMessage);
    connect(multistart_, &MultistartPanel::message, this, &MainWindow::showMessage);
    connect(profiles_, &ProfilePanel::profilesFinished, this,
            [this](std::shared_ptr<const job::ProfileResult> result) { results_->setProfileIntervals(*result); });
    connect(study_, &StudyPanel::message, this, &MainWindow::showMessage);
    connect(&EngineNotices::instance(), &EngineNotices::notice, this,
            [this](const QString& line) { log_->appendPlainText(tr("note: %1").arg(line)); });
}

void MainWindow::showMessage(const QString& text)
{
    log_->appendPlainText(text);
    showRunStatus(text, 8000);
}

void MainWindow::showRunStatus(const QString& text, int timeoutMs)
{
    runStatus_ = text;
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::runFit()
{
    fit_->run();
}

void MainWindow::cancelFit()
{
    fit_->cancel();
}

bool MainWindow::openPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    QString error;
    if (suffix == QLatin1String("csv")) {
        importData(path);
        return true;
    }
    if (suffix == QLatin1String("model")) {
        const QString text = readText(path, &error);
        if (!error.isEmpty()) {
            statusBar()->showMessage(error, 15000);
            return false;
        }
        document_->newFromModel(text, modelSourceOf(path, text));
        makeRoomForResults();
        return true;
    }
    if (!document_->load(path, &error)) {
        statusBar()->showMessage(error, 15000);
        if (isVisible())
            QMessageBox::warning(this, tr("Cannot open project"), error);
        return false;
    }
    if (QFileInfo(path).canonicalFilePath().startsWith(QDir(examplesDir()).canonicalPath() + QLatin1Char('/')))
        document_->detachFromFile();
    foldStartingValuesIntoText();
    if (!document_->filePath().isEmpty())
        session_->addRecent(document_->filePath());
    makeRoomForResults();
    return true;
}

void MainWindow::updateModelWithEstimates()
{
    const auto& result = document_->result();
    const ModelSummary& summary = document_->modelSummary();
    if (!result || !summary.valid)
        return;
    const auto estimateOf = [&result](const std::string& name) -> const estimate::ParameterEstimate* {
        const auto found = std::find_if(result->parameters.begin(), result->parameters.end(),
                                        [&name](const estimate::ParameterEstimate& e) { return e.name == name; });
        return found == result->parameters.end() ? nullptr : &*found;
    };
    QString text = editor_->toPlainText();
    // Initial values are found by their place in the text: rewrite them from the last one back, so
    // that a rewrite does not move the places of those still to come; `param` lines are found by name.
    std::vector<const model::Parameter*> initialValues;
    for (const auto& p : summary.parameters)
        if (p.isInitialValue && estimateOf(p.name))
            initialValues.push_back(&p);
    std::sort(initialValues.begin(), initialValues.end(), [](const model::Parameter* a, const model::Parameter* b) {
        return std::tie(a->where.line, a->where.column) > std::tie(b->where.line, b->where.column);
    });
    for (const model::Parameter* p : initialValues)
        if (const auto rewritten = ParameterTable::rewriteInitialValue(text, p->where, estimateOf(p->name)->value))
            text = *rewritten;
    for (const auto& p : summary.parameters) {
        const estimate::ParameterEstimate* e = p.isInitialValue ? nullptr : estimateOf(p.name);
        if (!e)
            continue;
        model::Parameter rewritten = p;
        rewritten.value = e->value;
        text = ParameterTable::rewriteParameterLine(text, rewritten);
    }
    parameterTable_->replaceEditorText(text);
}

void MainWindow::setStartingValue(const QString& name, double value, const QString& reason)
{
    const ModelSummary& summary = document_->modelSummary();
    const auto found =
        std::find_if(summary.parameters.begin(), summary.parameters.end(),
                     [&](const model::Parameter& p) { return !p.isInitialValue && p.name == name.toStdString(); });
    if (!summary.valid || found == summary.parameters.end()) {
        statusBar()->showMessage(tr("The model has no parameter %1.").arg(name), 8000);
        return;
    }
    if (value < found->lower || value > found->upper) {
        statusBar()->showMessage(tr("%1 = %2 (%3) lies outside its bounds [%4, %5]; the start value was not changed.")
                                     .arg(name, ParameterTable::formatNumber(value), reason,
                                          ParameterTable::formatNumber(found->lower),
                                          ParameterTable::formatNumber(found->upper)),
                                 10000);
        return;
    }
    model::Parameter rewritten = *found;
    rewritten.value = value;
    parameterTable_->replaceEditorText(ParameterTable::rewriteParameterLine(editor_->toPlainText(), rewritten));
    statusBar()->showMessage(tr("%1 starts at %2: %3.").arg(name, ParameterTable::formatNumber(value), reason), 10000);
}

void MainWindow::foldStartingValuesIntoText()
{
    const auto& values = document_->parameterValues();
    const auto& priors = document_->settings().priors;
    if ((values.empty() && priors.empty()) || !document_->modelSummary().valid)
        return;
    QString text = document_->modelText();
    std::vector<std::string> foldedPriors;
    for (const auto& p : document_->modelSummary().parameters) {
        const auto value = values.find(p.name);
        if (p.isInitialValue) {
            if (value == values.end())
                continue;
            if (const auto rewritten = ParameterTable::rewriteInitialValue(text, p.where, value->second))
                text = *rewritten;
            else
                return;  // an initial value written as an expression: keep the project's override
            continue;
        }
        model::Parameter rewritten = p;
        bool changed = false;
        if (value != values.end()) {
            rewritten.value = value->second;
            changed = true;
        }
        if (const auto prior = priors.find(p.name); prior != priors.end()) {
            rewritten.prior = prior->second;
            foldedPriors.push_back(p.name);
            changed = true;
        }
        if (changed)
            text = ParameterTable::rewriteParameterLine(text, rewritten);
    }
    document_->foldIntoModelText(text, foldedPriors);
}

bool MainWindow::saveTo(const QString& path)
{
    QString error;
    if (!document_->save(path, &error)) {
        QMessageBox::warning(this, tr("Cannot save"), error);
        return false;
    }
    session_->addRecent(document_->filePath());
    session_->removeAutosave();
    statusBar()->showMessage(tr("saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::save()
{
    if (document_->filePath().isEmpty())
        return saveAs();
    return saveTo(document_->filePath());
}

bool MainWindow::saveAs()
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("dirs/project"), QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save project"), dir, tr("sysid projects (*.sysid)"));
    if (path.isEmpty())
        return false;
    settings.setValue(QStringLiteral("dirs/project"), QFileInfo(path).absolutePath());
    return saveTo(path.endsWith(QLatin1String(".sysid")) ? path : path + QStringLiteral(".sysid"));
}

bool MainWindow::maybeSave()
{
    if (!document_->isModified())
        return true;
    const auto answer =
        QMessageBox::question(this, tr("Unsaved changes"), tr("The project has unsaved changes. Save them?"),
                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newProject()
{
    newFromTemplate(examplesDir() + QStringLiteral("/mass_spring_damper.model"));
}

void MainWindow::newFromTemplate(const QString& modelFile)
{
    QString error;
    const QString text = readText(modelFile, &error);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot read template"), error);
        return;
    }
    document_->newFromModel(text, modelSourceOf(modelFile, text));
    makeRoomForResults();
}

void MainWindow::openExample()
{
    ExampleBrowser browser(examplesDir(), this);
    if (browser.exec() == QDialog::Accepted && !browser.chosenPath().isEmpty() && maybeSave())
        openPath(browser.chosenPath());
}

void MainWindow::openDialog()
{
    if (!maybeSave())
        return;
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("dirs/project"), examplesDir()).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open"), dir,
                                                      tr("sysid projects and models (*.sysid *.model);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("dirs/project"), QFileInfo(path).absolutePath());
    openPath(path);
}

void MainWindow::importData(const QString& path, const std::map<std::string, double>& trueValues)
{
    ImportDialog dialog(this);
    const ModelSummary& summary = document_->modelSummary();
    dialog.setModelNames(summary.outputs, summary.inputs);
    QSettings settings;
    if (!path.isEmpty())
        dialog.loadFile(path);
    if (dialog.exec() != QDialog::Accepted)
        return;
    project::Project::DataSet set;
    set.path = dialog.filePath().toStdString();
    set.name = QFileInfo(dialog.filePath()).completeBaseName().toStdString();
    set.timeColumn = dialog.timeColumn();
    set.format = dialog.format();
    set.mapping = dialog.mapping();
    set.trueValues = trueValues;
    settings.setValue(QStringLiteral("dirs/data"), QFileInfo(dialog.filePath()).absolutePath());
    document_->addDataSet(set, dialog.table());
}

void MainWindow::generateSyntheticData()
{
    SyntheticDataDialog dialog(this);
    dialog.setModel(document_->modelText(), document_->modelSource());
    dialog.setParameters(document_->modelSummary().parameters);
    if (dialog.exec() != QDialog::Accepted || dialog.writtenPath().isEmpty())
        return;
    importData(dialog.writtenPath(), dialog.trueValues());
}

void MainWindow::showEquations()
{
    EquationsDialog dialog(document_->modelSummary(), this);
    dialog.exec();
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About sysid"),
                       tr("<b>sysid %1</b><br>Identification of nonlinear dynamic systems.<br><br>"
                          "Qt %2, Eigen %3.%4.%5, Boost %6, GiNaC %7.%8.%9, muParser %10, QCustomPlot 2.1")
                           .arg(QStringLiteral(SYSID_VERSION), QString::fromLatin1(qVersion()))
                           .arg(EIGEN_WORLD_VERSION)
                           .arg(EIGEN_MAJOR_VERSION)
                           .arg(EIGEN_MINOR_VERSION)
                           .arg(QStringLiteral(BOOST_LIB_VERSION))
                           .arg(GINACLIB_MAJOR_VERSION)
                           .arg(GINACLIB_MINOR_VERSION)
                           .arg(GINACLIB_MICRO_VERSION)
                           .arg(QString::fromStdString(mu::ParserVersion)));
}

void MainWindow::refreshTitle()
{
    const QString name =
        document_->filePath().isEmpty() ? document_->modelSource() : QFileInfo(document_->filePath()).fileName();
    setWindowTitle(
        QStringLiteral("sysid — %1%2").arg(name, document_->isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::refreshModel()
{
    if (editor_->toPlainText() != document_->modelText()) {
        updatingEditor_ = true;
        editor_->setSource(document_->modelSource());
        editor_->setPlainText(document_->modelText());
        updatingEditor_ = false;
    }
    const ModelSummary& summary = document_->modelSummary();
    symbols_->setSummary(summary);
    periodic_->setModel(summary);
    parameterTable_->setSummary(summary);
    if (summary.valid) {
        QStringList parameters;
        for (const model::Parameter& p : summary.parameters)
            if (!p.isInitialValue)
                parameters << QString::fromStdString(p.name);
        filter_->setParameterNames(parameters);
    }
    {
        const QSignalBlocker block(estimator_);
        estimator_->setOutputs(toList(summary.outputs));
        estimator_->setStates(toList(summary.states));
        estimator_->setInputs(toList(summary.inputs), summary.declaredIntersample);
        if (summary.valid) {  // while the text does not parse, the last model's default stays
            estimator_->setConstrained(!summary.constraints.empty());
            estimator_->setDefaultIntegrator(
                integrate::defaultMethodFor(!summary.fields.empty(), !summary.constraints.empty()));
        }
        estimator_->setSettings(document_->settings());
        QStringList states, residuals;
        try {
            const auto names = job::optimalEstimationNames(document_->modelText().toStdString(),
                                                           document_->modelSource().toStdString());
            states = toList(names.augmentedStates);
            residuals = toList(names.residuals);
        } catch (const std::exception&) {
            // A model optimal estimation cannot use: no rows; running says why.
        }
        estimator_->optimalSettingsWidget()->setNames(states, residuals);
    }
}

void MainWindow::refreshData()
{
    for (int i = 0; i < document_->dataSetCount(); ++i)
        if (!document_->table(i))
            log_->appendPlainText(document_->tableError(i));
    experiments_->showDataSets(*document_);
    {
        const QSignalBlocker block(filter_);
        filter_->setTableAndPreprocessing(document_->table(document_->currentDataSet()), document_->preprocessing());
    }
}

bool MainWindow::saveScreenshot(const QString& path)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly) || !grab().save(&buffer, "PNG"))
        return false;
    try {
        core::writeFileAtomically(path.toStdString(),
                                  std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const core::FileWriteError&) {
        return false;
    }
    return true;
}

QString MainWindow::autosavePath() const
{
    return session_->autosavePath();
}

void MainWindow::writeAutosave()
{
    session_->writeAutosave();
}

void MainWindow::offerAutosaveRestore()
{
    session_->offerAutosaveRestore();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    fit_->cancel();
    session_->removeAutosave();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    const QString path = urls.front().toLocalFile();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("csv") && !maybeSave())
        return;
    openPath(path);
    event->acceptProposedAction();
}

}  // namespace sysid::ui
