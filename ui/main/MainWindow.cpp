#include "ui/main/MainWindow.h"

#include "ui/data/ExperimentList.h"
#include "ui/data/ImportDialog.h"
#include "ui/data/SyntheticDataDialog.h"
#include "ui/editor/EquationsDialog.h"
#include "ui/editor/ModelEditor.h"
#include "ui/editor/ParameterTable.h"
#include "ui/editor/SymbolList.h"
#include "ui/plots/ContourPlot.h"
#include "ui/plots/CostPlot.h"
#include "ui/plots/FieldPlot.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/periodic/PeriodicController.h"
#include "ui/periodic/PeriodicPanel.h"
#include "ui/study/StudyPanel.h"
#include "ui/plots/BranchPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/PlotWidget.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ContourPanel.h"
#include "ui/results/FieldPanel.h"
#include "ui/results/OptimalEstimationView.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"
#include "ui/run/OptimalEstimationRunner.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/settings/FilterPanel.h"
#include "ui/settings/OptimalEstimationSettingsWidget.h"

#include "engine/data/Differentiation.h"
#include "engine/job/OptimalEstimationJob.h"
#include "engine/project/OptimalEstimationJson.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <ginac/version.h>
#include <muParserDef.h>

#include <boost/version.hpp>

#include <Eigen/Core>

#include <cmath>
#include <fstream>

