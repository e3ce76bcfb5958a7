#include "engine/estimate/OptimalEstimation.h"

#include "engine/core/MemoryBudget.h"

#include "engine/core/SolverStatistics.h"
#include "engine/data/Text.h"
#include "engine/estimate/OptimalEstimationGuess.h"
#include "engine/estimate/OptimalEstimationHamiltonian.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeCode.h"
#include "engine/model/SymbolicLock.h"
#include "engine/integrate/ModelSystem.h"

#include <ginac/ginac.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <set>

namespace sysid::estimate {

namespace {

template <class T>
void requireKnownNames(const std::map<std::string, T>& given, const std::vector<std::string>& known,
                       const std::string& what)
{
    for (const auto& [name, value] : given)
        if (std::find(known.begin(), known.end(), name) == known.end())
            throw OptimalEstimationError(what + " names '" + name +
                                         "', which is not one of: " + data::nameList(known, ""));
}

void checkExperiment(const model::Model& model, const Experiment& e)
{
    if (e.times.size() < 3)
        throw OptimalEstimationError("experiment '" + e.name + "' has " + std::to_string(e.times.size()) +
                                     " samples; optimal estimation needs at least 3");
    for (std::size_t i = 1; i < e.times.size(); ++i)
        if (!(e.times[i] > e.times[i - 1]))
            throw OptimalEstimationError("experiment '" + e.name +
                                         "': time is not strictly increasing at t = " + std::to_string(e.times[i]));
    if (e.measured.rows() != static_cast<Eigen::Index>(e.times.size()) ||
        e.measured.cols() != static_cast<Eigen::Index>(model.outputs.size()))
        throw OptimalEstimationError("experiment '" + e.name + "': the measured data is " +
                                     std::to_string(e.measured.rows()) + " x " + std::to_string(e.measured.cols()) +
                                     ", expected samples x outputs = " + std::to_string(e.times.size()) + " x " +
                                     std::to_string(model.outputs.size()));
    if (e.inputs.size() != model.inputs.size())
        throw OptimalEstimationError("experiment '" + e.name + "' has " + std::to_string(e.inputs.size()) +
                                     " input signals; the model has " + std::to_string(model.inputs.size()) +
                                     " inputs, and optimal estimation needs each one measured");
    for (std::size_t j = 0; j < model.outputs.size(); ++j)
        if (e.outputMeasured.size() > j && e.outputMeasured[j])
            for (Eigen::Index i = 0; i < e.measured.rows(); ++i)
                if (!std::isfinite(e.measured(i, static_cast<Eigen::Index>(j))))
                    throw OptimalEstimationError(
                        "experiment '" + e.name + "': output " + model.outputs[j].name +
                        " is not a finite number at t = " + std::to_string(e.times[static_cast<std::size_t>(i)]));
}

// The Hamiltonian system is compiled once for every stage: native unless a stage that runs asks for
// the interpreter (its integrator's model_code).
eval::ModelCode hamiltonianModelCode(const OptimalEstimationSettings& settings)
{
    const auto interpreted = [](const integrate::IntegratorSettings& i) {
        return i.modelCode == eval::ModelCode::Interpreted;
    };
    for (const auto& stage : settings.bvp.stages)
        if (interpreted(stage.integrator) || (stage.jacobianIntegrator && interpreted(*stage.jacobianIntegrator)))
            return eval::ModelCode::Interpreted;
    if (settings.bvp.stages.empty())
        for (const auto& stage : stagesToRun(settings.stages, settings.startFrom.has_value()))
            if (interpreted(stage.integrator))
                return eval::ModelCode::Interpreted;
    return eval::ModelCode::Native;
}

// With the second derivatives where a stage's integrator needs them for the variational equations of
// its shooting intervals (a rosenbrock4 stage); none otherwise, as their differentiation is the
// costliest part of compiling the Hamiltonian system.
eval::CompileOptions hamiltonianCompileOptions(const OptimalEstimationSettings& settings)
{
    using integrate::sensitivitiesNeedSecondDerivatives;
    bool second = false;
    for (const auto& stage : settings.bvp.stages)
        second = second || sensitivitiesNeedSecondDerivatives(stage.integrator) ||
            (stage.jacobianIntegrator && sensitivitiesNeedSecondDerivatives(*stage.jacobianIntegrator));
    if (settings.bvp.stages.empty())
        for (const auto& stage : stagesToRun(settings.stages, settings.startFrom.has_value()))
            second = second || sensitivitiesNeedSecondDerivatives(stage.integrator);
    return {.secondDerivatives = second};
}

// Everything taken from the symbolic model, so no GiNaC object outlives the lock.
struct Prepared {
    AugmentedLayout layout;
    HamiltonianWeights weights;
    std::shared_ptr<const eval::CompiledModelSource> source;
    std::vector<std::optional<std::size_t>> measuredColumnOfState;  // experiment column measuring a state
    std::vector<double> startingState;  // per model state, from x(0)
    // Augmented state -> its guess on the data grid (the settings' expressions and initialGuess).
    std::map<std::string, std::vector<double>> guesses;
};

// A previous solution's trajectories on the shooting points; throws when they are malformed or
// name none of the augmented states.
void applyStartTrajectory(const StartTrajectory& start, const AugmentedLayout& L, const std::vector<double>& points,
                          Eigen::MatrixXd& nodes)
{
    const std::size_t N = L.stateNames.size();
    const std::string from = start.source.empty() ? std::string("the result to start from") : start.source;
    for (std::size_t k = 1; k < start.times.size(); ++k)
        if (!(start.times[k] > start.times[k - 1]))
            throw OptimalEstimationError(from + ": its times are not strictly increasing");
    std::size_t used = 0;
    for (std::size_t i = 0; i < 2 * N; ++i) {
        const std::string name = i < N ? L.stateNames[i] : "lambda_" + L.stateNames[i - N];
        const auto it = start.values.find(name);
        if (it == start.values.end())
            continue;
        if (it->second.size() != start.times.size() || start.times.empty())
            throw OptimalEstimationError(from + ": " + name + " has " + std::to_string(it->second.size()) +
                                         " values for " + std::to_string(start.times.size()) + " times");
        for (const double v : it->second)
            if (!std::isfinite(v))
                throw OptimalEstimationError(from + ": " + name + " holds a value that is not a finite number");
        const data::Signal trajectory(start.times, it->second);
        for (std::size_t k = 0; k < points.size(); ++k)
            nodes(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(i)) = trajectory.at(points[k]);
        used += i < N ? 1 : 0;
    }
    if (used == 0)
        throw OptimalEstimationError(from + " holds none of the states to start from (" +
                                     data::nameList(L.stateNames, "") + ")");
}

Prepared prepare(const model::Model& model, const Experiment& experiment, const OptimalEstimationSettings& settings)
{
    std::lock_guard lock(model::symbolicMutex());
    Prepared p;
    p.layout = augmentedLayout(model, experiment.outputMeasured);
    const AugmentedLayout& L = p.layout;
    requireKnownNames(settings.stateWeights, L.stateNames, "a state weight");
    requireKnownNames(settings.initialPrior, L.stateNames, "an initial prior");
    requireKnownNames(settings.initialGuess, L.stateNames, "an initial guess");
    requireKnownNames(settings.guessExpressions, L.stateNames, "an initial guess");
    for (const auto& [name, values] : settings.initialGuess) {
        if (values.size() != experiment.times.size())
            throw OptimalEstimationError("the initial guess of " + name + " has " + std::to_string(values.size()) +
                                         " values; the data has " + std::to_string(experiment.times.size()) +
                                         " samples");
        for (std::size_t k = 0; k < values.size(); ++k)
            if (!std::isfinite(values[k]))
                throw OptimalEstimationError("the initial guess of " + name +
                                             " is not a finite number at t = " + std::to_string(experiment.times[k]));
    }
    p.guesses = evaluateGuessExpressions(settings.guessExpressions, model, experiment);
    for (const auto& [name, values] : settings.initialGuess)
        p.guesses[name] = values;
    requireKnownNames(settings.measurementWeights, L.residualNames, "a measurement weight");
    HamiltonianWeights& w = p.weights;
    for (const auto& name : L.stateNames) {
        const auto it = settings.stateWeights.find(name);
        w.state.push_back(it == settings.stateWeights.end() ? 1.0 : it->second);
    }
    for (const auto& name : L.residualNames) {
        const auto it = settings.measurementWeights.find(name);
        w.measurement.push_back(it == settings.measurementWeights.end() ? 1.0 : it->second);
    }

    const model::Model hamiltonian = hamiltonianModel(model, L, w, experiment.fixedValues);
    p.source = eval::compileModel(hamiltonian, hamiltonianCompileOptions(settings));
    eval::requestNativeCode(p.source, hamiltonianModelCode(settings));

    GiNaC::exmap values;
    for (std::size_t i = 0; i < model.parameters.size(); ++i) {
        const auto it = experiment.fixedValues.find(model.parameters[i].name);
        values[model.parameterSymbols[i]] =
            GiNaC::numeric(it == experiment.fixedValues.end() ? model.parameters[i].value : it->second);
    }
    p.measuredColumnOfState.resize(model.states.size());
    for (std::size_t i = 0; i < model.states.size(); ++i) {
        for (std::size_t j : L.measuredOutputs)
            if ((model.outputs[j].expression - model.states[i].symbol).is_zero())
                p.measuredColumnOfState[i] = j;
        const GiNaC::ex x0 = model.states[i].initial.subs(values).evalf();
        p.startingState.push_back(GiNaC::is_a<GiNaC::numeric>(x0) && GiNaC::ex_to<GiNaC::numeric>(x0).is_real()
                                      ? GiNaC::ex_to<GiNaC::numeric>(x0).to_double()
                                      : 0.0);
    }
    return p;
}

// Seed 001 §3.4: positions from the measurements, velocities by central differences,
// parameters at their starting values, lambda = 0.
Eigen::MatrixXd initialNodes(const model::Model& model, const Prepared& p, const Experiment& e,
                             const std::optional<StartTrajectory>& start, const std::vector<double>& points)
{
    const AugmentedLayout& L = p.layout;
    const std::size_t N = L.stateNames.size();
    const double a = e.times.front(), b = e.times.back();
    const double delta = (b - a) / static_cast<double>(e.times.size() - 1);
    std::vector<std::optional<data::Signal>> measured(L.modelStateCount);
    for (std::size_t i = 0; i < L.modelStateCount; ++i)
        if (p.measuredColumnOfState[i]) {
            const auto column = e.measured.col(static_cast<Eigen::Index>(*p.measuredColumnOfState[i]));
            measured[i].emplace(e.times, std::vector<double>(column.data(), column.data() + column.size()));
        }
    std::vector<std::optional<std::size_t>> positionOfVelocity(L.modelStateCount);
    for (std::size_t c = 0; c < L.coordinateNames.size(); ++c)
        positionOfVelocity[L.coordinateVelocity[c]] = L.coordinatePosition[c];

    Eigen::MatrixXd nodes =
        Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(points.size()), static_cast<Eigen::Index>(2 * N));
    for (std::size_t k = 0; k < points.size(); ++k) {
        const double t = points[k];
        for (std::size_t i = 0; i < L.modelStateCount; ++i) {
            double v = p.startingState[i];
            if (measured[i])
                v = measured[i]->at(t);
            else if (positionOfVelocity[i] && measured[*positionOfVelocity[i]]) {
                const double lo = std::max(a, t - delta), hi = std::min(b, t + delta);
                const auto& s = *measured[*positionOfVelocity[i]];
                v = (s.at(hi) - s.at(lo)) / (hi - lo);
            }
            nodes(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(i)) = v;
        }
        for (std::size_t q = 0; q < L.estimatedParameters.size(); ++q)
            nodes(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(L.modelStateCount + q)) =
                model.parameters[L.estimatedParameters[q]].value;
    }
    if (start)
        applyStartTrajectory(*start, L, points, nodes);
    for (std::size_t i = 0; i < N; ++i)
        if (const auto it = p.guesses.find(L.stateNames[i]); it != p.guesses.end()) {
            const data::Signal guess(e.times, it->second);
            for (std::size_t k = 0; k < points.size(); ++k)
                nodes(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(i)) = guess.at(points[k]);
        }
    return nodes;
}

// Everything a run needs before Newton starts: the compiled Hamiltonian system with the
// measured signals, the boundary conditions, the schedule and the starting nodes.
struct Setup {
    Prepared prepared;
    std::unique_ptr<integrate::InputSignals> inputSignals;
    std::unique_ptr<eval::CompiledModel> hamiltonian;
    std::unique_ptr<integrate::ModelSystem> system;
    Eigen::VectorXd qa, Wa;
    shooting::BoundaryConditions bc;
    shooting::BvpSettings bvp;
    Eigen::MatrixXd nodes;
};

std::unique_ptr<Setup> setUp(const model::Model& model, const Experiment& experiment,
                             const OptimalEstimationSettings& settings)
{
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        throw OptimalEstimationError(e.what());
    }
    checkExperiment(model, experiment);
    auto setup = std::make_unique<Setup>();
    setup->prepared = prepare(model, experiment, settings);
    const AugmentedLayout& L = setup->prepared.layout;
    const std::size_t N = L.stateNames.size();
    {
        // Per shooting point: the 2N states and costates and a 2N x 2N block of the Jacobian,
        // with its place in the factorisation (about four copies).
        const double m = 2.0 * static_cast<double>(N);
        if (const std::string problem =
                core::memoryProblem(static_cast<double>(settings.shootingPoints) * (m * m + m) * 8.0 * 4.0,
                                    std::to_string(settings.shootingPoints) + " shooting points of " +
                                        std::to_string(2 * N) + " states and costates");
            !problem.empty())
            throw OptimalEstimationError("shooting points: " + problem + "; use fewer points");
    }

