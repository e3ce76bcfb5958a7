#include "engine/estimate/Fit.h"

#include "engine/core/SolverStatistics.h"
#include "engine/data/Text.h"
#include "engine/estimate/EquationErrorFit.h"
#include "engine/estimate/LevenbergMarquardt.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/MultipleShootingProblem.h"
#include "engine/estimate/NoiseVariances.h"
#include "engine/estimate/OutputErrorProblem.h"
#include "engine/estimate/OutputWeights.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/estimate/PeriodicResponseProblem.h"
#include "engine/estimate/PriorRows.h"
#include "engine/estimate/ResidualAnalysis.h"
#include "engine/estimate/SteepestDescent.h"
#include "engine/estimate/UndeterminedDirections.h"
#include "engine/estimate/Uncertainty.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

namespace sysid::estimate {

namespace {

// Cancelled before the starting point was evaluated: the best estimate is the start.
FitResult cancelledAtStart(const ParameterLayout& layout, const eval::CompiledModelSource& model)
{
    FitResult result;
    const double unknown = std::numeric_limits<double>::quiet_NaN();
    for (const auto& u : layout.unknowns())
        result.parameters.push_back({u.name, u.initial, u.initial, unknown, unknown, unknown, false, {}});
    const auto p = static_cast<Eigen::Index>(layout.size());
    result.covariance = Eigen::MatrixXd::Constant(p, p, unknown);
    result.correlation = Eigen::MatrixXd::Constant(p, p, unknown);
    result.cost = unknown;
    result.outputNames = model.outputNames;
    result.residualRms.assign(model.outputCount(), unknown);
    result.termination = core::Termination::cancel("cancelled before the first evaluation finished");
    return result;
}

}  // namespace

ParameterLayout layoutFor(const eval::CompiledModelSource& model, const std::vector<double>& values,
                          const std::vector<Experiment>& experiments)
{
    std::vector<std::map<std::string, double>> fixedValues, heldInitialValues, startValues;
    for (const auto& e : experiments) {
        fixedValues.push_back(e.fixedValues);
        heldInitialValues.push_back(e.heldInitialValues);
        startValues.push_back(e.startValues);
    }
    try {
        return ParameterLayout(model, values, fixedValues, heldInitialValues, startValues);
    } catch (const std::invalid_argument& e) {
        throw FitError(e.what());
    }
}

std::vector<double> outputResidualRms(const eval::CompiledModelSource& model,
                                      const std::vector<Experiment>& experiments,
                                      const std::vector<Eigen::MatrixXd>& outputs)
{
    std::vector<double> rms(model.outputCount(), std::numeric_limits<double>::quiet_NaN());
    const std::vector<OutputSquares> sums = outputSquares(experiments, outputs, model.outputCount());
    for (std::size_t j = 0; j < sums.size(); ++j)
        if (sums[j].samples > 0)
            rms[j] = std::sqrt(sums[j].squares / static_cast<double>(sums[j].samples));
    return rms;
}

std::vector<std::string> estimatedParameterNames(const eval::CompiledModelSource& model,
                                                 const std::vector<Experiment>& experiments, EstimationMethod method)
{
    if (traitsOf(method).objective == Objective::EquationError)
        return equationErrorParameterNames(model, experiments, method);
    const ParameterLayout layout = layoutFor(model, model.parameterValues, experiments);
    std::vector<std::string> names;
    for (const auto& u : layout.unknowns())
        names.push_back(u.name);
    return names;
}

StoppingTolerances stoppingTolerances(const FitSettings& settings)
{
    StoppingTolerances t;
    t.maxIterations = settings.maxIterations;
    t.costTolerance = settings.costTolerance;
    t.stepTolerance = settings.stepTolerance;
    t.gradientTolerance = settings.gradientTolerance;
    return t;
}

LevenbergMarquardtOptions levenbergMarquardtOptions(const FitSettings& settings)
{
    LevenbergMarquardtOptions options;
    static_cast<StoppingTolerances&>(options) = stoppingTolerances(settings);
    return options;
}

GaussNewtonOptions gaussNewtonOptions(const FitSettings& settings)
{
    GaussNewtonOptions options;
    static_cast<StoppingTolerances&>(options) = stoppingTolerances(settings);
    return options;
}

namespace {

FitResult fitUnknowns(std::shared_ptr<const eval::CompiledModelSource> model, const std::vector<double>& initialValues,
                      const std::vector<Experiment>& experiments, const FitSettings& settings, ProgressSink* observer,
                      std::stop_token stop, WithoutUnknowns withoutUnknowns)
{
    if (experiments.empty())
        throw FitError("no data to fit: give at least one experiment");
    // A model with algebraic variables has none; the integrator or the job refuses it in words.
    if (needsSecondDerivatives(settings) && !model->isDae())
        eval::requireSecondDerivatives(*model, methodName(settings.method) + " with integrator " +
                                                   integrate::methodName(settings.integrator.method));
    const ParameterLayout layout = layoutFor(*model, initialValues, experiments);
    if (layout.size() == 0 && withoutUnknowns == WithoutUnknowns::Refuse)
        throw FitError("every parameter is fixed: there is nothing to estimate");
    for (const auto& u : layout.unknowns())
        if (u.initial < u.lower || u.initial > u.upper)
            throw FitError("the starting value " + data::formatNumber(u.initial, 6) + " of " + u.name +
                           " lies outside its bounds [" + data::formatNumber(u.lower, 6) + ", " +
                           data::formatNumber(u.upper, 6) + "]");
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        throw FitError(std::string("settings: ") + e.what());
    }
    const MethodTraits& traits = traitsOf(settings.method);
    if (settings.sensitivity == SensitivityMethod::Structural && !traits.takes(MethodInput::SensitivityMethod))
        throw FitError(structuralSensitivityRefusal(settings.method));
    if (traits.objective == Objective::EquationError)
        return fitByEquationError(std::move(model), initialValues, experiments, settings, observer, stop);
    std::vector<double> weights;
    const bool estimateNoise = traits.weighting == OutputWeighting::Estimated;
    try {
        // Weights the method does not take (maximum likelihood estimates them) are ignored, not checked.
        FitSettings weighting = settings;
        if (!traits.takes(MethodInput::OutputWeights))
            weighting.outputWeights.clear();
        weights = outputWeights(*model, experiments, weighting);
        for (std::size_t j = 0; j < weights.size(); ++j)
            if (estimateNoise ||
                (traits.weighting == OutputWeighting::Unit && !settings.outputWeights.count(model->outputNames[j])))
                weights[j] = weights[j] > 0 ? 1.0 : 0.0;  // the seed's unweighted J; ML scales them itself
    } catch (const std::invalid_argument& e) {
        throw FitError(e.what());
    }
    const bool usesPriors = traits.takes(MethodInput::Priors);
    const auto priors =
        usesPriors ? priorsFor(layout, *model, settings) : std::vector<std::optional<Prior>>(layout.size());
    if (!usesPriors && !settings.priors.empty() && observer)
        observer->log(priorsIgnoredNote(settings.method));