namespace sysid::ui {

namespace {

QString examplesDir()
{
    return QStringLiteral(SYSID_EXAMPLES_DIR);
}

QString readText(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

// Plots show at most a few thousand points of a record; measured and model data are thinned
// with the same stride so their sample times (and the residuals) still line up.
std::size_t displayStride(std::size_t samples)
{
    return std::max<std::size_t>(1, samples / 4000);
}

std::vector<double> thinned(const double* values, std::size_t count, std::size_t stride)
{
    std::vector<double> out;
    out.reserve(count / stride + 1);
    for (std::size_t i = 0; i < count; i += stride)
        out.push_back(values[i]);
    return out;
}

// Velocity for the phase portrait by the project's differentiation method (the one the
// equation-error estimators use), so the user sees the velocity they will be fitted to.
std::vector<double> velocity(const std::vector<double>& t, const std::vector<double>& x,
                             const data::Preprocessing::Derivative& method)
{
    try {
        return data::differentiate(t, x, method.method, method.window, method.polynomialOrder);
    } catch (const std::exception&) {
        return data::differentiate(t, x,
                                   data::DerivativeMethod::CentralDifference);  // e.g. a window longer than the data
    }
}

QStringList toList(const std::vector<std::string>& names)
{
    QStringList list;
    for (const auto& n : names)
        list << QString::fromStdString(n);
    return list;
}

}  // namespace

MainWindow::MainWindow(const QString& path, QWidget* parent) :
    QMainWindow(parent), document_(new ProjectDocument(this)), runner_(new FitRunner(this)),
    optimalRunner_(new OptimalEstimationRunner(this))
{
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    buildPlots();
    buildDocks();
    buildMenus();
    connectDocument();
    connectRunner();
    connectOptimalRunner();
    statusIteration_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(160);
    progress_->setRange(0, 0);
    progress_->setVisible(false);
    statusBar()->addPermanentWidget(statusIteration_);
    statusBar()->addPermanentWidget(progress_);

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    rebuildRecentMenu();

    const QString start = path.isEmpty() ? examplesDir() + QStringLiteral("/sdof_cubic.sysid") : path;
    if (!openPath(start)) {
        document_->newFromModel(QStringLiteral("# a new model\nparam a = 1\nstate y = 1\ny' = -a*y\noutput y\n"),
                                QStringLiteral("untitled.model"));
    }
    autosaveTimer_.setInterval(30000);
    connect(&autosaveTimer_, &QTimer::timeout, this, &MainWindow::writeAutosave);
    autosaveTimer_.start();
    refreshTitle();
}

MainWindow::~MainWindow() = default;

TimeSeriesPlot* MainWindow::outputPlot(int output) const
{
    return output >= 0 && output < static_cast<int>(outputPlots_.size())
        ? outputPlots_[static_cast<std::size_t>(output)]
        : nullptr;
}

void MainWindow::buildPlots()
{
    plots_ = new QTabWidget(this);
    outputPage_ = new QWidget(plots_);
    outputLayout_ = new QVBoxLayout(outputPage_);
    outputLayout_->setContentsMargins(0, 0, 0, 0);
    plots_->addTab(outputPage_, tr("Outputs"));
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
    modelLayout->addWidget(symbols_, 1);
    auto* modelDock = dock(tr("Model"), QStringLiteral("modelDock"), modelBox, Qt::LeftDockWidgetArea);

    parameterTable_ = new ParameterTable(this);
    parameterTable_->setEditor(editor_);
    auto* parameterDock =
        dock(tr("Parameters"), QStringLiteral("parameterDock"), parameterTable_, Qt::LeftDockWidgetArea);
    tabifyDockWidget(modelDock, parameterDock);
    modelDock->raise();

    auto* dataBox = new QWidget(this);
    auto* dataLayout = new QVBoxLayout(dataBox);
    experiments_ = new ExperimentList(dataBox);
    auto* importButton = new QPushButton(tr("Import data…"), dataBox);
    auto* syntheticButton = new QPushButton(tr("Generate synthetic data…"), dataBox);
    connect(importButton, &QPushButton::clicked, this, [this] { importData(); });
    connect(syntheticButton, &QPushButton::clicked, this, &MainWindow::generateSyntheticData);
    dataLayout->addWidget(experiments_);
    dataLayout->addWidget(importButton);
    dataLayout->addWidget(syntheticButton);
    auto* dataDock = dock(tr("Data"), QStringLiteral("dataDock"), dataBox, Qt::RightDockWidgetArea);

    filter_ = new FilterPanel(this);
    auto* filterDock = dock(tr("Filter and noise"), QStringLiteral("filterDock"), filter_, Qt::RightDockWidgetArea);
    tabifyDockWidget(dataDock, filterDock);
    dataDock->raise();

    estimator_ = new EstimatorPanel(this);
    auto* estimatorDock = dock(tr("Estimator"), QStringLiteral("estimatorDock"), estimator_, Qt::RightDockWidgetArea);
    periodic_ = new PeriodicPanel(this);
    auto* periodicDock =
        dock(tr("Periodic solution"), QStringLiteral("periodicDock"), periodic_, Qt::RightDockWidgetArea);
    tabifyDockWidget(estimatorDock, periodicDock);
    study_ = new StudyPanel(document_, this);
    auto* studyDock = dock(tr("Monte Carlo study"), QStringLiteral("studyDock"), study_, Qt::RightDockWidgetArea);
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

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (maybeSave())
            newProject();
    });
    QMenu* templates = file->addMenu(tr("New from &template"));
    const QStringList examples = QDir(examplesDir()).entryList({QStringLiteral("*.model")}, QDir::Files, QDir::Name);
    for (const QString& example : examples)
        templates->addAction(example, this, [this, example] {
            if (maybeSave())
                newFromTemplate(examplesDir() + QLatin1Char('/') + example);
        });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->addAction(tr("Parameters as JSON…"), this, &MainWindow::exportParametersJson);
    exportMenu->addAction(tr("Parameters as CSV…"), this, &MainWindow::exportParametersCsv);
    exportMenu->addAction(tr("Current figure…"), this, &MainWindow::exportFigure);
    exportMenu->addAction(tr("Report (parameters and all plots)…"), this, &MainWindow::exportReport);
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

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::runFit);
    run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelFit);
    run->addSeparator();
    run->addAction(tr("Find &periodic solution"), QKeySequence(Qt::CTRL | Qt::Key_P), periodicController_,
                   &PeriodicController::run);
    run->addAction(tr("Cancel periodic solution"), periodicController_, &PeriodicController::cancel);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
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
    connect(document_, &ProjectDocument::resultChanged, this, [this] {
        if (document_->result())
            results_->setResult(*document_->result(), document_->trueValues());
        else
            results_->clear();
    });
    connect(document_, &ProjectDocument::modifiedChanged, this, &MainWindow::refreshTitle);
    connect(document_, &ProjectDocument::filePathChanged, this, &MainWindow::refreshTitle);

    connect(editor_, &QPlainTextEdit::textChanged, this, [this] {
        if (!updatingEditor_)
            document_->setModelText(editor_->toPlainText());
    });
    connect(filter_, &FilterPanel::preprocessingChanged, this, [this] {
        document_->setPreprocessing(filter_->preprocessing());
        refreshMeasuredPlots();  // the phase portrait's velocity follows the differentiation method
    });
    connect(estimator_, &EstimatorPanel::settingsChanged, this,
            [this] { document_->setSettings(estimator_->settings()); });
    connect(estimator_, &EstimatorPanel::optimalSettingsChanged, this,
            [this] { document_->setOptimalEstimationSettings(estimator_->optimalSettingsWidget()->settings()); });
    connect(estimator_, &EstimatorPanel::runRequested, this, &MainWindow::runFit);
    connect(results_, &ResultsPanel::refineRequested, this, &MainWindow::refineByOutputError);
    connect(estimator_, &EstimatorPanel::cancelRequested, this, &MainWindow::cancelFit);
    connect(experiments_, &ExperimentList::currentExperimentChanged, document_, &ProjectDocument::setCurrentDataSet);
    connect(experiments_, &ExperimentList::removeRequested, document_, &ProjectDocument::removeDataSet);
}

