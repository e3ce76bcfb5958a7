#include "engine/job/ParametricBootstrap.h"

#include "engine/data/Noise.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/ModelText.h"

#include <cmath>
#include <random>
#include <string>

namespace sysid::job {

namespace {

// Keeps nothing: the origin's fit reports through its result.
class SilentSink final : public ProgressSink {
public:
    void started(const std::vector<std::string>&) override {}
    void iteration(const estimate::IterationRecord&) override {}
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
    void log(const std::string&) override {}
    void finished(JobStatus, const std::string&) override {}
};

// The model's parameter values for record k at the estimate: an estimated initial value of
// record k > 1 is named "NAME#k" (estimate::ParameterLayout), a shared parameter just "NAME".
std::vector<double> valuesOfRecord(const eval::CompiledModelSource& model, const FitJob& fit,
                                   const estimate::FitResult& result, const estimate::Experiment& record, std::size_t k)
{
    std::vector<double> values = startingValues(model, fit.parameterValues);
    const std::string suffix = "#" + std::to_string(k + 1);
    for (const auto& p : result.parameters) {
        std::string name = p.name;
        if (const auto hash = name.rfind('#'); hash != std::string::npos) {
            if (name.substr(hash) != suffix)
                continue;
            name.resize(hash);
        }
        for (std::size_t i = 0; i < model.parameterNames.size(); ++i)
            if (model.parameterNames[i] == name)
                values[i] = p.value;
    }
    for (const auto& [name, value] : record.fixedValues)
        for (std::size_t i = 0; i < model.parameterNames.size(); ++i)
            if (model.parameterNames[i] == name)
                values[i] = value;
    return values;
}

}  // namespace

BootstrapOrigin bootstrapOrigin(const FitJob& fit, std::stop_token stop)
{
    BootstrapOrigin origin;
    SilentSink sink;
    origin.estimate = fit.run(sink, stop);
    if (origin.estimate.cancelled())
        throw JobError(JobError::Kind::Fit, "cancelled");

    // Simulated without sensitivities: no second derivatives.
    const auto model = compileModelText(fit.modelText, fit.modelSource, {.secondDerivatives = false},
                                        fit.settings.integrator.modelCode);
    const std::vector<estimate::Experiment> experiments = preparedExperiments(fit, *model);
    integrate::IntegratorSettings settings = fit.settings.integrator;
    integrate::resolveMethod(settings, *model);
    eval::CompiledModel compiled(model);
    for (std::size_t k = 0; k < experiments.size(); ++k) {
        const estimate::Experiment& record = experiments[k];
        compiled.setParameters(valuesOfRecord(*model, fit, origin.estimate, record, k));
        integrate::SimulationRequest request;
        request.times = record.times;
        request.inputs = &record.inputs;
        request.stop = stop;
        integrate::Trajectory trajectory;
        try {
            trajectory = integrate::simulate(compiled, request, settings);
        } catch (const integrate::IntegrationError& e) {
            throw JobError(JobError::Kind::Integration,
                           record.name + ": the model at the estimate cannot be simulated: " + e.what());
        }
        data::DataTable table;
        try {
            table = preprocessedRecord(fit.experiments[k].table, fit.preprocessing, k);
        } catch (const std::exception& e) {
            throw JobError(JobError::Kind::Data, e.what());
        }
        std::vector<BootstrapOrigin::NoisyColumn> noisy;
        const auto& mapping = fit.experiments[k].mapping;
        for (std::size_t o = 0; o < model->outputNames.size(); ++o) {
            const std::string& name = model->outputNames[o];
            const auto mapped = mapping.find(name);
            const auto column = table.findColumn(mapped == mapping.end() ? name : mapped->second);
            if (!column || table.columns[*column].size() != trajectory.times.size())
                continue;
            for (std::size_t i = 0; i < trajectory.times.size(); ++i)
                table.columns[*column][i] =
                    trajectory.outputs(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(o));
            const double sd = o < origin.estimate.residualRms.size() ? origin.estimate.residualRms[o] : NAN;
            if (std::isfinite(sd) && sd > 0)
                noisy.push_back({*column, sd});
        }
        origin.records.push_back(std::move(table));
        origin.noise.push_back(std::move(noisy));
    }
    return origin;
}

FitJob bootstrapRealisation(const FitJob& fit, const BootstrapOrigin& origin, std::uint64_t seed)
{
    FitJob job = fit;
    job.preprocessing.window.reset();
    job.preprocessing.noise.reset();
    job.preprocessing.lowPass.reset();
    job.preprocessing.decimation = 1;
    for (const auto& p : origin.estimate.parameters)
        if (p.name.find('#') == std::string::npos && std::isfinite(p.value))
            job.parameterValues[p.name] = p.value;
    std::mt19937_64 rng(seed);
    for (std::size_t k = 0; k < origin.records.size() && k < job.experiments.size(); ++k) {
        data::DataTable table = origin.records[k];
        for (const auto& [column, sd] : origin.noise[k]) {
            // data::addNoise draws Gaussian noise of sd p % of the signal's RMS, portably: on a
            // signal of ones that is sd 0.01 p.
            std::vector<double> noise(table.columns[column].size(), 1.0);
            data::addNoise(noise, 100.0 * sd, data::NoiseDistribution::Gaussian, rng);
            for (std::size_t i = 0; i < noise.size(); ++i)
                table.columns[column][i] += noise[i] - 1.0;
        }
        job.experiments[k].table = std::move(table);
    }
    return job;
}

}  // namespace sysid::job
