#include "engine/estimate/EquationErrorFit.h"

#include "engine/core/SolverStatistics.h"
#include "engine/data/Text.h"
#include "engine/estimate/EquationErrorObjective.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/estimate/PriorRows.h"
#include "engine/estimate/ResidualAnalysis.h"
#include "engine/estimate/UndeterminedDirections.h"
#include "engine/estimate/Uncertainty.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/Simulator.h"

#include <algorithm>
#include <functional>
#include <cmath>
#include <limits>
#include <set>

namespace sysid::estimate {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::vector<double> stateWeights(const eval::CompiledModelSource& model, const MeasuredStates& states,
                                 const std::map<std::string, double>& given)
{
    const std::size_t n = model.stateCount();
    const double length = states.times.back() - states.times.front();
    std::vector<double> weights(n, 1.0);
    // Seed eq. 3.6: a coordinate's residual divided by the record length, so that it has the
    // units of its velocity's.
    for (std::size_t i = 0; i < n; ++i)
        if (const int coordinate = coordinateOf(model, i); coordinate >= 0)
            weights[static_cast<std::size_t>(coordinate)] = 1.0 / (length * length);
    for (const auto& [name, weight] : given) {
        const auto at = std::find(model.stateNames.begin(), model.stateNames.end(), name);
        if (at == model.stateNames.end())
            throw FitError("state weight for '" + name + "': the model has no state '" + name + "'");
        if (!(weight > 0) || !std::isfinite(weight))
            throw FitError("state weight for '" + name + "' must be a finite number > 0");
        weights[static_cast<std::size_t>(at - model.stateNames.begin())] = weight;
    }
    return weights;
}

// The fitted model simulated over each record from its measured first sample; nullopt when
// an integration fails (the equation-error methods are also used on models that cannot be
// simulated stably).
std::optional<std::vector<Eigen::MatrixXd>> simulateRecords(
    const std::shared_ptr<const eval::CompiledModelSource>& model, const std::vector<EquationErrorRecord>& records,
    const Eigen::VectorXd& theta, const std::vector<std::size_t>& unknowns,
    const integrate::IntegratorSettings& settings, std::stop_token stop, std::string& failure)
{
    eval::CompiledModel compiled(model);
    std::vector<Eigen::MatrixXd> outputs;
    for (const auto& record : records) {
        std::vector<double> values = record.parameterValues;
        for (std::size_t k = 0; k < unknowns.size(); ++k)
            values[unknowns[k]] = theta(static_cast<Eigen::Index>(k));
        compiled.setParameters(values);
        integrate::SimulationRequest request;
        request.times = record.states.times;
        const auto first = record.states.values.row(0);
        request.initialState = std::vector<double>(first.data(), first.data() + first.size());
        request.inputs = record.inputs;
        request.stop = stop;
        try {
            outputs.push_back(integrate::simulate(compiled, request, settings).outputs);
        } catch (const std::exception& e) {
            failure = "data set '" + record.name + "': " + e.what();
            return std::nullopt;
        }
    }
    return outputs;
}

double relativeChange(const Eigen::VectorXd& from, const Eigen::VectorXd& to)
{
    double largest = 0.0;
    for (Eigen::Index i = 0; i < from.size(); ++i)
        largest = std::max(largest, std::abs(to(i) - from(i)) / std::max(std::abs(from(i)), 1e-12));
    return largest;
}

// The Newton-Raphson direction where the Hessian is positive definite, else Gauss-Newton's
// (pseudo-inverse on the range of J'J, so that unidentifiable directions are not moved).
Eigen::VectorXd newtonDirection(const EquationErrorTerms& terms)
{
    const core::PhaseTimer timer(core::Phase::LinearAlgebra);
    const Eigen::MatrixXd hessian = terms.gaussNewton + terms.secondOrder;
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(hessian);
    const double scale = hessian.diagonal().cwiseAbs().maxCoeff();
    if (ldlt.info() == Eigen::Success && ldlt.isPositive() && scale > 0 && ldlt.vectorD().minCoeff() > 1e-14 * scale)
        return -ldlt.solve(terms.gradient);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(terms.gaussNewton);
    const Eigen::VectorXd values = eigen.eigenvalues();
    const double largest = values.size() ? values.cwiseAbs().maxCoeff() : 0.0;
    Eigen::VectorXd inverse = Eigen::VectorXd::Zero(values.size());
    for (Eigen::Index i = 0; i < values.size(); ++i)
        if (values(i) > 1e-13 * largest)
            inverse(i) = 1.0 / values(i);
    return -(eigen.eigenvectors() * inverse.asDiagonal() * eigen.eigenvectors().transpose()) * terms.gradient;
}

// The unknowns the residual can see: not initial values (unless the method takes them), and
// contained in the equations of motion.
std::vector<const ParameterLayout::Unknown*> equationErrorUnknowns(const eval::CompiledModelSource& model,
                                                                   const ParameterLayout& layout,
                                                                   const MethodTraits& traits,
                                                                   const std::function<void(const std::string&)>& log)
{
    std::set<std::size_t> inEquations;
    for (const auto& e : model.rhsParamJacobian.entries)
        inEquations.insert(e.column);
    std::vector<const ParameterLayout::Unknown*> estimated;
    for (const auto& u : layout.unknowns()) {
        if (!traits.takes(MethodInput::InitialValues) &&
            (model.parameters[u.modelIndex].isInitialValue || u.experiment >= 0)) {
            log("note: " + u.name +
                " is an initial value; the equation-error methods take the states from the data "
                "and do not estimate it");
            continue;
        }
        if (!inEquations.count(u.modelIndex)) {
            log("note: " + u.name +
                " does not appear in the equations of motion; the equation-error methods cannot "
                "estimate it (it keeps its starting value " +
                data::formatNumber(u.initial, 8) + ")");
            continue;
        }
        estimated.push_back(&u);
    }
    return estimated;
}

// Equation error divides out no noise: where a state changes over the formula's span by less
// than a few times its noise, the residual is mostly noise and the estimate is biased (errors in
// variables; seed 004 reports up to 1300 % with a one-step formula).
void warnAboutNoise(const eval::CompiledModelSource& model, const EquationErrorRecord& record, std::size_t span,
                    const std::function<void(const std::string&)>& log)
{
    const auto& values = record.states.values;
    const auto samples = values.rows();
    const auto s = static_cast<Eigen::Index>(span);
    if (samples < 8 || samples <= s)
        return;
    for (Eigen::Index i = 0; i < values.cols(); ++i) {
        if (record.states.differentiated[static_cast<std::size_t>(i)])
            continue;
        const Eigen::VectorXd column = values.col(i);
        const double noise = estimateNoiseSd(record.states.times, column);
        const Eigen::VectorXd change = column.tail(samples - s) - column.head(samples - s);
        const double typical = std::sqrt(change.squaredNorm() / static_cast<double>(change.size()));
        if (noise > 0.25 * typical)
            log("warning: data set '" + record.name + "': " + model.stateNames[static_cast<std::size_t>(i)] +
                " changes by only " + data::formatNumber(typical / noise, 2) + " times its noise (sd " +
                data::formatNumber(noise, 3) + ") over the formula's span of " + std::to_string(span) +
                " sample(s): the equation error is mostly noise and the estimates will be biased. Low-pass filter "
                "or decimate the data, or use a multistep formula or output error.");
    }
}

}  // namespace