void MainWindow::connectRunner()
{
    connect(runner_, &FitRunner::started, this, [this](const QStringList& names) {
        parameterPlot_->clear();
        parameterPlot_->setParameterNames(names);
        costPlot_->clear();
        log_->appendPlainText(tr("fit started: %1").arg(names.join(QStringLiteral(", "))));
    });
    connect(runner_, &FitRunner::iteration, this, [this](const estimate::IterationRecord& r) {
        parameterPlot_->addIteration(static_cast<int>(r.iteration), r.parameters);
        costPlot_->addIteration(static_cast<int>(r.iteration), r.cost);
        statusIteration_->setText(tr("iteration %1   cost %2").arg(r.iteration).arg(r.cost, 0, 'g', 6));
    });
    connect(
        runner_, &FitRunner::trace, this,
        [this](int experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs) {
            if (experiment != std::max(document_->currentDataSet(), 0) || times.empty())
                return;
            lastTraceTimes_ = times;
            lastTraceOutputs_ = outputs;
            field_->setModelOutputs(times, outputs);
            const std::size_t stride = displayStride(times.size());
            const std::vector<double> t = thinned(times.data(), times.size(), stride);
            for (Eigen::Index j = 0; j < outputs.cols() && j < static_cast<Eigen::Index>(outputPlots_.size()); ++j) {
                const Eigen::VectorXd column = outputs.col(j);
                const std::vector<double> y = thinned(column.data(), static_cast<std::size_t>(column.size()), stride);
                outputPlots_[static_cast<std::size_t>(j)]->setModel(t, y);
                if (j == 0)
                    phasePlot_->setModel(y, velocity(t, y, {}));
            }
        });
    connect(runner_, &FitRunner::logLine, log_, &QPlainTextEdit::appendPlainText);
    connect(periodicController_, &PeriodicController::message, this, [this](const QString& text) {
        log_->appendPlainText(text);
        statusBar()->showMessage(text, 8000);
    });
    connect(contour_, &ContourPanel::message, this, [this](const QString& text) {
        log_->appendPlainText(text);
        statusBar()->showMessage(text, 8000);
    });
    connect(study_, &StudyPanel::message, this, [this](const QString& text) {
        log_->appendPlainText(text);
        statusBar()->showMessage(text, 8000);
    });
    connect(runner_, &FitRunner::finished, this,
            [this](bool cancelled, const QString& message, const std::optional<estimate::FitResult>& result) {
                estimator_->setRunning(false);
                progress_->setVisible(false);
                if (result) {
                    document_->setResult(*result);
                    results_->setRefineAvailable(!cancelled &&
                                                 estimate::takes(lastFitMethod_, estimate::MethodInput::Refinement));
                    showIdentifiedSpectrum();
                    statusBar()->showMessage(cancelled ? tr("fit cancelled: best estimate kept")
                                                       : tr("fit finished: %1").arg(message),
                                             10000);
                    log_->appendPlainText(tr("fit %1: %2").arg(cancelled ? tr("cancelled") : tr("finished"), message));
                } else {
                    statusBar()->showMessage(tr("fit failed: %1").arg(message), 15000);
                    log_->appendPlainText(tr("fit failed: %1").arg(message));
                    QMessageBox::warning(this, tr("Fit failed"), message);
                }
            });
}

