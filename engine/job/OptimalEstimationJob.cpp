#include "engine/job/OptimalEstimationJob.h"

#include "engine/core/RunSummary.h"
#include "engine/data/DataError.h"
#include "engine/data/Text.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/OptimalEstimationHamiltonian.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"
#include "engine/model/SymbolicLock.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace sysid::job {

namespace {

using Clock = std::chrono::steady_clock;

std::string seconds(double s)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f s", s);
    return buffer;
}

std::string number(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4e", v);
    return buffer;
}

// The symbolic model and its compiled form; GiNaC objects are made and destroyed only under
// the symbolic lock (GiNaC is not thread-safe), also when the estimate throws.
struct ParsedModel {
    std::unique_ptr<model::Model> symbolic;
    std::shared_ptr<const eval::CompiledModelSource> compiled;

    ParsedModel(const std::string& text, const std::string& source, const std::map<std::string, double>& values)
    {
        const std::lock_guard lock(model::symbolicMutex());
        try {
            symbolic = std::make_unique<model::Model>(model::parseModel(text, source));
            for (const auto& [name, value] : values) {
                model::Parameter* found = nullptr;
                std::vector<std::string> known;
                for (auto& p : symbolic->parameters) {
                    known.push_back(p.name);
                    if (p.name == name)
                        found = &p;
                }
                if (!found)
                    throw JobError(JobError::Kind::Settings,
                                   "starting value for '" + name + "': the model has no parameter '" + name +
                                       "' (parameters: " + data::nameList(known) + ")");
                if (!std::isfinite(value))
                    throw JobError(JobError::Kind::Settings,
                                   "starting value for '" + name + "' is not a finite number");
                found->value = value;
            }
            compiled = eval::compileModel(*symbolic, {.secondDerivatives = false});  // outputs only, no integration
        } catch (const model::ModelError& e) {
            symbolic.reset();
            throw JobError(JobError::Kind::Model, e.what());
        } catch (const JobError&) {
            symbolic.reset();
            throw;
        } catch (const std::exception& e) {
            symbolic.reset();
            throw JobError(JobError::Kind::Model, source + ": the model cannot be compiled: " + e.what());
        }
    }
    ParsedModel(const ParsedModel&) = delete;
    ParsedModel& operator=(const ParsedModel&) = delete;
    ~ParsedModel()
    {
        const std::lock_guard lock(model::symbolicMutex());
        symbolic.reset();
    }
};

// The model's outputs along the estimate: its states, its estimated inputs and theta(a).
Eigen::MatrixXd outputsAtEstimate(const std::shared_ptr<const eval::CompiledModelSource>& source,
                                  const estimate::Experiment& experiment, const estimate::OptimalEstimationResult& r)
{
    eval::CompiledModel model(source);
    std::vector<double> theta = source->parameterValues;
    for (std::size_t i = 0; i < source->parameterNames.size(); ++i) {
        if (const auto it = experiment.fixedValues.find(source->parameterNames[i]); it != experiment.fixedValues.end())
            theta[i] = it->second;
        for (std::size_t q = 0; q < r.parameterNames.size(); ++q)
            if (r.parameterNames[q] == source->parameterNames[i])
                theta[i] = r.parameters(static_cast<Eigen::Index>(q));
    }
    model.setParameters(theta);
    const auto samples = static_cast<Eigen::Index>(r.times.size());
    const auto nu = static_cast<Eigen::Index>(source->inputCount());
    Eigen::MatrixXd y(samples, static_cast<Eigen::Index>(source->outputCount()));
    Eigen::VectorXd x, u(nu), row(y.cols());
    for (Eigen::Index k = 0; k < samples; ++k) {
        x = r.states.row(k).transpose();
        u = r.inputs.row(k).head(nu).transpose();
        model.setPoint(r.times[static_cast<std::size_t>(k)], x.data(), u.data());
        model.outputs(row.data());
        y.row(k) = row.transpose();
    }
    return y;
}

// The model and the record of a job, checked; its settings checked too.
struct JobInputs {
    std::unique_ptr<ParsedModel> model;
    estimate::Experiment experiment;
};