    std::unique_ptr<FitProblem> problem;
    // Levenberg-Marquardt needs only J'J and J'r, which a large problem forms without its Jacobian.
    const auto normalForm = traits.minimiser == Minimiser::LevenbergMarquardt ? ResponseFitProblem::NormalForm::WhenLarge
                                                                              : ResponseFitProblem::NormalForm::Never;
    const ResponseFitProblem* likelihoodProblem = nullptr;  // the problem, when it estimates the noise variances
    switch (traits.objective) {
    case Objective::MultipleShooting:
        problem = std::make_unique<MultipleShootingProblem>(model, layout, experiments, weights, settings.integrator,
                                                            settings.shootingIntervals, stop);
        break;
    case Objective::PeriodicResponse: {
        auto periodic = std::make_unique<PeriodicResponseProblem>(model, layout, experiments, weights, priors,
                                                                  settings.integrator, settings.periodic);
        periodic->setNormalForm(normalForm);
        problem = std::move(periodic);
        break;
    }
    case Objective::OutputError:
    case Objective::EquationError: {
        auto outputError = std::make_unique<OutputErrorProblem>(model, layout, experiments, weights, priors,
                                                                settings.integrator, settings.sensitivity);
        outputError->setNormalForm(normalForm);
        if (estimateNoise) {
            outputError->estimateNoiseVariances(noiseVarianceFloors(experiments, model->outputCount()));
            likelihoodProblem = outputError.get();
        }
        problem = std::move(outputError);
        break;
    }
    }

    auto onAccepted = [&](const IterationRecord& record) {
        if (!observer)
            return;
        observer->iteration(record);
        for (std::size_t e = 0; e < experiments.size(); ++e)
            observer->trace(e, experiments[e].times, problem->outputs()[e]);
    };
    MinimiserOutcome outcome;
    try {
        switch (traits.minimiser) {
        case Minimiser::SteepestDescent:
            outcome = steepestDescent(*problem, trapezoidRowWeights(experiments, weights), settings.steepestDescentGain,
                                      stoppingTolerances(settings), stop, onAccepted);
            break;
        case Minimiser::DampedGaussNewton:
            outcome = dampedGaussNewton(*problem, gaussNewtonOptions(settings), stop, onAccepted);
            break;
        default: outcome = levenbergMarquardt(*problem, levenbergMarquardtOptions(settings), stop, onAccepted);
        }
    } catch (const std::invalid_argument& e) {
        throw FitError(e.what());
    } catch (const std::runtime_error& e) {
        if (stop.stop_requested())
            return cancelledAtStart(layout, *model);
        throw FitError(e.what());
    }