    std::vector<data::Signal> signals;
    for (std::size_t j : L.measuredOutputs) {
        const auto column = experiment.measured.col(static_cast<Eigen::Index>(j));
        signals.emplace_back(experiment.times, std::vector<double>(column.data(), column.data() + column.size()));
    }
    for (std::size_t r = 0; r < experiment.inputs.size(); ++r)
        signals.push_back(experiment.inputs.signal(r));
    setup->inputSignals = std::make_unique<integrate::InputSignals>(std::move(signals));
    setup->hamiltonian = std::make_unique<eval::CompiledModel>(setup->prepared.source);
    setup->system = std::make_unique<integrate::ModelSystem>(*setup->hamiltonian, setup->inputSignals.get());

    const auto n = static_cast<Eigen::Index>(N);
    Eigen::VectorXd qa = Eigen::VectorXd::Zero(n);
    Eigen::VectorXd Wa = Eigen::VectorXd::Zero(n);
    for (std::size_t i = 0; i < N; ++i)
        if (const auto it = settings.initialPrior.find(L.stateNames[i]); it != settings.initialPrior.end()) {
            qa(static_cast<Eigen::Index>(i)) = it->second.first;
            Wa(static_cast<Eigen::Index>(i)) = it->second.second;
        }
    setup->qa = qa;
    setup->Wa = Wa;
    shooting::BoundaryConditions& bc = setup->bc;
    bc.separated = true;
    bc.leftCount = N;
    // Seed 001 eq. (2.7f) and (2.7g): lambda(a) = W_a (X(a) - q_a), lambda(b) = 0.
    bc.left = [=](const Eigen::VectorXd& xa) -> Eigen::VectorXd {
        return xa.tail(n) - Wa.cwiseProduct(xa.head(n) - qa);
    };
    bc.leftJacobian = [=](const Eigen::VectorXd&) -> Eigen::MatrixXd {
        Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, 2 * n);
        J.leftCols(n) = -Wa.asDiagonal().toDenseMatrix();
        J.rightCols(n).setIdentity();
        return J;
    };
    bc.right = [=](const Eigen::VectorXd& xb) -> Eigen::VectorXd { return xb.tail(n); };
    bc.rightJacobian = [=](const Eigen::VectorXd&) -> Eigen::MatrixXd {
        Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, 2 * n);
        J.rightCols(n).setIdentity();
        return J;
    };

    setup->bvp = settings.bvp;
    shooting::BvpSettings& bvp = setup->bvp;
    if (bvp.shootingPoints.empty()) {
        bvp.shootingPoints =
            shooting::uniformShootingPoints(experiment.times.front(), experiment.times.back(), settings.shootingPoints);
    }
    if (bvp.stages.empty())
        bvp.stages = bvpStages(stagesToRun(settings.stages, settings.startFrom.has_value()));
    setup->nodes = initialNodes(model, setup->prepared, experiment, settings.startFrom, bvp.shootingPoints);
    return setup;
}

