#include "engine/data/Text.h"
#include "engine/job/SimulationJob.h"

#include "engine/data/DataError.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/IntersampleChoice.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/ModelText.h"

#include <sstream>
#include <stdexcept>

namespace sysid::job {

namespace {

integrate::Trajectory simulateJob(const SimulationJob& job,
                                  const std::shared_ptr<const eval::CompiledModelSource>& source, std::stop_token stop)
{
    const std::vector<double> values = startingValues(*source, job.parameterValues);
    if (job.times.empty())
        throw JobError(JobError::Kind::Settings, "the simulation needs a time grid");
    for (std::size_t i = 1; i < job.times.size(); ++i)
        if (!(job.times[i] > job.times[i - 1]))
            throw JobError(JobError::Kind::Settings, "the simulation's time grid must be strictly increasing");

    integrate::InputSignals inputs;
    integrate::SimulationRequest request;
    request.times = job.times;
    request.stop = stop;
    if (source->inputCount() > 0) {
        if (!job.inputs)
            throw JobError(JobError::Kind::Data,
                           "the model " + job.modelSource + " has input(s) " + source->inputNames.front() +
                               (source->inputCount() > 1 ? ", ..." : "") + "; give their data");
        try {
            inputs = integrate::InputSignals::fromTable(
                source->inputNames, *job.inputs, job.inputMapping,
                integrate::intersampleChoices(source->declaredIntersample, job.intersample));
            const auto& time = job.inputs->time();
            if (time.front() > job.times.front() || time.back() < job.times.back())
                throw JobError(
                    JobError::Kind::Data,
                    job.inputs->source + ": the input data cover t = " + data::formatNumber(time.front(), 10) + " to " +
                        data::formatNumber(time.back(), 10) + ", but the simulation runs from " +
                        data::formatNumber(job.times.front(), 10) + " to " + data::formatNumber(job.times.back(), 10));
        } catch (const data::DataError& e) {
            throw JobError(JobError::Kind::Data, e.what());
        } catch (const std::invalid_argument& e) {
            throw JobError(JobError::Kind::Data, job.inputs->source + ": " + e.what());
        }
        request.inputs = &inputs;
    }
    eval::CompiledModel model(source);
    model.setParameters(values);
    integrate::IntegratorSettings settings = job.settings;
    integrate::resolveMethod(settings, *source);
    try {
        return integrate::simulate(model, request, settings);
    } catch (const integrate::IntegrationError& e) {
        throw JobError(JobError::Kind::Integration, job.modelSource + ": " + e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    }
}

// Compiles and simulates; reports a failure to the sink (finished) before it throws JobError.
integrate::Trajectory simulateReporting(const SimulationJob& job, ProgressSink& sink, std::stop_token stop,
                                        std::shared_ptr<const eval::CompiledModelSource>& source)
{
    try {
        source = compileModelText(job.modelText, job.modelSource, {.secondDerivatives = false}, job.settings.modelCode);
        return simulateJob(job, source, stop);
    } catch (const JobError& e) {
        sink.finished(stop.stop_requested() ? JobStatus::Cancelled : JobStatus::Failed, e.what());
        throw;
    } catch (const std::exception& e) {
        const JobError error(JobError::Kind::Integration, e.what());
        sink.finished(JobStatus::Failed, error.what());
        throw error;
    }
}

void reportSimulated(const integrate::Trajectory& trajectory, ProgressSink& sink)
{
    sink.trace(0, trajectory.times, trajectory.outputs);
    sink.finished(JobStatus::Succeeded,
                  "simulated " + std::to_string(trajectory.times.size()) + " samples in " +
                      std::to_string(trajectory.statistics.steps) + " steps");
}

}  // namespace

integrate::Trajectory SimulationJob::run(ProgressSink& sink, std::stop_token stop) const
{
    std::shared_ptr<const eval::CompiledModelSource> source;
    integrate::Trajectory trajectory = simulateReporting(*this, sink, stop, source);
    reportSimulated(trajectory, sink);
    return trajectory;
}

SyntheticData SimulationJob::runSynthetic(ProgressSink& sink, std::stop_token stop) const
{
    std::shared_ptr<const eval::CompiledModelSource> source;
    const integrate::Trajectory trajectory = simulateReporting(*this, sink, stop, source);
    SyntheticData record;
    try {
        record = syntheticData(trajectory, source->outputNames, noise);
    } catch (const std::invalid_argument& e) {
        const JobError error(JobError::Kind::Settings, e.what());
        sink.finished(JobStatus::Failed, error.what());
        throw error;
    }
    reportSimulated(trajectory, sink);
    return record;
}

}  // namespace sysid::job