    FitResult result;
    const auto dataRows = static_cast<Eigen::Index>(problem->dataResidualCount());
    Eigen::VectorXd precision = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size()));
    for (std::size_t u = 0; u < layout.size(); ++u)
        if (priors[u])
            precision(static_cast<Eigen::Index>(u)) = 1.0 / (priors[u]->sd * priors[u]->sd);
    const Uncertainty unc = [&] {
        const core::PhaseTimer timer(core::Phase::LinearAlgebra);
        if (layout.size() == 0)
            return Uncertainty{};  // nothing estimated: the cost evaluated
        if (outcome.final.normalForm)
            return uncertaintyFromNormalEquations(outcome.final.dataNormalMatrix,
                                                  outcome.final.residuals.head(dataRows).squaredNorm(),
                                                  static_cast<std::size_t>(dataRows), precision);
        if (likelihoodProblem)
            return uncertaintyWithEstimatedNoise(outcome.final.jacobian.topRows(dataRows), precision);
        return uncertainty(outcome.final.jacobian.topRows(dataRows), outcome.final.residuals.head(dataRows), precision);
    }();
    const Eigen::VectorXd theta = problem->parameters();
    for (std::size_t u = 0; u < layout.size(); ++u) {
        const auto uu = static_cast<Eigen::Index>(u);
        const auto& unknown = layout.unknowns()[u];
        ParameterEstimate estimate;
        estimate.name = unknown.name;
        estimate.initial = unknown.initial;
        estimate.value = theta(uu);
        estimate.sd = unc.sd(uu);
        estimate.lower95 = estimate.value - unc.halfWidthFactor * estimate.sd;
        estimate.upper95 = estimate.value + unc.halfWidthFactor * estimate.sd;
        estimate.atBound = estimate.value <= unknown.lower || estimate.value >= unknown.upper;
        result.parameters.push_back(estimate);
    }
    result.undetermined = undeterminedCombinations(unc, result.parameters);
    if (observer)
        for (const ParameterCombination& combination : result.undetermined)
            observer->log(describe(combination));
    result.covariance = unc.covariance;
    result.correlation = unc.correlation;
    result.cost = outcome.final.merit;
    result.outputNames = model->outputNames;
    result.residualRms = outputResidualRms(*model, experiments, problem->outputs());
    result.likelihood =
        likelihoodOf(outputSquares(experiments, problem->outputs(), model->outputCount()), layout.size());
    if (likelihoodProblem) {
        result.noise = noiseEstimates(likelihoodProblem->outputSquares(), likelihoodProblem->noiseVarianceFloors(),
                                      model->outputNames, model->outputUnits);
        if (observer)
            for (const NoiseEstimate& n : result.noise)
                observer->log("noise sd of " + n.output + ": " + data::formatNumber(n.value, 6) + " +- " +
                              data::formatNumber(n.sd, 2) + " (maximum likelihood, " + std::to_string(n.samples) +
                              " samples)");
    }
    result.residualAnalysis = analyseFitResiduals(*model, experiments, problem->outputs());
    result.residualCount = problem->dataResidualCount();
    result.minimiser = std::string(minimiserTable.name(traits.minimiser));
    result.iterations = outcome.iterations;
    result.evaluations = outcome.evaluations;
    result.derivativeEvaluations = outcome.evaluations;
    result.termination = std::move(outcome.termination);
    result.history = std::move(outcome.history);
    return result;
}

}  // namespace

FitResult fit(std::shared_ptr<const eval::CompiledModelSource> model, const std::vector<double>& initialValues,
              const std::vector<Experiment>& experiments, const FitSettings& settings, ProgressSink* observer,
              std::stop_token stop, WithoutUnknowns withoutUnknowns)
{
    const auto begin = std::chrono::steady_clock::now();
    core::RunStatistics statistics;
    FitResult result;
    {
        const core::StatisticsScope scope(&statistics);
        result = fitUnknowns(std::move(model), initialValues, experiments, settings, observer, stop, withoutUnknowns);
    }
    result.settings = settings;
    result.statistics = statistics.snapshot();
    result.statistics.seconds.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return result;
}

}  // namespace sysid::estimate