StiffnessDiagnostics stiffnessAtNodes(Setup& setup, const std::vector<double>& points, const Eigen::MatrixXd& nodes)
{
    return stiffnessAlong(*setup.system, points, nodes, setup.bvp.shootingPoints.size());
}

OptimalEstimationResult solveEstimate(const model::Model& model, const Experiment& experiment,
                                      const OptimalEstimationSettings& settings,
                                      const std::function<void(const shooting::BvpIteration&)>& progress,
                                      std::stop_token stop,
                                      const std::function<void(const StiffnessDiagnostics&)>& diagnosed)
{
    const std::unique_ptr<Setup> setup = setUp(model, experiment, settings);
    const AugmentedLayout& L = setup->prepared.layout;
    const std::size_t N = L.stateNames.size();
    const auto n = static_cast<Eigen::Index>(N);
    const shooting::BvpSettings& bvp = setup->bvp;
    integrate::ModelSystem& system = *setup->system;

    OptimalEstimationResult result;
    result.stiffnessAtGuess = stiffnessAtNodes(*setup, bvp.shootingPoints, setup->nodes);
    if (diagnosed)
        diagnosed(result.stiffnessAtGuess);
    const shooting::BvpResult solved =
        shooting::solveBoundaryValueProblem(system, setup->bc, setup->nodes, bvp, progress, stop);

    result.iterations = solved.totalIterations;
    result.residualNorm = solved.newton.residualNorm;
    result.termination = solved.newton.termination;
    if (!solved.message.empty())
        result.termination.message = solved.message;
    result.times = experiment.times;
    for (std::size_t i = 0; i < L.modelStateCount; ++i)
        result.stateNames.push_back(L.stateNames[i]);
    for (std::size_t q : L.estimatedParameters)
        result.parameterNames.push_back(model.parameters[q].name);
    result.inputNames = L.unknownInputNames;
    for (const auto& s : L.stateNames)
        result.residualNames.push_back("xi:" + s);
    for (const auto& r : L.residualNames)
        result.residualNames.push_back("eps:" + r);
    if (solved.nodes.rows() == static_cast<Eigen::Index>(solved.shootingPoints.size()) && solved.nodes.cols() == 2 * n)
        result.stiffnessAtSolution = stiffnessAtNodes(*setup, solved.shootingPoints, solved.nodes);

    Eigen::MatrixXd sampled;
    try {
        sampled = shooting::sampleSolution(system, solved, experiment.times, bvp.stages.back().integrator);
    } catch (const std::exception& e) {
        const std::string& before = result.termination.message;
        result.termination = core::Termination::failure(
            core::TerminationCriterion::EvaluationFailed,
            before + (before.empty() ? "" : "; ") + std::string("the solution could not be sampled: ") + e.what());
        return result;
    }
    const auto samples = static_cast<Eigen::Index>(experiment.times.size());
    const auto modelStates = static_cast<Eigen::Index>(L.modelStateCount);
    const auto np = static_cast<Eigen::Index>(L.unknownInputNames.size());
    const auto nr = static_cast<Eigen::Index>(L.residualNames.size());
    result.states = sampled.leftCols(modelStates);
    const Eigen::MatrixXd theta = sampled.block(0, modelStates, samples, n - modelStates);
    result.parameters = theta.row(0).transpose();
    result.parameterDrift = (theta.colwise().maxCoeff() - theta.colwise().minCoeff()).transpose();
    result.parameterTraces = theta;
    result.costates = sampled.rightCols(n);
    result.inputs.resize(samples, np);
    result.residuals.resize(samples, n + nr);
    eval::CompiledModel& hamiltonian = *setup->hamiltonian;
    const integrate::InputSignals& inputSignals = *setup->inputSignals;
    Eigen::VectorXd y(np + n + nr), x(2 * n), u(static_cast<Eigen::Index>(inputSignals.size()));
    std::vector<double> integrand(static_cast<std::size_t>(samples));
    const Eigen::Map<const Eigen::VectorXd> W(setup->prepared.weights.state.data(), n);
    const Eigen::Map<const Eigen::VectorXd> V(setup->prepared.weights.measurement.data(), nr);
    for (Eigen::Index k = 0; k < samples; ++k) {
        x = sampled.row(k).transpose();
        const double t = experiment.times[static_cast<std::size_t>(k)];
        inputSignals.values(t, u.data());
        hamiltonian.setPoint(t, x.data(), u.data());
        hamiltonian.outputs(y.data());
        if (np > 0)  // a samples x 0 matrix has no storage: its row k would offset a null pointer
            result.inputs.row(k) = y.head(np).transpose();
        result.residuals.row(k) = y.tail(n + nr).transpose();
        const Eigen::VectorXd xi = y.segment(np, n), eps = y.tail(nr);
        integrand[static_cast<std::size_t>(k)] = 0.5 * (xi.cwiseAbs2().dot(W) + eps.cwiseAbs2().dot(V));
    }
    double cost = 0.0;
    for (std::size_t k = 1; k < integrand.size(); ++k)
        cost += 0.5 * (integrand[k] + integrand[k - 1]) * (experiment.times[k] - experiment.times[k - 1]);
    const Eigen::VectorXd d = sampled.row(0).head(n).transpose() - setup->qa;
    result.cost = cost + 0.5 * d.cwiseAbs2().dot(setup->Wa);
    return result;
}

}  // namespace

StiffnessDiagnostics diagnoseOptimalEstimation(const model::Model& model, const Experiment& experiment,
                                               const OptimalEstimationSettings& settings)
{
    const std::unique_ptr<Setup> setup = setUp(model, experiment, settings);
    return stiffnessAtNodes(*setup, setup->bvp.shootingPoints, setup->nodes);
}

OptimalEstimationResult estimateOptimally(const model::Model& model, const Experiment& experiment,
                                          const OptimalEstimationSettings& settings,
                                          const std::function<void(const shooting::BvpIteration&)>& progress,
                                          std::stop_token stop,
                                          const std::function<void(const StiffnessDiagnostics&)>& diagnosed)
{
    const auto begin = std::chrono::steady_clock::now();
    core::RunStatistics statistics;
    OptimalEstimationResult result;
    {
        const core::StatisticsScope scope(&statistics);
        result = solveEstimate(model, experiment, settings, progress, stop, diagnosed);
    }
    result.statistics = statistics.snapshot();
    result.statistics.seconds.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return result;
}

}  // namespace sysid::estimate