std::vector<std::string> equationErrorParameterNames(const eval::CompiledModelSource& model,
                                                     const std::vector<Experiment>& experiments,
                                                     EstimationMethod method)
{
    const ParameterLayout layout = layoutFor(model, model.parameterValues, experiments);
    std::vector<std::string> names;
    for (const auto* u : equationErrorUnknowns(model, layout, traitsOf(method), [](const std::string&) {}))
        names.push_back(u->name);
    return names;
}

FitResult fitByEquationError(std::shared_ptr<const eval::CompiledModelSource> model,
                             const std::vector<double>& initialValues, const std::vector<Experiment>& experiments,
                             const FitSettings& settings, ProgressSink* observer, std::stop_token stop)
{
    const MethodTraits& traits = traitsOf(settings.method);
    if (traits.objective != Objective::EquationError)
        throw FitError(methodName(settings.method) + " is not an equation-error method");
    if (experiments.empty())
        throw FitError("no data to fit: give at least one experiment");
    try {
        settings.validate();  // a formula of the other method's kind among them
    } catch (const core::SettingError& e) {
        throw FitError(std::string("settings: ") + e.what());
    }
    const EquationErrorFormula formula =
        traits.takes(MethodInput::OneStepFormula) ? settings.equationError.oneStep : settings.equationError.multistep;
    const ParameterLayout layout = layoutFor(*model, initialValues, experiments);
    auto log = [&](const std::string& line) {
        if (observer)
            observer->log(line);
    };

    std::vector<std::size_t> unknowns;
    std::vector<const ParameterLayout::Unknown*> estimated = equationErrorUnknowns(*model, layout, traits, log);
    for (const auto* u : estimated)
        unknowns.push_back(u->modelIndex);
    if (unknowns.empty())
        throw FitError(
            "no parameter of the equations of motion is free: the equation-error methods have nothing to estimate");
    if (!settings.priors.empty() && !traits.takes(MethodInput::Priors))
        log(priorsIgnoredNote(settings.method));

    EquationErrorObjective objective(model, formula, unknowns);
    std::vector<EquationErrorRecord> records;
    const Eigen::VectorXd layoutStart = layout.initial();
    for (std::size_t e = 0; e < experiments.size(); ++e) {
        EquationErrorRecord record;
        record.name = experiments[e].name;
        record.states =
            measuredStates(*model, experiments[e], settings.equationError.differentiation, objective.minimumSamples());
        for (std::size_t i = 0; i < model->stateCount(); ++i)
            if (record.states.differentiated[i] && e == 0)
                log(model->stateNames[i] + " is not measured: it is taken as the derivative of " +
                    model->stateNames[static_cast<std::size_t>(coordinateOf(*model, i))] + " (" +
                    std::string(data::derivativeMethodName(settings.equationError.differentiation.method)) + ")");
        record.inputs = model->inputCount() > 0 ? &experiments[e].inputs : nullptr;
        record.parameterValues = layout.modelValues(layoutStart, e);
        record.stateWeights = stateWeights(*model, record.states, settings.equationError.stateWeights);
        warnAboutNoise(*model, record, objective.minimumSamples() - 1, log);
        records.push_back(std::move(record));
    }

    const auto p = static_cast<Eigen::Index>(unknowns.size());
    Eigen::VectorXd theta(p), lower(p), upper(p);
    for (Eigen::Index k = 0; k < p; ++k) {
        theta(k) = estimated[static_cast<std::size_t>(k)]->initial;
        lower(k) = estimated[static_cast<std::size_t>(k)]->lower;
        upper(k) = estimated[static_cast<std::size_t>(k)]->upper;
    }

    FitResult result;
    result.outputNames = model->outputNames;
    // The fitted model's response at `simulatedAt`: the traces of the last iteration are the
    // response the residual RMS needs, so they are not integrated twice.
    std::optional<std::vector<Eigen::MatrixXd>> simulated;
    Eigen::VectorXd simulatedAt;
    std::string simulationFailure;
    auto simulate = [&] {
        if (simulatedAt.size() == theta.size() && simulatedAt == theta)
            return;
        simulationFailure.clear();
        simulated = simulateRecords(model, records, theta, unknowns, settings.integrator, stop, simulationFailure);
        simulatedAt = theta;
    };
    auto record = [&](std::size_t iteration, double cost, double step) {
        IterationRecord r;
        r.iteration = iteration;
        r.parameters.assign(theta.data(), theta.data() + theta.size());
        r.cost = cost;
        r.stepNorm = step;
        result.history.push_back(r);
        if (!observer)
            return;
        observer->iteration(r);
        if (!settings.equationError.simulateFit)
            return;
        simulate();
        if (simulated)
            for (std::size_t e = 0; e < records.size(); ++e)
                observer->trace(e, records[e].states.times, (*simulated)[e]);
    };

    // Evaluations of the objective, and those that include its gradient and Hessian.
    std::size_t evaluations = 0, derivativeEvaluations = 0;
    auto evaluate = [&](const Eigen::VectorXd& at, EquationErrorOrder order) {
        ++evaluations;
        if (order != EquationErrorOrder::CostOnly)
            ++derivativeEvaluations;
        return objective.evaluate(at, records, order, stop);
    };
    EquationErrorTerms terms;
    try {
        terms = evaluate(theta, EquationErrorOrder::Second);
    } catch (const std::runtime_error& e) {
        throw FitError(std::string("at the starting values: ") + e.what());
    }
    using core::Termination;
    using core::TerminationCriterion;
    const Eigen::VectorXd start = theta;
    const bool startIncomplete = terms.cancelled;
    if (!terms.cancelled)
        record(0, terms.cost, 0.0);
    std::optional<Termination> termination;
    if (terms.cancelled)
        termination = Termination::cancel();
    std::size_t iteration = 0;
    while (!termination) {
        if (iteration >= settings.maxIterations) {
            termination = Termination::iterationLimit("maximum number of iterations reached");
            break;
        }
        if (stop.stop_requested()) {
            termination = Termination::cancel();
            break;
        }
        const Eigen::VectorXd direction = newtonDirection(terms);
        const Eigen::VectorXd fullStep = (theta + direction).cwiseMax(lower).cwiseMin(upper);
        if (relativeChange(theta, fullStep) <= settings.stepTolerance) {
            termination =
                Termination::convergence(TerminationCriterion::StepTolerance, "relative step below tolerance");
            break;
        }
        ++iteration;
        // The full step is evaluated with its derivatives (it is usually accepted); shorter
        // ones by their cost alone, and the accepted one again with derivatives.
        bool accepted = false, cancelled = false;
        double alpha = 1.0;
        EquationErrorTerms trial;
        Eigen::VectorXd candidate;
        for (int halving = 0; halving < 30 && !accepted; ++halving, alpha *= 0.5) {
            candidate = (theta + alpha * direction).cwiseMax(lower).cwiseMin(upper);
            const EquationErrorOrder order = halving == 0 ? EquationErrorOrder::Second : EquationErrorOrder::CostOnly;
            try {
                trial = evaluate(candidate, order);
            } catch (const std::runtime_error&) {
                continue;  // a step into a region where the model is not finite: shorter
            }
            if (trial.cancelled) {
                cancelled = true;
                break;
            }
            accepted = trial.cost <= terms.cost;
            if (accepted && order == EquationErrorOrder::CostOnly) {
                trial = evaluate(candidate, EquationErrorOrder::Second);
                cancelled = trial.cancelled;
            }
        }
        if (accepted)
            alpha *= 2;  // undo the loop's last halving
        if (cancelled) {
            termination = Termination::cancel();
            break;
        }
        if (!accepted) {
            termination = relativeChange(theta, fullStep) <= 1e-8
                ? Termination::convergence(TerminationCriterion::RoundingLevel,
                                           "no further decrease of the objective (at the optimum within rounding)")
                : Termination::failure(TerminationCriterion::LineSearch,
                                       "the line search found no step that decreases the objective");
            break;
        }
        const double change = relativeChange(theta, candidate);
        const double previous = terms.cost;
        theta = candidate;
        terms = std::move(trial);
        record(iteration, terms.cost, change);
        if (change <= settings.stepTolerance)
            termination =
                Termination::convergence(TerminationCriterion::StepTolerance, "relative step below tolerance");
        else if (alpha == 1.0 && previous - terms.cost <= settings.costTolerance * previous)
            termination =
                Termination::convergence(TerminationCriterion::CostTolerance, "relative cost change below tolerance");
    }
    const bool cancelled = termination->cancelled();

    const Eigen::VectorXd noPrior = Eigen::VectorXd::Zero(p);
    const Uncertainty unc = [&] {
        const core::PhaseTimer timer(core::Phase::LinearAlgebra);
        return uncertaintyFromNormalEquations(terms.gaussNewton, 2.0 * terms.cost, terms.rows, noPrior);
    }();
    for (Eigen::Index k = 0; k < p; ++k) {
        const auto& unknown = *estimated[static_cast<std::size_t>(k)];
        ParameterEstimate estimate;
        estimate.name = unknown.name;
        estimate.initial = start(k);
        estimate.value = theta(k);
        estimate.sd = startIncomplete ? nan : unc.sd(k);
        estimate.lower95 = estimate.value - unc.halfWidthFactor * estimate.sd;
        estimate.upper95 = estimate.value + unc.halfWidthFactor * estimate.sd;
        estimate.atBound = estimate.value <= unknown.lower || estimate.value >= unknown.upper;
        result.parameters.push_back(estimate);
    }
    if (!startIncomplete && !cancelled) {
        result.undetermined = undeterminedCombinations(unc, result.parameters);
        for (const ParameterCombination& combination : result.undetermined)
            log(describe(combination));
    }
    result.covariance = unc.covariance;
    result.correlation = unc.correlation;
    result.cost = terms.cost;
    result.residualCount = terms.rows;
    result.minimiser = std::string(minimiserTable.name(Minimiser::NewtonRaphson));
    result.iterations = iteration;
    result.evaluations = evaluations;
    result.derivativeEvaluations = derivativeEvaluations;
    result.termination = std::move(*termination);

    result.residualRms.assign(model->outputCount(), nan);
    if (!cancelled && settings.equationError.simulateFit) {
        simulate();
        if (simulated) {
            result.residualRms = outputResidualRms(*model, experiments, *simulated);
            result.residualAnalysis = analyseFitResiduals(*model, experiments, *simulated);
        } else
            log("the fitted model could not be simulated over the data (" + simulationFailure +
                "); the output residuals are not reported");
    }
    return result;
}

}  // namespace sysid::estimate