void MainWindow::connectOptimalRunner()
{
    connect(optimalRunner_, &OptimalEstimationRunner::started, parameterPlot_,
            &ParameterHistoryPlot::setParameterNames);
    connect(optimalRunner_, &OptimalEstimationRunner::iteration, this, [this](const estimate::IterationRecord& r) {
        parameterPlot_->addIteration(static_cast<int>(r.iteration), r.parameters);
        costPlot_->addIteration(static_cast<int>(r.iteration), r.cost);
        statusIteration_->setText(tr("iteration %1   ½‖F‖² %2").arg(r.iteration).arg(r.cost, 0, 'g', 6));
    });
    connect(optimalRunner_, &OptimalEstimationRunner::trace, this,
            [this](int, const std::vector<double>& times, const Eigen::MatrixXd& outputs) {
                if (times.empty())
                    return;
                const std::size_t stride = displayStride(times.size());
                const std::vector<double> t = thinned(times.data(), times.size(), stride);
                for (Eigen::Index j = 0; j < outputs.cols() && j < static_cast<Eigen::Index>(outputPlots_.size());
                     ++j) {
                    const Eigen::VectorXd column = outputs.col(j);
                    outputPlots_[static_cast<std::size_t>(j)]->setModel(
                        t, thinned(column.data(), static_cast<std::size_t>(column.size()), stride));
                }
            });
    connect(optimalRunner_, &OptimalEstimationRunner::logLine, log_, &QPlainTextEdit::appendPlainText);
    connect(
        optimalRunner_, &OptimalEstimationRunner::finished, this,
        [this](bool cancelled, const QString& message, const std::optional<estimate::OptimalEstimationResult>& result) {
            estimator_->setRunning(false);
            progress_->setVisible(false);
            const QString what = tr("optimal estimation");
            if (result) {
                optimalView_->setResult(*result);
                const QString end = cancelled ? tr("cancelled")
                    : result->converged       ? tr("converged")
                                              : tr("did not converge");
                statusBar()->showMessage(tr("%1 %2: %3").arg(what, end, message), 10000);
                log_->appendPlainText(tr("%1 %2: %3").arg(what, end, message));
            } else {
                optimalView_->clear();
                statusBar()->showMessage(tr("%1 failed: %2").arg(what, message), 15000);
                log_->appendPlainText(tr("%1 failed: %2").arg(what, message));
                QMessageBox::warning(this, tr("Optimal estimation failed"), message);
            }
        });
}

void MainWindow::runOptimalEstimation()
{
    job::OptimalEstimationJob job;
    try {
        job::FitJob fit = document_->makeFitJob();
        if (fit.experiments.empty())
            throw std::runtime_error("no data: import a record to estimate from");
        const auto current = static_cast<std::size_t>(std::max(document_->currentDataSet(), 0));
        job.modelText = fit.modelText;
        job.modelSource = fit.modelSource;
        job.experiment = fit.experiments.at(std::min(current, fit.experiments.size() - 1));
        job.preprocessing = fit.preprocessing;
        job.parameterValues = fit.parameterValues;
        job.settings = estimator_->optimalSettingsWidget()->settings();
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Cannot run optimal estimation"), QString::fromStdString(e.what()));
        return;
    }
    estimator_->setRunning(true);
    progress_->setVisible(true);
    statusIteration_->clear();
    costPlot_->clear();
    parameterPlot_->clear();
    optimalView_->clear();
    plots_->setCurrentWidget(optimalView_);
    log_->appendPlainText(tr("optimal estimation started"));
    optimalRunner_->start(std::move(job));
}

void MainWindow::runFit()
{
    if (runner_->isRunning() || optimalRunner_->isRunning())
        return;
    if (estimator_->optimalSelected()) {
        runOptimalEstimation();
        return;
    }
    job::FitJob job;
    try {
        job = document_->makeFitJob();
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Cannot fit"), QString::fromStdString(e.what()));
        return;
    }
    startFit(std::move(job));
}

void MainWindow::startFit(job::FitJob job)
{
    lastFitMethod_ = job.settings.method;
    lastTraceTimes_.clear();
    results_->setRefineAvailable(false);
    estimator_->setRunning(true);
    progress_->setVisible(true);
    statusIteration_->clear();
    runner_->start(std::move(job));
}

void MainWindow::refineByOutputError()
{
    if (runner_->isRunning() || optimalRunner_->isRunning() || !results_->hasResult())
        return;
    job::FitJob job;
    try {
        job = job::refinedByOutputError(document_->makeFitJob(), results_->result());
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Cannot fit"), QString::fromStdString(e.what()));
        return;
    }
    log_->appendPlainText(tr("refining by output error from the %1 estimate")
                              .arg(QString::fromStdString(estimate::methodName(lastFitMethod_))));
    startFit(std::move(job));
}

