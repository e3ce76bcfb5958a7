#include "ui/run/LiveSimulation.h"

#include "engine/core/ExceptionText.h"

#include "ui/project/ProjectDocument.h"

#include "engine/integrate/ConstraintDrift.h"

namespace sysid::ui {

LiveSimulation::LiveSimulation(ProjectDocument* document, QObject* parent) : JobRunner(parent), document_(document)
{
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &LiveSimulation::simulate);
    connect(this, &JobRunner::trace, this, [this](int, const std::vector<double>& times, const Eigen::MatrixXd& y) {
        lastTimes_ = times;
        lastOutputs_ = y;
    });
    // A new model text or new values: the last curve stays until the new one replaces it.
    for (auto signal : {&ProjectDocument::modelTextChanged, &ProjectDocument::settingsChanged})
        connect(document_, signal, this, &LiveSimulation::schedule);
    // Other data: the last curve belonged to another record, so it goes at once. While a fit's
    // result describes the project, moving between its data sets (or renaming one) shows the
    // fit's responses there, not the model at the starting values.
    const auto restart = [this](bool evenAfterAFit) {
        if (!evenAfterAFit && document_->result() && document_->resultOutOfDate().isEmpty())
            return;
        emit cleared();
        schedule();
    };
    connect(document_, &ProjectDocument::projectReplaced, this, [restart] { restart(true); });
    for (auto signal : {&ProjectDocument::dataChanged, &ProjectDocument::preprocessingChanged})
        connect(document_, signal, this, [restart] { restart(false); });
    connect(document_, &ProjectDocument::currentDataSetChanged, this, [restart] { restart(false); });
    schedule();
}

void LiveSimulation::setPaused(bool paused)
{
    paused_ = paused;
    if (paused) {
        debounce_.stop();
        ++generation_;  // a result still on its way belongs to the values before the fit
        again_ = false;
        cancel();
    }
}

void LiveSimulation::schedule()
{
    ++generation_;
    if (paused_)
        return;
    debounce_.start();
}

std::optional<job::SimulationJob> LiveSimulation::currentJob(QString* why) const
{
    const auto fail = [why](const QString& text) -> std::optional<job::SimulationJob> {
        if (why)
            *why = text;
        return std::nullopt;
    };
    if (!document_->modelSummary().valid)
        return fail(tr("the model has errors"));
    const int set = document_->currentDataSet();
    if (set < 0)
        return fail(tr("no data set"));
    QString error;
    const data::DataTable* table = document_->fittedTable(set, &error);
    if (!table)
        return fail(error.isEmpty() ? tr("the data set cannot be read") : error);
    job::SimulationJob simulation;
    simulation.modelText = document_->modelText().toStdString();
    simulation.modelSource =
        document_->modelSource().isEmpty() ? std::string("<model>") : document_->modelSource().toStdString();
    simulation.parameterValues = document_->parameterValues();
    const project::Project::DataSet& data = document_->dataSet(set);
    for (const auto& [name, value] : data.fixedValues)
        simulation.parameterValues[name] = value;
    simulation.settings = document_->settings().integrator;
    simulation.intersample = document_->settings().intersample;
    try {
        simulation.times = table->time();
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(core::exceptionText(e)));
    }
    simulation.inputs = *table;
    simulation.inputMapping = data.mapping;
    return simulation;
}

void LiveSimulation::simulate()
{
    if (paused_)
        return;
    if (isRunning()) {  // superseded: stop it, and simulate again when it has
        again_ = true;
        cancel();
        return;
    }
    std::optional<job::SimulationJob> simulation = currentJob();
    if (!simulation) {
        emit cleared();
        return;
    }
    const int generation = generation_;
    ++started_;
    lastTimes_.clear();
    launch([this, generation, simulation = std::move(*simulation)](job::ProgressSink& sink,
                                                                   std::stop_token stop) -> Finish {
        QString message, drift;
        bool ok = true;
        try {
            const integrate::Trajectory trajectory = simulation.run(sink, stop);
            drift = QString::fromStdString(integrate::describeDrift(integrate::constraintDrift(trajectory)));
        } catch (const std::exception& e) {
            ok = false;
            message = QString::fromStdString(core::exceptionText(e));
        }
        const bool stopped = stop.stop_requested();
        return [this, generation, ok, stopped, message, drift] {
            if (again_) {
                again_ = false;
                simulate();
                return;
            }
            if (stopped || generation != generation_ || paused_)
                return;  // superseded, or a fit started
            if (!ok) {
                emit cleared();
                emit failed(tr("simulation at the current values failed: %1").arg(message));
                return;
            }
            if (!lastTimes_.empty())
                emit simulated(lastTimes_, lastOutputs_);
            if (!drift.isEmpty())
                emit constraintDrift(drift);
        };
    });
}

}  // namespace sysid::ui
