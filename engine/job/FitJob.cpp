#include "engine/job/FitJob.h"

#include "engine/data/DataError.h"
#include "engine/data/UniformTime.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/job/ModelText.h"

#include <cmath>
#include <stdexcept>

namespace sysid::job {

namespace {

std::string names(const std::vector<std::string>& list)
{
    std::string text;
    for (const auto& n : list)
        text += (text.empty() ? "" : ", ") + n;
    return text.empty() ? "none" : text;
}

// Equation-error methods integrate only to show the fitted model; the others say which integrator runs.
std::string integratorNote(const estimate::FitSettings& settings)
{
    if (estimate::traitsOf(settings.method).objective == estimate::Objective::EquationError)
        return {};
    if (settings.sensitivity == estimate::SensitivityMethod::Structural)
        return ", structural sensitivities (the model's linear system propagated by the matrix exponential; "
               "no integrator)";
    return ", integrator " + integrate::methodName(settings.integrator.method) +
        (settings.integrator.methodChosen ? "" : " (default for this model)");
}

bool contains(const std::vector<std::string>& list, const std::string& name)
{
    for (const auto& n : list)
        if (n == name)
            return true;
    return false;
}

}  // namespace

void checkFitSettings(const eval::CompiledModelSource& model, const estimate::FitSettings& settings)
{
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        throw JobError(JobError::Kind::Settings, std::string("settings: ") + e.what());
    }
    const bool discretised = estimate::traitsOf(settings.method).objective == estimate::Objective::PeriodicResponse &&
        settings.periodic.solver == discretise::PeriodicSolver::Discretisation;
    if (estimate::traitsOf(settings.method).objective == estimate::Objective::EquationError || discretised)
        if (const auto refusal =
                eval::resetRefusal(model, discretised ? std::string("the periodic response by time discretisation")
                                                      : estimate::methodName(settings.method));
            !refusal.empty())
            throw JobError(JobError::Kind::Settings, refusal);
    if (estimate::traitsOf(settings.method).objective == estimate::Objective::EquationError || discretised)
        if (const auto refusal =
                eval::constraintRefusal(model, discretised ? std::string("the periodic response by time discretisation")
                                                           : estimate::methodName(settings.method));
            !refusal.empty())
            throw JobError(JobError::Kind::Settings, refusal);
    if (settings.sensitivity == estimate::SensitivityMethod::Structural && model.isDae())
        throw JobError(JobError::Kind::Settings,
                       eval::constraintRefusal(model, "the structural sensitivity (linear ODEs only)"));
    for (const auto& [output, weight] : settings.outputWeights)
        if (!contains(model.outputNames, output))
            throw JobError(JobError::Kind::Settings,
                           "weight for '" + output + "': the model has no output '" + output +
                               "' (outputs: " + names(model.outputNames) + ")");
    for (const auto& [input, behaviour] : settings.intersample)
        if (!contains(model.inputNames, input))
            throw JobError(JobError::Kind::Settings,
                           "intersample behaviour for '" + input + "': the model has no input '" + input + "'" +
                               (model.inputNames.empty() ? std::string(" (it has none)")
                                                         : " (inputs: " + names(model.inputNames) + ")"));
}

data::DataTable preprocessedRecord(const data::DataTable& table, const data::Preprocessing& preprocessing,
                                   std::size_t record)
{
    data::Preprocessing own = preprocessing;
    if (own.noise)
        own.noise->seed += record;
    return data::preprocess(table, own);
}

std::vector<estimate::Experiment> preparedExperiments(const FitJob& job, const eval::CompiledModelSource& model)
{
    std::vector<estimate::Experiment> experiments;
    try {
        for (std::size_t k = 0; k < job.experiments.size(); ++k) {
            const auto& data = job.experiments[k];
            const data::DataTable table = preprocessedRecord(data.table, job.preprocessing, k);
            experiments.push_back(
                estimate::makeExperiment(model, table, data.mapping, data.label(), job.settings.intersample));
            experiments.back().fixedValues = data.fixedValues;
        }
    } catch (const data::DataError& e) {
        throw JobError(JobError::Kind::Data, e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Data, e.what());
    }
    return experiments;
}