JobInputs readInputs(const OptimalEstimationJob& job)
{
    try {
        job.settings.validate();
    } catch (const core::SettingError& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    }
    JobInputs in;
    in.model = std::make_unique<ParsedModel>(job.modelText, job.modelSource, job.parameterValues);
    try {
        const data::DataTable table = data::preprocess(job.experiment.table, job.preprocessing);
        in.experiment =
            estimate::makeExperiment(*in.model->compiled, table, job.experiment.mapping, job.experiment.label());
        in.experiment.fixedValues = job.experiment.fixedValues;
    } catch (const data::DataError& e) {
        throw JobError(JobError::Kind::Data, e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Data, e.what());
    }
    return in;
}

// Runs `f`, turning what the estimator throws into the job's errors.
template <class F>
auto asJobErrors(const OptimalEstimationJob& job, F&& f)
{
    try {
        return f();
    } catch (const estimate::OptimalEstimationError& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    } catch (const integrate::IntegrationError& e) {
        throw JobError(JobError::Kind::Integration, job.modelSource + ": " + e.what());
    } catch (const data::DataError& e) {
        throw JobError(JobError::Kind::Data, e.what());
    } catch (const model::ModelError& e) {
        throw JobError(JobError::Kind::Model, e.what());
    }
}

estimate::OptimalEstimationResult runEstimate(const OptimalEstimationJob& job, ProgressSink& sink, std::stop_token stop)
{
    const auto begin = Clock::now();
    const JobInputs in = readInputs(job);
    const ParsedModel& model = *in.model;
    const estimate::Experiment& experiment = in.experiment;

    const std::size_t points =
        job.settings.bvp.shootingPoints.empty() ? job.settings.shootingPoints : job.settings.bvp.shootingPoints.size();
    // theta is part of the augmented state, so each iterate's first node holds its current value.
    std::vector<std::string> parameterNames;
    std::vector<std::size_t> parameterSlots;
    try {
        const std::lock_guard lock(model::symbolicMutex());
        const auto layout = estimate::augmentedLayout(*model.symbolic, experiment.outputMeasured);
        for (std::size_t k = 0; k < layout.estimatedParameters.size(); ++k) {
            parameterNames.push_back(model.symbolic->parameters[layout.estimatedParameters[k]].name);
            parameterSlots.push_back(layout.modelStateCount + k);
        }
    } catch (const estimate::OptimalEstimationError& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    }
    const std::string schedule = job.settings.bvp.stages.empty()
        ? estimate::scheduleText(estimate::stagesToRun(job.settings.stages, job.settings.startFrom.has_value()))
        : std::string("as given");
    sink.started(parameterNames);
    sink.log("optimal estimation (TPBVP) of '" + experiment.name + "': " + std::to_string(experiment.times.size()) +
             " samples, " + std::to_string(points) + " shooting points, stages " + schedule +
             (job.settings.startFrom
                  ? ", starting from " + job.settings.startFrom->source + " (a solution already: no fixed-step stage)"
                  : std::string()));

    std::size_t count = 0;
    std::size_t lastStage = static_cast<std::size_t>(-1);
    auto stageBegin = Clock::now();
    const auto progress = [&](const shooting::BvpIteration& it) {
        if (it.stage != lastStage) {
            if (lastStage != static_cast<std::size_t>(-1))
                sink.log("stage " + std::to_string(lastStage + 1) + " done in " +
                         seconds(std::chrono::duration<double>(Clock::now() - stageBegin).count()));
            lastStage = it.stage;
            stageBegin = Clock::now();
        }
        estimate::IterationRecord record;
        record.iteration = ++count;
        record.cost = 0.5 * it.newton.residualNorm * it.newton.residualNorm;
        record.stepNorm = it.newton.damping;
        if (it.newton.x)
            for (const std::size_t slot : parameterSlots)
                if (static_cast<Eigen::Index>(slot) < it.newton.x->size())
                    record.parameters.push_back((*it.newton.x)(static_cast<Eigen::Index>(slot)));
        sink.iteration(record);
        sink.log("stage " + std::to_string(it.stage + 1) + " iteration " + std::to_string(it.newton.iteration) +
                 "  ||F|| " + number(it.newton.residualNorm) + "  damping " + number(it.newton.damping) +
                 (it.newton.jacobianReused ? "  (Jacobian reused)" : "") + "  F " + seconds(it.residualTime.count()) +
                 ", J " + seconds(it.jacobianTime.count()) + ", LU " + seconds(it.factorTime.count()) + ", solve " +
                 seconds(it.solveTime.count()));
    };

    const estimate::OptimalEstimationResult result = asJobErrors(job, [&] {
        return estimate::estimateOptimally(
            *model.symbolic, experiment, job.settings, progress, stop, [&](const estimate::StiffnessDiagnostics& d) {
                sink.log("stiffness at the starting guess: " + estimate::describeStiffness(d));
            });
    });
    if (lastStage != static_cast<std::size_t>(-1))
        sink.log("stage " + std::to_string(lastStage + 1) + " done in " +
                 seconds(std::chrono::duration<double>(Clock::now() - stageBegin).count()));
    if (!result.stiffnessAtSolution.empty())
        sink.log("stiffness at the solution: " + estimate::describeStiffness(result.stiffnessAtSolution));
    if (result.states.rows() == static_cast<Eigen::Index>(result.times.size()) && result.states.rows() > 0)
        sink.trace(0, result.times, outputsAtEstimate(model.compiled, experiment, result));
    sink.log("optimal estimation " + std::string(result.converged() ? "converged" : "did not converge") + " after " +
             std::to_string(result.iterations) + " iteration(s) in " +
             seconds(std::chrono::duration<double>(Clock::now() - begin).count()) + ": cost " + number(result.cost));
    sink.log("termination: " + core::describe(result.termination));
    sink.log("statistics: " + core::integrationSummary(result.statistics) + "; " +
             core::timeSummary(result.statistics));
    return result;
}

}  // namespace

