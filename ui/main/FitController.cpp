#include "ui/main/FitController.h"

#include "engine/estimate/MethodTraits.h"

#include "ui/plots/CostPlot.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/FieldPanel.h"
#include "ui/results/OptimalEstimationView.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"
#include "ui/run/OptimalEstimationRunner.h"
#include "ui/run/ValidationRunner.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/settings/FilterPanel.h"
#include "ui/settings/OptimalEstimationSettingsWidget.h"

#include "engine/job/OptimalEstimationJob.h"
#include "engine/project/OptimalEstimationJson.h"
#include "ui/settings/Utf8.h"

#include <QMessageBox>
#include <QStringList>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sysid::ui {

FitController::FitController(ProjectDocument* document, const Views& views, QObject* parent) :
    QObject(parent), document_(document), views_(views), runner_(new FitRunner(this)),
    optimalRunner_(new OptimalEstimationRunner(this)), validationRunner_(new ValidationRunner(this))
{
    connect(validationRunner_, &ValidationRunner::finished, this, &FitController::showValidation);
    connectFitRunner();
    connectOptimalRunner();
    connect(document_, &ProjectDocument::projectReplaced, this, &FitController::cancel);
}

void FitController::connectFitRunner()
{
    connect(runner_, &FitRunner::started, this, [this](const QStringList& names) {
        views_.parameterPlot->clear();
        views_.parameterPlot->setParameterNames(names);
        QStringList units;
        for (const QString& name : names)
            units << QString::fromStdString(
                model::unitOfParameter(document_->modelSummary().parameters, name.toStdString()));
        views_.parameterPlot->setParameterUnits(units);
        views_.costPlot->clear();
        emit logLine(tr("fit started: %1").arg(names.join(QStringLiteral(", "))));
    });
    connect(runner_, &FitRunner::iteration, this, [this](const estimate::IterationRecord& r) {
        views_.parameterPlot->addIteration(static_cast<int>(r.iteration), r.parameters);
        views_.costPlot->addIteration(static_cast<int>(r.iteration), r.cost);
        bestCost_ = std::isnan(bestCost_) ? r.cost : std::min(bestCost_, r.cost);
        emit iterationProgress(static_cast<int>(r.iteration), maxIterations_);
        emit iterationText(
            tr("iteration %1 of %2 · best cost %3").arg(r.iteration).arg(maxIterations_).arg(bestCost_, 0, 'g', 6));
    });
    connect(runner_, &FitRunner::trace, this,
            [this](int record, const std::vector<double>& times, const Eigen::MatrixXd& outputs) {
                if (times.empty())
                    return;
                const auto k = static_cast<std::size_t>(record);
                const int experiment = k < fittedSets_.size() ? static_cast<int>(fittedSets_[k]) : record;
                emit modelResponse(experiment, times, outputs, true);
                if (experiment != std::max(document_->currentDataSet(), 0))
                    return;
                lastTraceTimes_ = times;
                lastTraceOutputs_ = outputs;
                views_.field->setModelOutputs(times, outputs);
            });
    connect(runner_, &FitRunner::logLine, this, &FitController::logLine);
    connect(runner_, &FitRunner::finished, this,
            [this](bool cancelled, const QString& message, const std::optional<estimate::FitResult>& result) {
                views_.estimator->setRunning(false);
                // The run ends after its result is shown, so the views judge the result as it stands.
                if (result && !document_->setResult(*result, startRevision_)) {
                    emit runningChanged(false);
                    emit logLine(tr("fit result discarded: another project was opened while it ran"));
                } else if (result) {
                    emit runningChanged(false);
                    views_.results->setRefineAvailable(
                        !cancelled && estimate::takes(lastFitMethod_, estimate::MethodInput::Refinement));
                    showIdentifiedSpectrum();
                    emit statusMessage(cancelled ? tr("fit cancelled: best estimate kept")
                                                 : tr("fit finished: %1").arg(message),
                                       10000);
                    emit logLine(tr("fit %1: %2").arg(cancelled ? tr("cancelled") : tr("finished"), message));
                    if (!cancelled)
                        validate(*result);
                } else {
                    emit runningChanged(false);
                    emit statusMessage(tr("fit failed: %1").arg(message), 15000);
                    emit logLine(tr("fit failed: %1").arg(message));
                    QMessageBox::warning(views_.dialogParent, tr("Fit failed"), message);
                }
            });
}

