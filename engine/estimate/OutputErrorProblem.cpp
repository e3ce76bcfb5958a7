#include "engine/estimate/OutputErrorProblem.h"

#include "engine/integrate/Simulator.h"
#include "engine/integrate/StructuralSensitivity.h"

namespace sysid::estimate {

OutputErrorProblem::OutputErrorProblem(std::shared_ptr<const eval::CompiledModelSource> model,
                                       const ParameterLayout& layout, const std::vector<Experiment>& experiments,
                                       std::vector<double> weights, std::vector<std::optional<Prior>> priors,
                                       const integrate::IntegratorSettings& integrator, SensitivityMethod sensitivity) :
    ResponseFitProblem(std::move(model), layout, experiments, weights, std::move(priors), integrator),
    sensitivity_(sensitivity)
{
}

bool OutputErrorProblem::respond(std::size_t e, Response& response, const integrate::OutputSensitivitySink* sink,
                                 std::string& failure, std::stop_token stop)
{
    const Experiment& experiment = experiments_[e];
    try {
        if (sensitivity_ == SensitivityMethod::Structural) {
            integrate::StructuralSensitivityRequest request;
            request.times = experiment.times;
            request.parameters = layout_.modelIndicesOf(e);
            request.inputs = &experiment.inputs;
            request.stop = stop;
            auto r = integrate::structuralSensitivity(model_, request);
            response = {std::move(r.outputs), std::move(r.outputSensitivity)};
            return true;
        }
        integrate::SimulationRequest request;
        request.times = experiment.times;
        request.inputs = &experiment.inputs;
        request.sensitivityParameters = layout_.modelIndicesOf(e);
        request.recordStateSensitivity = false;
        if (sink)
            request.outputSensitivitySink = *sink;
        request.stop = stop;
        auto tr = integrate::simulate(model_, request, integrator_);
        response = {std::move(tr.outputs), std::move(tr.outputParameterSensitivity)};
        return true;
    } catch (const integrate::IntegrationError& error) {
        failure = error.what();
    } catch (const std::invalid_argument& error) {  // the structural method on a model outside its class
        failure = error.what();
    }
    if (experiments_.size() > 1)
        failure = "experiment " + experiment.name + ": " + failure;
    return false;
}

}  // namespace sysid::estimate
