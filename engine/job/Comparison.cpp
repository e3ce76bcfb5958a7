#include "engine/job/Comparison.h"

#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/job/ModelText.h"
#include "engine/job/PeriodicValidation.h"

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace sysid::job {

InitialValues defaultInitialValues(const estimate::FitResult& result)
{
    for (const auto& p : result.parameters)
        if (p.name.find('#') != std::string::npos)
            return {InitialValueSource::Estimate};
    return {InitialValueSource::Result};
}

OutputAgreement outputAgreement(const Eigen::VectorXd& measured, const Eigen::VectorXd& simulated)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    if (measured.size() == 0 || measured.size() != simulated.size())
        return {nan, nan, nan};
    const double n = static_cast<double>(measured.size());
    const double error = (measured - simulated).norm();
    const double spread = (measured.array() - measured.mean()).matrix().norm();
    OutputAgreement a;
    a.rmse = error / std::sqrt(n);
    a.nrmse = spread > 0 ? error / spread : nan;  // (error/sqrt(n)) / (spread/sqrt(n))
    a.fitPercent = spread > 0 ? 100.0 * (1.0 - error / spread) : nan;
    return a;
}

namespace {

// The estimated initial values of `record` with every other parameter held at `estimates`: an
// output-error fit of the initial values alone, on the record's first `seconds` (0: all of it).
std::map<std::string, double> estimatedInitialValues(const FitJob& fit, const ExperimentData& record,
                                                     std::size_t recordIndex,
                                                     const std::map<std::string, double>& estimates, double seconds,
                                                     std::stop_token stop)
{
    const std::string& name = record.label();
    estimate::FitSettings settings = fit.settings;
    settings.method = estimate::EstimationMethod::OutputError;
    settings.priors.clear();
    const auto compiled =
        compileModelText(fit.modelText, fit.modelSource,
                         {.secondDerivatives = estimate::needsSecondDerivatives(settings)}, settings.integrator.modelCode);
    auto held = std::make_shared<eval::CompiledModelSource>(*compiled);
    bool any = false;
    for (model::Parameter& p : held->parameters) {
        p.fixed = p.fixed || !p.isInitialValue;
        any = any || !p.fixed;
    }
    if (!any)
        throw JobError(JobError::Kind::Settings,
                       name +
                           ": the model estimates no initial value (`x(0) = VALUE estimate`), so there is "
                           "none to estimate on the record");

    std::map<std::string, double> start = fit.parameterValues;
    for (const auto& [parameter, value] : estimates)
        if (parameter.find('#') == std::string::npos)
            start[parameter] = value;
    const std::vector<double> values = startingValues(*held, start);

    data::DataTable table;
    estimate::Experiment experiment = preparedExperiment(fit, *held, record, recordIndex, table);
    if (seconds > 0) {
        std::size_t kept = 0;
        while (kept < experiment.times.size() && experiment.times[kept] <= experiment.times.front() + seconds)
            ++kept;
        if (kept < 2)
            throw JobError(JobError::Kind::Settings,
                           name + ": the first " + std::to_string(seconds) +
                               " s hold fewer than two samples; estimate the initial "
                               "values from a longer stretch");
        experiment.times.resize(kept);
        experiment.measured = experiment.measured.topRows(static_cast<Eigen::Index>(kept)).eval();
    }

    integrate::resolveMethod(settings.integrator, *held);
    estimate::FitResult result;
    try {
        result = estimate::fit(held, values, {experiment}, settings, nullptr, stop);
    } catch (const estimate::FitError& e) {
        throw JobError(JobError::Kind::Fit, name + ": estimating the initial values: " + e.what());
    } catch (const integrate::IntegrationError& e) {
        throw JobError(JobError::Kind::Integration, name + ": estimating the initial values: " + e.what());
    } catch (const std::invalid_argument& e) {
        throw JobError(JobError::Kind::Fit, name + ": estimating the initial values: " + e.what());
    }
    if (result.cancelled())
        throw JobError(JobError::Kind::Integration, name + ": cancelled");
    std::map<std::string, double> initial;
    for (const auto& p : result.parameters)
        initial[p.name] = p.value;
    return initial;
}

std::vector<OutputAgreement> agreementOf(const ValidationSimulation& s)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<OutputAgreement> agreement;
    for (std::size_t j = 0; j < s.outputNames.size(); ++j) {
        const auto column = static_cast<Eigen::Index>(j);
        agreement.push_back(j < s.outputMeasured.size() && s.outputMeasured[j]
                                ? outputAgreement(s.measured.col(column), s.outputs.col(column))
                                : OutputAgreement{nan, nan, nan});
    }
    return agreement;
}

}  // namespace

Comparison compareWithRecord(const FitJob& fit, const ExperimentData& record, std::size_t recordIndex,
                             const std::map<std::string, double>& estimates, InitialValues initial,
                             std::stop_token stop)
{
    Comparison comparison;
    if (estimate::traitsOf(fit.settings.method).objective == estimate::Objective::PeriodicResponse) {
        // The model's response to a periodic excitation is its periodic steady state, as the fit had it.
        comparison.simulation = periodicSteadyStateOnRecord(fit, record, recordIndex, estimates, stop);
        comparison.agreement = agreementOf(comparison.simulation);
        return comparison;
    }
    std::map<std::string, double> values = estimates;
    if (initial.source != InitialValueSource::Result) {
        const auto model = compileModelText(fit.modelText, fit.modelSource, {.secondDerivatives = false},
                                            fit.settings.integrator.modelCode);
        for (const auto& p : model->parameters)
            if (p.isInitialValue)
                values.erase(p.name);
    }
    if (initial.source == InitialValueSource::Estimate)
        for (const auto& [parameter, value] :
             estimatedInitialValues(fit, record, recordIndex, estimates, initial.estimateSeconds, stop))
            values[parameter] = value;

    comparison.simulation = simulateValidation(fit, record, recordIndex, values, stop);
    comparison.agreement = agreementOf(comparison.simulation);
    return comparison;
}

}  // namespace sysid::job