void FitController::connectOptimalRunner()
{
    connect(optimalRunner_, &OptimalEstimationRunner::diagnosed, this,
            [this](const QString& message, const std::optional<estimate::StiffnessDiagnostics>& d) {
                if (!d) {
                    emit logLine(tr("stiffness check failed: %1").arg(message));
                    QMessageBox::warning(views_.dialogParent, tr("Stiffness check failed"), message);
                    return;
                }
                views_.estimator->optimalSettingsWidget()->setStiffness(*d);
                views_.optimalView->showStiffnessCheck(*d);
                emit stiffnessChecked();
            });
    connect(optimalRunner_, &OptimalEstimationRunner::started, views_.parameterPlot,
            &ParameterHistoryPlot::setParameterNames);
    connect(optimalRunner_, &OptimalEstimationRunner::iteration, this, [this](const estimate::IterationRecord& r) {
        views_.parameterPlot->addIteration(static_cast<int>(r.iteration), r.parameters);
        views_.costPlot->addIteration(static_cast<int>(r.iteration), r.cost);
        // Newton iterations over a schedule of stages: no one maximum to count towards.
        emit iterationProgress(static_cast<int>(r.iteration), 0);
        emit iterationText(tr("iteration %1   ½‖F‖² %2").arg(r.iteration).arg(r.cost, 0, 'g', 6));
    });
    connect(optimalRunner_, &OptimalEstimationRunner::trace, this,
            [this](int, const std::vector<double>& times, const Eigen::MatrixXd& outputs) {
                if (!times.empty())
                    emit modelResponse(optimalDataSet_, times, outputs, false);
            });
    connect(optimalRunner_, &OptimalEstimationRunner::logLine, this, &FitController::logLine);
    connect(
        optimalRunner_, &OptimalEstimationRunner::finished, this,
        [this](bool cancelled, const QString& message, const std::optional<estimate::OptimalEstimationResult>& result) {
            views_.estimator->setRunning(false);
            const QString what = tr("optimal estimation");
            if (document_->revision().project != startRevision_.project) {
                emit runningChanged(false);
                emit logLine(tr("%1 result discarded: another project was opened while it ran").arg(what));
            } else if (result) {
                views_.optimalView->setResult(*result);
                if (result->states.rows() > 0)
                    document_->setLastOptimalResult(project::optimalResultToJson(*result));
                views_.estimator->optimalSettingsWidget()->setStiffness(result->stiffnessAtGuess);
                emit runningChanged(false);  // after the result, so the views judge it as it stands
                const QString end = cancelled ? tr("cancelled")
                    : result->converged()     ? tr("converged")
                                              : tr("did not converge");
                emit statusMessage(tr("%1 %2: %3").arg(what, end, message), 10000);
                emit logLine(tr("%1 %2: %3").arg(what, end, message));
            } else {
                views_.optimalView->clear();
                emit runningChanged(false);
                emit statusMessage(tr("%1 failed: %2").arg(what, message), 15000);
                emit logLine(tr("%1 failed: %2").arg(what, message));
                QMessageBox::warning(views_.dialogParent, tr("Optimal estimation failed"), message);
            }
        });
}

