#include "ui/results/FitViews.h"

#include "ui/plots/CostPlot.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/results/FieldPanel.h"
#include "ui/results/OptimalEstimationView.h"
#include "ui/results/ResidualAnalysisPanel.h"
#include "ui/results/ResultsPanel.h"

#include "engine/data/Differentiation.h"
#include "engine/project/OptimalEstimationJson.h"
#include "engine/model/UnitLabel.h"

#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace sysid::ui {

namespace {

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

std::vector<double> thinned(const std::vector<double>& values, std::size_t stride)
{
    return thinned(values.data(), values.size(), stride);
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

QString outOfDateNotice(const QString& reason)
{
    return reason.isEmpty() ? QString() : FitViews::tr("Out of date — %1 this fit").arg(reason);
}

}  // namespace

FitViews::FitViews(ProjectDocument* document, const Views& views, QWidget* pageParent, QObject* parent) :
    QObject(parent), document_(document), views_(views), outputPage_(new QWidget(pageParent)),
    outputLayout_(new QVBoxLayout(outputPage_))
{
    outputPage_->setObjectName(QStringLiteral("outputPage"));
    outputLayout_->setContentsMargins(0, 0, 0, 0);
    runRevision_ = optimalRevision_ = document_->revision();

    connect(document_, &ProjectDocument::projectReplaced, this, &FitViews::clearAll);
    connect(document_, &ProjectDocument::modelTextChanged, this, [this] {
        const ModelSummary& summary = document_->modelSummary();
        QStringList names, inputs;
        for (const auto& o : summary.outputs)
            names << QString::fromStdString(o);
        for (const auto& u : summary.inputs)
            inputs << QString::fromStdString(u);
        if (summary.valid && (names != plottedOutputs_ || inputs != plottedInputs_)) {
            rebuildPlots();
            redrawOutputs();
        } else if (summary.valid) {
            labelPlots();  // the same outputs, perhaps with other units
        }
    });
    connect(document_, &ProjectDocument::dataChanged, this, &FitViews::redrawOutputs);
    connect(document_, &ProjectDocument::currentDataSetChanged, this, &FitViews::redrawOutputs);
    connect(document_, &ProjectDocument::preprocessingChanged, this, &FitViews::redrawOutputs);
    connect(document_, &ProjectDocument::resultChanged, this, &FitViews::showResult);
    connect(document_, &ProjectDocument::problemChanged, this, [this] {
        if (!responses_.empty() && !document_->changesSince(runRevision_, ProjectDocument::DataAspect).isEmpty()) {
            responses_.clear();  // they belonged to the data sets as they were
            redrawModel();
        }
        markOutOfDate();
    });
    rebuildPlots();
    redrawOutputs();
}

TimeSeriesPlot* FitViews::outputPlot(int output) const
{
    return output >= 0 && output < outputPlotCount() ? outputPlots_[static_cast<std::size_t>(output)] : nullptr;
}

void FitViews::clearAll()
{
    runActive_ = false;  // a run of the previous project may still report; it is not shown
    historyFromRun_ = false;
    responses_.clear();
    live_.reset();
    runRevision_ = optimalRevision_ = document_->revision();
    for (TimeSeriesPlot* plot : outputPlots_)
        plot->clear();
    if (inputsPlot_)
        inputsPlot_->clear();
    views_.phase->clear();
    views_.parameters->clear();
    views_.cost->clear();
    views_.optimal->clear();
    // The project's last optimal estimation: shown again, and what a run can start from.
    if (const auto& last = document_->lastOptimalResult()) {
        try {
            views_.optimal->setResult(project::optimalResultFromJson(*last));
        } catch (const std::exception&) {
            // A damaged stored result is not worth refusing the project for; it is just not shown.
        }
    }
    views_.results->clear();
    views_.residuals->clear();
    markOutOfDate();
}

void FitViews::rebuildPlots()
{
    const ModelSummary& summary = document_->modelSummary();
    if (!summary.valid && !outputPlots_.empty())
        return;  // while the text does not parse, the last model's plots stay
    for (TimeSeriesPlot* p : outputPlots_)
        delete p;
    outputPlots_.clear();
    plottedOutputs_.clear();
    for (const auto& output : summary.outputs) {
        auto* plot = new TimeSeriesPlot(outputPage_);
        plot->setOutputName(QString::fromStdString(output));
        plot->setMinimumHeight(14 * plot->fontMetrics().height());  // several outputs scroll rather than squeeze
        outputLayout_->addWidget(plot, 3);
        outputPlots_.push_back(plot);
        plottedOutputs_ << QString::fromStdString(output);
    }
    delete inputsPlot_;
    inputsPlot_ = nullptr;
    plottedInputs_.clear();
    if (!summary.inputs.empty()) {
        // The excitation under the responses, on their time axis: cause and effect read together.
        inputsPlot_ = new CurvePlot(outputPage_);
        inputsPlot_->setObjectName(QStringLiteral("inputsPlot"));
        inputsPlot_->setMinimumHeight(8 * inputsPlot_->fontMetrics().height());
        outputLayout_->addWidget(inputsPlot_, 1);  // the responses are what is fitted: they get the room
        for (const auto& input : summary.inputs)
            plottedInputs_ << QString::fromStdString(input);
        for (TimeSeriesPlot* plot : outputPlots_)
            PlotWidget::shareHorizontalAxis(plot, inputsPlot_);
    }
    labelPlots();
}

void FitViews::labelPlots()
{
    const ModelSummary& summary = document_->modelSummary();
    for (std::size_t j = 0; j < outputPlots_.size(); ++j)
        outputPlots_[j]->setOutputUnit(
            QString::fromStdString(summary.unitOf(plottedOutputs_[static_cast<int>(j)].toStdString())));
    if (!plottedOutputs_.isEmpty())
        views_.phase->setAxisNames(labelWithUnit(plottedOutputs_.front()),
                                   plottedOutputs_.front() + QStringLiteral("'"));
    // One input is named on its axis (with its unit); several are told apart by the legend.
    if (inputsPlot_)
        inputsPlot_->setAxisLabels(tr("t"),
                                   plottedInputs_.size() == 1 ? labelWithUnit(plottedInputs_.front()) : tr("input"));
}

QString FitViews::labelWithUnit(const QString& output) const
{
    const std::string name = output.toStdString();
    return QString::fromStdString(model::withUnit(name, document_->modelSummary().unitOf(name)));
}

void FitViews::redrawOutputs()
{
    redrawMeasured();
    redrawModel();
}

std::string FitViews::columnOf(const std::string& name) const
{
    const int set = document_->currentDataSet();
    if (set < 0)
        return name;
    const auto& mapping = document_->dataSet(set).mapping;
    const auto mapped = mapping.find(name);
    return mapped == mapping.end() ? name : mapped->second;
}

void FitViews::redrawMeasured()
{
    const int set = document_->currentDataSet();
    QString error;
    const data::DataTable* raw = set >= 0 ? document_->table(set) : nullptr;
    const data::DataTable* fitted = set >= 0 ? document_->fittedTable(set, &error) : nullptr;
    dataNotice_.clear();
    if (raw && !fitted) {
        dataNotice_ = tr("Raw data shown: the preprocessing fails (%1)").arg(error);
        fitted = raw;
    }
    const bool showRaw = raw && fitted != raw && document_->preprocessingChangesData();
    const std::size_t stride = fitted ? displayStride(fitted->rowCount()) : 1;
    const std::size_t rawStride = raw ? displayStride(raw->rowCount()) : 1;
    const std::vector<double> t = fitted ? thinned(fitted->time(), stride) : std::vector<double>{};
    const std::vector<double> rawT = showRaw ? thinned(raw->time(), rawStride) : std::vector<double>{};

    views_.phase->setMeasured(std::vector<double>{}, std::vector<double>{});
    for (std::size_t j = 0; j < outputPlots_.size(); ++j) {
        TimeSeriesPlot* plot = outputPlots_[j];
        const QString name = plottedOutputs_[static_cast<int>(j)];
        const std::string column = columnOf(name.toStdString());
        const bool measured = fitted && fitted->findColumn(column);
        if (measured)
            plot->setMeasured(t, thinned(fitted->column(column), stride), name);
        else
            plot->setMeasured(std::vector<double>{}, std::vector<double>{}, name);
        if (showRaw && raw->findColumn(column))
            plot->setRaw(rawT, thinned(raw->column(column), rawStride));
        else
            plot->setRaw({}, {});
        if (j == 0) {
            views_.phase->setAxisNames(labelWithUnit(name), name + QStringLiteral("'"));
            if (measured) {
                const std::vector<double> v =
                    velocity(fitted->time(), fitted->column(column), document_->preprocessing().differentiation);
                views_.phase->setMeasured(thinned(fitted->column(column), stride), thinned(v, stride));
            }
        }
    }
    redrawInputs(fitted, stride);
    markOutOfDate();
}

void FitViews::redrawInputs(const data::DataTable* fitted, std::size_t stride)
{
    if (!inputsPlot_)
        return;
    inputsPlot_->clear();
    const std::vector<double> t = fitted ? thinned(fitted->time(), stride) : std::vector<double>{};
    for (const QString& input : plottedInputs_) {
        const std::string column = columnOf(input.toStdString());
        if (fitted && fitted->findColumn(column))
            inputsPlot_->setCurve(input, t, thinned(fitted->column(column), stride));
    }
    inputsPlot_->setNotice(fitted && inputsPlot_->curveNames().isEmpty()
                               ? tr("The data set has no column for the model's inputs")
                               : QString());
}

void FitViews::redrawModel()
{
    const int set = document_->currentDataSet();
    const bool responsesValid = document_->changesSince(runRevision_, ProjectDocument::DataAspect).isEmpty();
    const auto found = responses_.find(std::max(set, 0));
    const Response* response = live_ ? &*live_ : responsesValid && found != responses_.end() ? &found->second : nullptr;
    const std::size_t stride = response ? displayStride(response->times.size()) : 1;
    const std::vector<double> t = response ? thinned(response->times, stride) : std::vector<double>{};
    views_.phase->setModel(std::vector<double>{}, std::vector<double>{});
    for (std::size_t j = 0; j < outputPlots_.size(); ++j) {
        const auto jj = static_cast<Eigen::Index>(j);
        if (!response || jj >= response->outputs.cols()) {
            outputPlots_[j]->clearModel();
            continue;
        }
        const Eigen::VectorXd c = response->outputs.col(jj);
        const std::vector<double> y = thinned(c.data(), static_cast<std::size_t>(c.size()), stride);
        outputPlots_[j]->setModel(t, y);
        if (j == 0 && response->withPhase)
            views_.phase->setModel(y, velocity(t, y, {}));
    }
    markOutOfDate();
}

void FitViews::setRunning(bool running)
{
    if (running) {
        runActive_ = true;
        historyFromRun_ = true;
        runRevision_ = document_->revision();
        responses_.clear();
        live_.reset();
        redrawModel();
    }
    markOutOfDate();
}

void FitViews::optimalEstimationStarted()
{
    optimalRevision_ = document_->revision();
}

void FitViews::showResponse(int experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs,
                            bool withPhase)
{
    if (!runActive_ || times.empty())
        return;
    responses_[experiment] = Response{times, outputs, withPhase, {}};
    if (experiment == std::max(document_->currentDataSet(), 0))
        redrawModel();
}

void FitViews::showValidation(int dataSet, const std::vector<double>& times, const Eigen::MatrixXd& outputs,
                              const std::vector<job::OutputAgreement>& agreement)
{
    if (times.empty())
        return;
    responses_[dataSet] = Response{times, outputs, false, agreement};
    if (dataSet == document_->currentDataSet())
        redrawModel();
}

bool FitViews::hasValidationResponse(int dataSet) const
{
    const auto found = responses_.find(dataSet);
    return found != responses_.end() && !found->second.agreement.empty();
}

void FitViews::showLiveResponse(const std::vector<double>& times, const Eigen::MatrixXd& outputs)
{
    live_ = Response{times, outputs, true, {}};
    redrawModel();
}

void FitViews::clearLiveResponse()
{
    if (!live_)
        return;
    live_.reset();
    redrawModel();
}

void FitViews::showResult()
{
    const auto& result = document_->result();
    if (!result) {
        views_.results->clear();
        views_.residuals->clear();
        if (!historyFromRun_) {
            views_.parameters->clear();
            views_.cost->clear();
        }
        markOutOfDate();
        return;
    }
    views_.results->setResult(*result, document_->trueValues());
    views_.residuals->setAnalysis(result->residualAnalysis);
    // The histories are the result's own (for a fit that just ended, what its iterations drew).
    QStringList names;
    QStringList units;
    for (const auto& p : result->parameters) {
        names << QString::fromStdString(p.name);
        units << QString::fromStdString(p.unit);
    }
    views_.parameters->setParameterNames(names);
    views_.parameters->setParameterUnits(units);
    views_.cost->clear();
    for (const auto& record : result->history) {
        views_.parameters->addIteration(static_cast<int>(record.iteration), record.parameters);
        views_.cost->addIteration(static_cast<int>(record.iteration), record.cost);
    }
    historyFromRun_ = false;
    markOutOfDate();
}

void FitViews::markOutOfDate()
{
    const QString responses = responses_.empty() ? QString() : document_->changesSince(runRevision_);
    const QString notice = responses.isEmpty() ? dataNotice_ : outOfDateNotice(responses);
    const auto current = responses_.find(document_->currentDataSet());
    const std::vector<job::OutputAgreement> validation =
        !live_ && responses.isEmpty() && notice.isEmpty() && current != responses_.end()
        ? current->second.agreement
        : std::vector<job::OutputAgreement>{};
    // The live model is current by construction; the notice still says the fit is not.
    for (std::size_t j = 0; j < outputPlots_.size(); ++j) {
        TimeSeriesPlot* plot = outputPlots_[j];
        plot->setModelOutOfDate(!live_ && !responses.isEmpty());
        plot->setModelAtCurrentValues(live_.has_value());
        if (j < validation.size() && !std::isnan(validation[j].rmse))
            plot->setNotice(tr("Validation data: fit %1 %, residual RMS %2")
                                .arg(validation[j].fitPercent, 0, 'f', 1)
                                .arg(validation[j].rmse, 0, 'g', 4));
        else if (!validation.empty())
            plot->setNotice(tr("Validation data: the model at the estimate"));
        else
            plot->setNotice(notice);
    }
    views_.phase->setModelOutOfDate(!live_ && !responses.isEmpty());
    views_.phase->setNotice(notice);
    views_.field->setOutOfDate(responses);

    const QString history = historyFromRun_ ? document_->changesSince(runRevision_) : document_->resultOutOfDate();
    const QString historyNotice = views_.parameters->iterationCount() > 0 ? outOfDateNotice(history) : QString();
    views_.parameters->setNotice(historyNotice);
    views_.cost->setNotice(views_.cost->iterationCount() > 0 ? outOfDateNotice(history) : QString());

    views_.results->setOutOfDate(document_->resultOutOfDate());
    views_.residuals->setOutOfDate(document_->resultOutOfDate());
    if (views_.optimal->result())
        views_.optimal->setOutOfDate(document_->changesSince(optimalRevision_));
}

}  // namespace sysid::ui