void MainWindow::showIdentifiedSpectrum()
{
    const ModelSummary& summary = document_->modelSummary();
    const int current = document_->currentDataSet();
    if (lastTraceTimes_.empty() || current < 0)
        return;
    const auto& set = document_->dataSet(current);
    for (std::size_t j = 0; j < summary.outputs.size() && static_cast<Eigen::Index>(j) < lastTraceOutputs_.cols();
         ++j) {
        const auto mapped = set.mapping.find(summary.outputs[j]);
        const QString column =
            QString::fromStdString(mapped == set.mapping.end() ? summary.outputs[j] : mapped->second);
        if (column != filter_->currentColumn())
            continue;
        const Eigen::VectorXd values = lastTraceOutputs_.col(static_cast<Eigen::Index>(j));
        filter_->setIdentifiedResponse(column, lastTraceTimes_,
                                       std::vector<double>(values.data(), values.data() + values.size()));
    }
}

void MainWindow::cancelFit()
{
    runner_->cancel();
    optimalRunner_->cancel();
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
        document_->newFromModel(text, QFileInfo(path).fileName());
        return true;
    }
    if (!document_->load(path, &error)) {
        statusBar()->showMessage(error, 15000);
        if (isVisible())
            QMessageBox::warning(this, tr("Cannot open project"), error);
        return false;
    }
    foldStartingValuesIntoText();
    addRecent(document_->filePath());
    return true;
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
    addRecent(document_->filePath());
    removeAutosave();
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
    document_->newFromModel(text, QFileInfo(modelFile).fileName());
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