bool FitController::makeOptimalJob(job::OptimalEstimationJob& job, const QString& title)
{
    try {
        job::FitJob fit = document_->makeFitJob();
        if (fit.experiments.empty())
            throw std::runtime_error("no data: import a record to estimate from");
        // The current data set when the fit uses it, else the first one it uses.
        const auto fitted = project::estimationDataSets(document_->project());
        const auto current =
            std::find(fitted.begin(), fitted.end(), static_cast<std::size_t>(std::max(document_->currentDataSet(), 0)));
        job.modelText = fit.modelText;
        job.modelSource = fit.modelSource;
        const std::size_t record = current == fitted.end() ? 0 : static_cast<std::size_t>(current - fitted.begin());
        job.experiment = fit.experiments.at(record);
        optimalDataSet_ = static_cast<int>(fitted.at(record));
        job.preprocessing = fit.preprocessing;
        job.parameterValues = fit.parameterValues;
        job.settings = views_.estimator->optimalSettingsWidget()->settings();
        const std::string& from = job.settings.guessFrom;
        if (from == estimate::kLastOptimalResult) {
            const auto& last = views_.optimalView->result();
            if (!last || last->states.rows() == 0)
                throw std::runtime_error("there is no result to start from yet: run it once from the data "
                                         "(Start from: the data)");
            job.settings.startFrom = estimate::startTrajectoryFrom(*last, "the last result");
        } else if (!from.empty()) {
            job.settings.startFrom = project::loadStartTrajectory(from);
        }
    } catch (const std::exception& e) {
        QMessageBox::warning(views_.dialogParent, title, QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

void FitController::checkOptimalStiffness()
{
    if (runner_->isRunning() || optimalRunner_->isRunning() || refusedForInput(tr("Cannot check the stiffness")))
        return;
    job::OptimalEstimationJob job;
    if (!makeOptimalJob(job, tr("Cannot check the stiffness")))
        return;
    emit logLine(tr("stiffness check started"));
    optimalRunner_->diagnose(std::move(job));
}

void FitController::runOptimalEstimation()
{
    job::OptimalEstimationJob job;
    if (!makeOptimalJob(job, tr("Cannot run optimal estimation")))
        return;
    startRevision_ = document_->revision();
    views_.estimator->setRunning(true);
    emit runningChanged(true);
    emit iterationText(QString());
    views_.costPlot->clear();
    views_.parameterPlot->clear();
    views_.optimalView->clear(tr("running…"));
    emit optimalEstimationStarted();
    emit logLine(tr("optimal estimation started"));
    optimalRunner_->start(std::move(job));
}

void FitController::run()
{
    if (runner_->isRunning() || optimalRunner_->isRunning() || refusedForInput(tr("Cannot fit")))
        return;
    if (views_.estimator->optimalSelected()) {
        runOptimalEstimation();
        return;
    }
    job::FitJob job;
    try {
        job = document_->makeFitJob();
    } catch (const std::exception& e) {
        QMessageBox::warning(views_.dialogParent, tr("Cannot fit"), QString::fromStdString(e.what()));
        return;
    }
    startFit(std::move(job));
}

QStringList FitController::inputProblems() const
{
    return views_.estimator->inputProblems() + views_.filter->inputProblems();
}

bool FitController::refusedForInput(const QString& title)
{
    const QStringList problems = inputProblems();
    if (problems.isEmpty())
        return false;
    emit statusMessage(tr("%1: %2").arg(title, problems.front()), 15000);
    emit logLine(tr("%1: %2").arg(title, problems.join(QStringLiteral("; "))));
    QMessageBox::warning(views_.dialogParent, title,
                         tr("Correct the entries marked red first:\n%1").arg(problems.join(QLatin1Char('\n'))));
    return true;
}

void FitController::startFit(job::FitJob job)
{
    lastFitMethod_ = job.settings.method;
    maxIterations_ = static_cast<int>(std::min<std::size_t>(job.settings.maxIterations, INT_MAX));
    bestCost_ = std::numeric_limits<double>::quiet_NaN();
    startRevision_ = document_->revision();
    fittedSets_ = project::estimationDataSets(document_->project());
    lastJob_ = job;
    lastJob_.experiments.clear();
    validationRunner_->cancel();
    lastTraceTimes_.clear();
    views_.results->setRefineAvailable(false);
    views_.estimator->setRunning(true);
    emit runningChanged(true);
    emit iterationText(QString());
    runner_->start(std::move(job));
}

void FitController::refineByOutputError()
{
    if (runner_->isRunning() || optimalRunner_->isRunning() || !views_.results->hasResult() ||
        refusedForInput(tr("Cannot fit")))
        return;
    job::FitJob job;
    try {
        job = job::refinedByOutputError(document_->makeFitJob(), views_.results->result());
    } catch (const std::exception& e) {
        QMessageBox::warning(views_.dialogParent, tr("Cannot fit"), QString::fromStdString(e.what()));
        return;
    }
    emit logLine(tr("refining by output error from the %1 estimate")
                     .arg(QString::fromStdString(estimate::methodName(lastFitMethod_))));
    startFit(std::move(job));
}

void FitController::showIdentifiedSpectrum()
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
        if (column != views_.filter->currentColumn())
            continue;
        const Eigen::VectorXd values = lastTraceOutputs_.col(static_cast<Eigen::Index>(j));
        views_.filter->setIdentifiedResponse(column, lastTraceTimes_,
                                             std::vector<double>(values.data(), values.data() + values.size()));
    }
}

void FitController::cancel()
{
    runner_->cancel();
    optimalRunner_->cancel();
    validationRunner_->cancel();
}

void FitController::validate(const estimate::FitResult& result)
{
    std::vector<ValidationRunner::Record> records;
    for (int i = 0; i < document_->dataSetCount(); ++i) {
        const auto& set = document_->dataSet(i);
        if (!set.included || set.role != project::DataRole::Validation)
            continue;
        const data::DataTable* table = document_->table(i);
        const QString name = QString::fromStdString(set.name.empty() ? set.path : set.name);
        if (!table) {
            emit logLine(tr("validation on %1 skipped: %2").arg(name, document_->tableError(i)));
            continue;
        }
        records.push_back({i, job::ExperimentData{name.toStdString(), *table, set.mapping, set.fixedValues}});
    }
    if (records.empty())
        return;
    if (validationRunner_->isRunning()) {
        emit logLine(tr("validation skipped: the previous one is still stopping"));
        return;
    }
    std::map<std::string, double> estimates;
    for (const auto& p : result.parameters)
        estimates[p.name] = p.value;
    validationRevision_ = document_->revision();
    emit logLine(tr("validation: simulating the model at the estimate on %n data set(s)", nullptr,
                    static_cast<int>(records.size())));
    validationInitial_ = job::defaultInitialValues(result);
    validationRunner_->start(lastJob_, std::move(records), std::move(estimates), validationInitial_);
}

namespace {

QString initialValuesText(job::InitialValues initial)
{
    const std::string_view label = job::kInitialValueSources.label(initial.source);
    return toQString(label).toLower();
}

}  // namespace

void FitController::showValidation(const std::vector<ValidationOutcome>& outcomes)
{
    if (document_->revision().project != validationRevision_.project)
        return;  // another project was opened meanwhile
    QStringList summaries;
    for (const ValidationOutcome& outcome : outcomes) {
        if (!outcome.error.isEmpty()) {
            emit logLine(tr("validation on %1 failed: %2").arg(outcome.name, outcome.error));
            summaries << tr("%1 failed").arg(outcome.name);
            continue;
        }
        const job::ValidationSimulation& v = outcome.comparison.simulation;
        const std::vector<job::OutputAgreement>& agreement = outcome.comparison.agreement;
        QStringList parts;
        for (std::size_t j = 0; j < agreement.size() && j < v.outputNames.size(); ++j)
            if (!std::isnan(agreement[j].rmse))
                parts << tr("%1 rmse %2, fit %3 %")
                             .arg(QString::fromStdString(v.outputNames[j]))
                             .arg(agreement[j].rmse, 0, 'g', 4)
                             .arg(agreement[j].fitPercent, 0, 'f', 1);
        const QString measures = parts.isEmpty() ? tr("no output measured") : parts.join(QStringLiteral("; "));
        emit logLine(tr("validation on %1: %2").arg(outcome.name, measures));
        summaries << tr("%1: %2").arg(outcome.name, measures);
        emit validationResponse(outcome.dataSet, v.times, v.outputs, agreement);
    }
    if (!summaries.isEmpty())
        emit statusMessage(tr("validation — %1").arg(summaries.join(QStringLiteral(" · "))), 15000);
    if (views_.results)
        views_.results->setValidationSummary(summaries.isEmpty() ? QString()
                                                                 : tr("Validation (initial values: %1): %2")
                                                                       .arg(initialValuesText(validationInitial_),
                                                                            summaries.join(QStringLiteral(" · "))));
}

}  // namespace sysid::ui
