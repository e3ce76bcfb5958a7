#include "engine/job/PeriodicValidation.h"

#include "engine/estimate/Fit.h"
#include "engine/estimate/OutputWeights.h"
#include "engine/estimate/PeriodicResponseProblem.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/job/ModelText.h"

#include <algorithm>
#include <optional>

namespace sysid::job {

ValidationSimulation periodicSteadyStateOnRecord(const FitJob& fit, const ExperimentData& record,
                                                 std::size_t recordIndex,
                                                 const std::map<std::string, double>& estimates, std::stop_token stop)
{
    const auto model = compileModelText(fit.modelText, fit.modelSource,
                                        {.secondDerivatives = estimate::needsSecondDerivatives(fit.settings)},
                                        fit.settings.integrator.modelCode);
    const std::string& name = record.label();
    data::DataTable table;
    const std::vector<estimate::Experiment> experiments{preparedExperiment(fit, *model, record, recordIndex, table)};

    std::map<std::string, double> values = fit.parameterValues;
    for (const auto& [parameter, value] : estimates)
        if (std::find(model->parameterNames.begin(), model->parameterNames.end(), parameter) !=
            model->parameterNames.end())
            values[parameter] = value;

    estimate::FitSettings settings = fit.settings;
    integrate::resolveMethod(settings.integrator, *model);
    Eigen::MatrixXd outputs;
    try {
        const estimate::ParameterLayout layout =
            estimate::layoutFor(*model, startingValues(*model, values), experiments);
        if (layout.size() == 0)
            throw JobError(JobError::Kind::Settings,
                           name + ": every parameter of the model is fixed; a periodic-response result has estimates");
        const std::vector<double> weights = estimate::outputWeights(*model, experiments, settings);
        estimate::PeriodicResponseProblem problem(model, layout, experiments, weights,
                                                  std::vector<std::optional<estimate::Prior>>(layout.size()),
                                                  settings.integrator, settings.periodic);
        estimate::Linearization at;
        std::string failure;
        if (!problem.evaluate(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size())), at, failure, stop))
            throw JobError(JobError::Kind::Fit, name + ": the periodic steady state: " + failure);
        problem.accept();
        outputs = problem.outputs().front();
    } catch (const estimate::FitError& e) {
        throw JobError(JobError::Kind::Settings, name + ": " + e.what());
    } catch (const integrate::IntegrationError& e) {
        throw JobError(JobError::Kind::Integration, name + ": the periodic steady state: " + e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Settings, name + ": " + e.what());
    }
    if (stop.stop_requested())
        throw JobError(JobError::Kind::Integration, name + ": cancelled");

    ValidationSimulation result;
    result.times = experiments.front().times;
    result.outputs = std::move(outputs);
    result.outputNames = model->outputNames;
    result.residualRms = estimate::outputResidualRms(*model, experiments, {result.outputs});
    result.measured = experiments.front().measured;
    result.outputMeasured = experiments.front().outputMeasured;
    result.stateNames = model->stateNames;
    return result;
}

}  // namespace sysid::job
