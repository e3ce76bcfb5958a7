#include "engine/job/ValidationSimulation.h"

#include "engine/data/DataError.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/job/ModelText.h"
#include "engine/job/SimulationJob.h"

#include <algorithm>
#include <stdexcept>

namespace sysid::job {

ValidationSimulation simulateValidation(const FitJob& fit, const ExperimentData& record, std::size_t recordIndex,
                                        const std::map<std::string, double>& estimates, std::stop_token stop)
{
    const auto model = compileModelText(fit.modelText, fit.modelSource);
    const std::string name = record.name.empty() ? record.table.source : record.name;
    data::DataTable table;
    estimate::Experiment experiment;
    try {
        table = preprocessedRecord(record.table, fit.preprocessing, recordIndex);
        experiment = estimate::makeExperiment(*model, table, record.mapping, name, fit.settings.intersample);
    } catch (const data::DataError& e) {
        throw JobError(JobError::Kind::Data, e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Data, name + ": " + e.what());
    }

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
    return result;
}

}  // namespace sysid::job