void MainWindow::exportParametersJson()
{
    if (!document_->result())
        return statusBar()->showMessage(tr("no result to export yet: run a fit first"), 5000);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export parameters"), QString(), tr("JSON (*.json)"));
    QString error;
    if (!path.isEmpty() && !ResultsPanel::exportJson(*document_->result(), path, &error, document_->trueValues()))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportParametersCsv()
{
    if (!document_->result())
        return statusBar()->showMessage(tr("no result to export yet: run a fit first"), 5000);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export parameters"), QString(), tr("CSV (*.csv)"));
    QString error;
    if (!path.isEmpty() && !ResultsPanel::exportCsv(*document_->result(), path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportFigure()
{
    auto* plot = qobject_cast<PlotWidget*>(plots_->currentWidget());
    if (!plot && plots_->currentWidget() == contour_)
        plot = contour_->plot();
    if (!plot && plots_->currentWidget() == field_)
        plot = field_->plot();
    if (!plot && !outputPlots_.empty())
        plot = outputPlots_.front();
    if (!plot)
        return;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export figure"), QString(), tr("PNG (*.png);;PDF (*.pdf);;SVG (*.svg)"));
    QString error;
    if (!path.isEmpty() && !plot->exportTo(path, 1200, 800, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::exportReport()
{
    if (!document_->result())
        return statusBar()->showMessage(tr("no result to export yet: run a fit first"), 5000);
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Report folder"));
    if (folder.isEmpty())
        return;
    std::vector<std::pair<QString, std::function<bool(const QString&, QString*)>>> figures;
    for (std::size_t j = 0; j < outputPlots_.size(); ++j) {
        TimeSeriesPlot* plot = outputPlots_[j];
        figures.push_back({QStringLiteral("output_%1.png").arg(j + 1),
                           [plot](const QString& p, QString* e) { return plot->exportTo(p, 1200, 800, e); }});
    }
    figures.push_back({QStringLiteral("parameters.png"),
                       [this](const QString& p, QString* e) { return parameterPlot_->exportTo(p, 1200, 800, e); }});
    figures.push_back({QStringLiteral("cost.png"),
                       [this](const QString& p, QString* e) { return costPlot_->exportTo(p, 1200, 800, e); }});
    figures.push_back({QStringLiteral("phase_portrait.png"),
                       [this](const QString& p, QString* e) { return phasePlot_->exportTo(p, 1200, 800, e); }});
    QString error;
    if (!ResultsPanel::exportReport(*document_->result(), folder, figures, &error))
        QMessageBox::warning(this, tr("Report failed"), error);
    else
        statusBar()->showMessage(tr("report written to %1").arg(folder), 8000);
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

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recent")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 10)
        recent.removeLast();
    settings.setValue(QStringLiteral("recent"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(path, this, [this, path] {
            if (maybeSave())
                openPath(path);
        });
    recentMenu_->setEnabled(!recent.isEmpty());
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
    {
        const QSignalBlocker block(estimator_);
        estimator_->setOutputs(toList(summary.outputs));
        estimator_->setStates(toList(summary.states));
        if (summary.valid)  // while the text does not parse, the last model's default stays
            estimator_->setDefaultIntegrator(integrate::defaultMethodFor(!summary.fields.empty()));
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
    if (summary.valid && summary.outputs.size() != outputPlots_.size()) {
        for (TimeSeriesPlot* p : outputPlots_)
            delete p;
        outputPlots_.clear();
        for (std::size_t j = 0; j < summary.outputs.size(); ++j) {
            auto* plot = new TimeSeriesPlot(outputPage_);
            outputLayout_->addWidget(plot);
            outputPlots_.push_back(plot);
        }
        refreshMeasuredPlots();
    }
}

void MainWindow::refreshData()
{
    QStringList names, paths;
    for (int i = 0; i < document_->dataSetCount(); ++i) {
        const auto& set = document_->dataSet(i);
        names << QString::fromStdString(
            set.name.empty() ? QFileInfo(QString::fromStdString(set.path)).fileName().toStdString() : set.name);
        paths << QString::fromStdString(set.path);
        if (!document_->table(i))
            log_->appendPlainText(document_->tableError(i));
    }
    experiments_->setExperiments(names, paths, document_->currentDataSet());
    {
        const QSignalBlocker block(filter_);
        filter_->setTable(document_->table(document_->currentDataSet()));
        filter_->setPreprocessing(document_->preprocessing());
    }
    refreshMeasuredPlots();
}

void MainWindow::refreshMeasuredPlots()
{
    const data::DataTable* table = document_->table(document_->currentDataSet());
    const ModelSummary& summary = document_->modelSummary();
    if (!table)
        return;
    const auto& set = document_->dataSet(document_->currentDataSet());
    for (std::size_t j = 0; j < outputPlots_.size() && j < summary.outputs.size(); ++j) {
        const std::string& output = summary.outputs[j];
        const auto mapped = set.mapping.find(output);
        const std::string column = mapped == set.mapping.end() ? output : mapped->second;
        if (!table->findColumn(column))
            continue;
        const std::size_t stride = displayStride(table->rowCount());
        const std::vector<double> t = thinned(table->time().data(), table->rowCount(), stride);
        const std::vector<double> y = thinned(table->column(column).data(), table->rowCount(), stride);
        outputPlots_[j]->setMeasured(t, y, QString::fromStdString(output));
        if (j == 0) {
            const std::vector<double> v =
                velocity(table->time(), table->column(column), document_->preprocessing().differentiation);
            phasePlot_->setMeasured(y, thinned(v.data(), v.size(), stride));
            phasePlot_->setAxisNames(QString::fromStdString(output),
                                     QString::fromStdString(output) + QStringLiteral("'"));
        }
    }
}

bool MainWindow::saveScreenshot(const QString& path)
{
    return grab().save(path, "PNG");
}

QString MainWindow::autosavePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave.sysid");
}

void MainWindow::writeAutosave()
{
    if (!document_->isModified())
        return;
    QDir().mkpath(QFileInfo(autosavePath()).absolutePath());
    QFile file(autosavePath() + QStringLiteral(".tmp"));
    nlohmann::json j;
    j["file"] = document_->filePath().toStdString();
    j["project"] = document_->toJson();
    if (!file.open(QIODevice::WriteOnly))
        return;
    file.write(QByteArray::fromStdString(j.dump()));
    file.close();
    QFile::remove(autosavePath());
    QFile::rename(autosavePath() + QStringLiteral(".tmp"), autosavePath());
}

void MainWindow::removeAutosave()
{
    QFile::remove(autosavePath());
}

void MainWindow::offerAutosaveRestore()
{
    QFile file(autosavePath());
    if (!file.exists() || !file.open(QIODevice::ReadOnly))
        return;
    const QByteArray bytes = file.readAll();
    file.close();
    const auto answer = QMessageBox::question(
        this, tr("Restore unsaved work?"), tr("sysid did not close normally last time. Restore the unsaved project?"));
    if (answer != QMessageBox::Yes) {
        removeAutosave();
        return;
    }
    try {
        const nlohmann::json j = nlohmann::json::parse(bytes.toStdString());
        QString error;
        if (!document_->restoreJson(j.at("project"), QString::fromStdString(j.value("file", std::string())), &error))
            QMessageBox::warning(this, tr("Cannot restore"), error);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Cannot restore"), QString::fromStdString(e.what()));
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    runner_->cancel();
    optimalRunner_->cancel();
    removeAutosave();
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
