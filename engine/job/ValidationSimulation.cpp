#include "engine/job/ValidationSimulation.h"

#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/job/ModelText.h"
#include "engine/job/SimulationJob.h"

#include <algorithm>

namespace sysid::job {

ValidationSimulation simulateValidation(const FitJob& fit, const ExperimentData& record, std::size_t recordIndex,
                                        const std::map<std::string, double>& estimates, std::stop_token stop)
{
    // For the record's preparation and the names; simulated without sensitivities.
    const auto model = compileModelText(fit.modelText, fit.modelSource, {.secondDerivatives = false},
                                        fit.settings.integrator.modelCode);
    const std::string& name = record.label();
    data::DataTable table;
    estimate::Experiment experiment = preparedExperiment(fit, *model, record, recordIndex, table);

    SimulationJob simulation;
    simulation.modelText = fit.modelText;
    simulation.modelSource = fit.modelSource;
    simulation.parameterValues = fit.parameterValues;
    // Estimates of the model's parameters; estimated initial states are the record's own unknowns.
    for (const auto& [parameter, value] : estimates)
        if (std::find(model->parameterNames.begin(), model->parameterNames.end(), parameter) !=
            model->parameterNames.end())
            simulation.parameterValues[parameter] = value;
    for (const auto& [parameter, value] : record.fixedValues)
        simulation.parameterValues[parameter] = value;
    simulation.settings = fit.settings.integrator;
    simulation.times = table.time();
    simulation.inputs = table;
    simulation.inputMapping = record.mapping;
    simulation.intersample = fit.settings.intersample;

    NullProgressSink sink;
    integrate::Trajectory trajectory;
    try {
        trajectory = simulation.run(sink, stop);
    } catch (const JobError& e) {
        throw JobError(e.kind(), name + ": " + e.what());
    }
    ValidationSimulation result;
    result.times = trajectory.times;
    result.outputs = trajectory.outputs;
    result.outputNames = model->outputNames;
    result.residualRms = estimate::outputResidualRms(*model, {experiment}, {trajectory.outputs});
    result.measured = std::move(experiment.measured);
    result.outputMeasured = std::move(experiment.outputMeasured);
    result.stateNames = model->stateNames;
    if (trajectory.states.rows() > 0)
        result.initialState = trajectory.states.row(0).transpose();
    return result;
}

}  // namespace sysid::job