OptimalEstimationNames optimalEstimationNames(const std::string& modelText, const std::string& source)
{
    const ParsedModel model(modelText, source, {});
    const std::lock_guard lock(model::symbolicMutex());
    try {
        const auto layout =
            estimate::augmentedLayout(*model.symbolic, std::vector<bool>(model.symbolic->outputs.size(), true));
        return {layout.stateNames, layout.residualNames};
    } catch (const std::exception& e) {
        throw JobError(JobError::Kind::Model, source + ": " + e.what());
    }
}

estimate::StiffnessDiagnostics OptimalEstimationJob::diagnose(ProgressSink& sink) const
{
    try {
        const JobInputs in = readInputs(*this);
        const estimate::StiffnessDiagnostics d = asJobErrors(
            *this, [&] { return estimate::diagnoseOptimalEstimation(*in.model->symbolic, in.experiment, settings); });
        sink.log("stiffness at the starting guess of '" + in.experiment.name + "': " + estimate::describeStiffness(d));
        sink.finished(JobStatus::Succeeded, {});
        return d;
    } catch (const JobError& e) {
        sink.finished(JobStatus::Failed, e.what());
        throw;
    } catch (const std::exception& e) {
        const JobError error(JobError::Kind::Fit, e.what());
        sink.finished(JobStatus::Failed, error.what());
        throw error;
    }
}

estimate::OptimalEstimationResult OptimalEstimationJob::run(ProgressSink& sink, std::stop_token stop) const
{
    estimate::OptimalEstimationResult result;
    try {
        result = runEstimate(*this, sink, stop);
    } catch (const JobError& e) {
        sink.finished(JobStatus::Failed, e.what());
        throw;
    } catch (const std::exception& e) {  // anything else the engine throws is still the job's failure
        const JobError error(JobError::Kind::Fit, e.what());
        sink.finished(JobStatus::Failed, error.what());
        throw error;
    }
    const bool cancelled = stop.stop_requested() && !result.converged();
    sink.finished(cancelled ? JobStatus::Cancelled : JobStatus::Succeeded, result.termination.message);
    return result;
}

}  // namespace sysid::job