estimate::Experiment preparedExperiment(const FitJob& job, const eval::CompiledModelSource& model,
                                        const ExperimentData& record, std::size_t recordIndex, data::DataTable& table)
{
    estimate::Experiment experiment;
    try {
        table = preprocessedRecord(record.table, job.preprocessing, recordIndex);
        experiment = estimate::makeExperiment(model, table, record.mapping, record.label(), job.settings.intersample);
    } catch (const data::DataError& e) {
        throw JobError(JobError::Kind::Data, e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Data, record.label() + ": " + e.what());
    }
    experiment.fixedValues = record.fixedValues;
    return experiment;
}

namespace {

// What the low-pass does to each record, so that the log says how far its end transients reach.
void logPreprocessing(const FitJob& job, ProgressSink& sink)
{
    if (!job.preprocessing.lowPass)
        return;
    for (const ExperimentData& record : job.experiments) {
        try {
            const double dt = data::uniformTimeStep(record.table.time(), "time");
            sink.log((job.experiments.size() > 1 ? record.label() + ": " : std::string()) + "data filtered by a " +
                     data::describeLowPass(*job.preprocessing.lowPass, 1.0 / dt) +
                     (job.preprocessing.window && job.preprocessing.windowAfterFilter
                          ? "; the time window is cut from the filtered record"
                          : ""));
        } catch (const std::exception&) {
            // preprocessing already refused such a record
        }
    }
}

void attachUnits(estimate::FitResult& result, const eval::CompiledModelSource& model)
{
    for (estimate::ParameterEstimate& e : result.parameters)
        e.unit = model::unitOfParameter(model.parameters, e.name);
}

estimate::FitResult runFit(const FitJob& job, ProgressSink& sink, std::stop_token stop)
{
    const auto model = compileModelText(job.modelText, job.modelSource);
    const std::vector<double> start = startingValues(*model, job.parameterValues);
    checkFitSettings(*model, job.settings);
    if (job.experiments.empty())
        throw JobError(JobError::Kind::Data, "no data to fit: give at least one data set");

    const std::vector<estimate::Experiment> experiments = preparedExperiments(job, *model);

    std::vector<std::string> parameterNames;
    try {
        parameterNames = estimate::estimatedParameterNames(*model, experiments, job.settings.method);
    } catch (const estimate::FitError& e) {
        throw JobError(JobError::Kind::Settings, e.what());
    }
    sink.started(parameterNames);
    // Velocities for the equation-error methods are differentiated as the preprocessing says.
    estimate::FitSettings settings = job.settings;
    settings.equationError.differentiation = job.preprocessing.differentiation;
    integrate::resolveMethod(settings.integrator, *model);
    sink.log("fitting " + std::to_string(parameterNames.size()) + " parameter(s) (" + names(parameterNames) + ") to " +
             std::to_string(experiments.size()) + " data set(s) by " + estimate::methodName(job.settings.method) +
             integratorNote(settings));
    logPreprocessing(job, sink);

    try {
        estimate::FitResult result = estimate::fit(model, start, experiments, settings, &sink, stop);
        attachUnits(result, *model);
        for (const estimate::OutputResidualAnalysis& output : result.residualAnalysis.outputs)
            sink.log(estimate::describe(output));
        return result;
    } catch (const estimate::FitError& e) {
        throw JobError(JobError::Kind::Fit, e.what());
    } catch (const integrate::IntegrationError& e) {
        throw JobError(JobError::Kind::Integration, job.modelSource + ": " + e.what());
    } catch (const data::DataError& e) {
        throw JobError(JobError::Kind::Data, e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Fit, e.what());
    }
}

}  // namespace

FitJob refinedByOutputError(const FitJob& job, const estimate::FitResult& start)
{
    FitJob refined = job;
    refined.settings.method = estimate::EstimationMethod::OutputError;
    for (const auto& p : start.parameters)
        if (std::isfinite(p.value))
            refined.parameterValues[p.name] = p.value;
    return refined;
}

estimate::FitResult FitJob::run(ProgressSink& sink, std::stop_token stop) const
{
    estimate::FitResult result;
    try {
        result = runFit(*this, sink, stop);
    } catch (const JobError& e) {
        sink.finished(JobStatus::Failed, e.what());
        throw;
    } catch (const std::exception& e) {  // anything else the engine throws is still reported as the job's failure
        const JobError error(JobError::Kind::Fit, e.what());
        sink.finished(JobStatus::Failed, error.what());
        throw error;
    }
    sink.finished(result.cancelled() ? JobStatus::Cancelled : JobStatus::Succeeded, result.termination.message);
    return result;
}

}  // namespace sysid::job
