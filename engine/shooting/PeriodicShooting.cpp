#include "engine/shooting/PeriodicShooting.h"

#include "engine/core/MemoryBudget.h"

#include "engine/shooting/ConstrainedMonodromy.h"

#include "engine/data/Text.h"
#include "engine/integrate/Simulator.h"
#include "engine/shooting/ShootingEquations.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>

namespace sysid::shooting {

ShootingJacobianStore::ShootingJacobianStore() : factorisation_(std::make_unique<detail::ShootingFactorisation>()) {}
ShootingJacobianStore::~ShootingJacobianStore() = default;
ShootingJacobianStore::ShootingJacobianStore(ShootingJacobianStore&&) noexcept = default;
ShootingJacobianStore& ShootingJacobianStore::operator=(ShootingJacobianStore&&) noexcept = default;

bool isAutonomous(const eval::CompiledModel& model)
{
    if (model.inputCount() > 0)
        return false;
    for (const auto& entry : model.source().rhsTimeInputJacobian.entries)
        if (entry.column == 0)
            return false;
    return true;
}

PeriodKind resolvedKind(const eval::CompiledModel& model, PeriodKind kind)
{
    if (kind != PeriodKind::Automatic)
        return kind;
    return isAutonomous(model) ? PeriodKind::Autonomous : PeriodKind::Forced;
}

std::string periodicInputProblem(const eval::CompiledModel& model, const integrate::InputSignals* inputs, double period)
{
    if (model.inputCount() == 0)
        return {};
    const auto& names = model.source().inputNames;
    if (!inputs)
        return "the model has measured inputs (" + names.front() + (names.size() > 1 ? ", ..." : "") +
            "): give their record over one forcing period (or write the forcing as a function of t)";
    if (inputs->size() != model.inputCount())
        return "the model has " + std::to_string(model.inputCount()) + " inputs; " + std::to_string(inputs->size()) +
            " periodic input signals are given";
    if (!(inputs->period() > 0))
        return "the inputs of a periodic solution must be extended periodically";
    if (std::abs(inputs->period() - period) > 1e-9 * period)
        return "the input record's period (" + data::formatNumber(inputs->period(), 9) +
            ") differs from the forcing period (" + data::formatNumber(period, 9) + ")";
    return {};
}

bool usesFiniteDifferenceJacobian(const eval::CompiledModel& model, ShootingJacobian jacobian,
                                  const integrate::IntegratorSettings& integrator)
{
    if (jacobian != ShootingJacobian::Automatic)
        return jacobian == ShootingJacobian::FiniteDifferences;
    return model.switchCount() > 0 && integrator.switches == integrate::SwitchHandling::StepAcross;
}

bool reusesJacobian(const eval::CompiledModel& model, const PeriodicSettings& settings)
{
    switch (settings.jacobianReuse) {
    case JacobianReuse::Always: return true;
    case JacobianReuse::Never: return false;
    case JacobianReuse::Automatic: break;
    }
    return usesFiniteDifferenceJacobian(model, settings.jacobian, settings.integrator);
}

namespace {

// The Newton view of the shooting equations; linearise() reuses the trajectory integrated
// by the residual() call at the same point, and trial points are integrated without the
// variational equations.
class ShootingNewtonSystem : public detail::ShootingNewtonBase {
public:
    ShootingNewtonSystem(detail::ShootingEquations& equations, detail::ShootingFactorisation& factorisation) :
        ShootingNewtonBase(factorisation), equations_(equations)
    {
    }
    Eigen::VectorXd residual(const Eigen::VectorXd& z) override { return equations_.residual(z); }
    Eigen::VectorXd trialResidual(const Eigen::VectorXd& z) override { return equations_.flowResidual(z); }
    void linearise(const Eigen::VectorXd& z) override
    {
        factorisation_.clear();  // J is formed anew below (or not at all, when that fails)
        if (equations_.cachedPoint().size() != z.size() || equations_.cachedPoint() != z)
            equations_.residual(z);
        std::vector<Eigen::Triplet<double>> triplets;
        equations_.jacobian(triplets);
        factorisation_.factorise(z.size(), triplets);
    }

private:
    detail::ShootingEquations& equations_;
};

bool usesToleranceSchedule(const PeriodicSettings& s)
{
    return s.looseTolerance > 0 && integrate::isAdaptive(s.integrator.method) &&
        s.looseTolerance >= 100 * s.integrator.relativeTolerance;
}

integrate::IntegratorSettings looseIntegrator(const PeriodicSettings& s)
{
    integrate::IntegratorSettings loose = s.integrator;
    loose.relativeTolerance = s.looseTolerance;
    loose.absoluteTolerance = s.integrator.absoluteTolerance * (s.looseTolerance / s.integrator.relativeTolerance);
    return loose;
}

// A later stage's iterations numbered on from the earlier stage's.
NewtonObserver shiftedObserver(const NewtonObserver& observer, std::size_t offset)
{
    if (!observer)
        return {};
    return [&observer, offset](const NewtonIteration& step) {
        NewtonIteration shifted = step;
        shifted.iteration += offset;
        observer(shifted);
    };
}

void addWork(NewtonResult& total, const NewtonResult& stage)
{
    total.iterations += stage.iterations;
    total.jacobianEvaluations += stage.jacobianEvaluations;
    total.jacobianReuses += stage.jacobianReuses;
    total.modifiedSteps += stage.modifiedSteps;
    total.residualEvaluations += stage.residualEvaluations;
}

std::string checkInput(const eval::CompiledModel& model, const Eigen::VectorXd& guess, const PeriodicSettings& s)
{
    if (auto problem = periodicInputProblem(model, s.inputs, s.period); !problem.empty())
        return problem;
    if (static_cast<std::size_t>(guess.size()) != model.stateCount())
        return "the start guess has " + std::to_string(guess.size()) + " values; the model has " +
            std::to_string(model.stateCount()) + " states";
    if (!guess.allFinite())
        return "the start guess is not finite";
    if (!(s.period > 0) || !std::isfinite(s.period))
        return "the period must be positive and finite (got " + data::formatNumber(s.period, 6) + ")";
    if (s.periods == 0)
        return "the number of periods must be at least 1";
    if (s.intervals == 0)
        return "the number of shooting intervals must be at least 1";
    if (s.samples < 2)
        return "at least 2 orbit samples are needed";
    // Per interval: its end state, its n x n block of the Jacobian and their place in the sparse
    // factorisation (about four copies); per orbit sample: the states and the outputs.
    const double n = static_cast<double>(model.stateCount());
    const double perInterval = (n * n + 2 * n + 2) * 8.0 * 4.0;
    if (auto problem = core::memoryProblem(static_cast<double>(s.intervals) * perInterval,
                                           std::to_string(s.intervals) + " shooting intervals of " +
                                               std::to_string(model.stateCount()) + " states");
        !problem.empty())
        return problem + "; use fewer intervals";
    if (auto problem = core::memoryProblem(static_cast<double>(s.samples) *
                                               (n + static_cast<double>(model.outputCount()) + 1) * 8.0,
                                           std::to_string(s.samples) + " orbit samples");
        !problem.empty())
        return problem + "; use fewer samples";
    return {};
}

PeriodicSolution failed(PeriodicSolution solution, core::Termination termination)
{
    solution.newton.termination = std::move(termination);
    solution.floquet.verdict = "unknown (no periodic solution)";
    return solution;
}

}  // namespace

namespace {

PeriodicSolution solvePeriodic(eval::CompiledModel& model, const Eigen::VectorXd& guess,
                               const PeriodicSettings& settings, const NewtonObserver& observer, std::stop_token stop)
{
    PeriodicSolution solution;
    if (const auto problem = checkInput(model, guess, settings); !problem.empty())
        return failed(std::move(solution),
                      core::Termination::failure(core::TerminationCriterion::InvalidSetting, problem));
    const bool autonomous = resolvedKind(model, settings.kind) == PeriodKind::Autonomous;
    const double P0 = settings.period * static_cast<double>(settings.periods);
    const auto n = static_cast<Eigen::Index>(model.stateCount());

    detail::ShootingEquations equations(model, settings.intervals, autonomous, settings.startTime, settings.integrator,
                                        usesFiniteDifferenceJacobian(model, settings.jacobian, settings.integrator));
    equations.setThreads(settings.threads);
    equations.setStop(stop);
    equations.setPeriod(P0);
    equations.setInputs(settings.inputs);
    // A solve takes several variational integrations and keeps only the last one's samples: they are
    // recorded where that costs less than integrating once more at the end (continuation, one
    // evaluation per point, always records them).
    equations.recordSamplesWhenCheaper(settings.samples);
    detail::ShootingFactorisation ownFactorisation;
    detail::ShootingFactorisation& factorisation =
        settings.jacobianStore ? settings.jacobianStore->factorisation() : ownFactorisation;
    ShootingNewtonSystem system(equations, factorisation);
    const auto unknowns = static_cast<Eigen::Index>(equations.unknowns());
    // A factorisation of an earlier solve is at hand: the re-use rule may start with it. (The loose
    // stage's is not handed to the tight one: chord steps on it converge linearly and end just under
    // the tolerance, where a full Newton step lands far below it; measured in docs/DECISIONS.md.)
    auto handIn = [&](NewtonSettings newton) {
        newton.reuseJacobian = reusesJacobian(model, settings);
        newton.reuseFactorisation =
            newton.reuseJacobian && settings.jacobianStore != nullptr && factorisation.holds(unknowns);
        return newton;
    };

    // Loose stage of the tolerance schedule (RMUSN, seed 001 §5.4); nothing of it is kept when it fails.
    NewtonResult loose;
    bool looseConverged = false;
    if (usesToleranceSchedule(settings)) {
        equations.setIntegrator(looseIntegrator(settings));
        equations.useStepHints(true);
        try {
            if (autonomous)
                equations.setPhaseReference(guess);
            NewtonSettings looseNewton = handIn(settings.newton);
            looseNewton.residualTolerance = std::max(settings.newton.residualTolerance, settings.looseTolerance);
            loose = solveDampedNewton(system, equations.initialUnknowns(guess, P0), looseNewton, observer, stop);
            looseConverged = loose.converged();
        } catch (const std::exception& e) {
            // The guess cannot be integrated loosely: the tight stage alone says what is wrong with it.
            loose.termination = core::Termination::failure(core::TerminationCriterion::EvaluationFailed, e.what());
        }
        if (stop.stop_requested())
            return failed(std::move(solution), core::Termination::cancel());
        equations.setIntegrator(settings.integrator);
        equations.useStepHints(false);
    }

    Eigen::VectorXd z0;
    if (looseConverged) {
        z0 = loose.x;
    } else {
        try {
            if (autonomous)
                equations.setPhaseReference(guess);
            z0 = equations.initialUnknowns(guess, P0);
        } catch (const std::exception& e) {
            if (stop.stop_requested())
                return failed(std::move(solution), core::Termination::cancel());
            return failed(std::move(solution),
                          core::Termination::failure(
                              core::TerminationCriterion::EvaluationFailed,
                              std::string("the start guess cannot be integrated over one period: ") + e.what()));
        }
    }

    if (usesToleranceSchedule(settings) && !looseConverged)
        factorisation.clear();  // a failed loose stage hands nothing on: the solve starts again as without it
    solution.newton =
        solveDampedNewton(system, z0, handIn(settings.newton), shiftedObserver(observer, loose.iterations), stop);
    if (looseConverged && solution.newton.converged() && solution.newton.iterations == 0)
        solution.newton.termination.message = "residual below tolerance";
    addWork(solution.newton, loose);
    solution.looseStage = std::move(loose);
    const Eigen::VectorXd& z = solution.newton.x;
    solution.period = equations.period(z);
    solution.initialState = z.head(n);
    if (!solution.converged()) {
        solution.floquet.verdict = "unknown (no periodic solution)";
        return solution;
    }
    try {
        if (equations.cachedPoint().size() != z.size() || equations.cachedPoint() != z)
            equations.residual(z);
        solution.monodromy = equations.monodromy();
        solution.floquet = analyseFloquet(
            onConstraints(model, settings.startTime, solution.initialState, solution.monodromy), autonomous);
        equations.sample(z, settings.samples, solution.times, solution.states, solution.outputs);
    } catch (const std::exception& e) {
        solution.newton.termination =
            core::Termination::failure(core::TerminationCriterion::EvaluationFailed,
                                       std::string("the converged orbit could not be re-integrated: ") + e.what());
    }
    return solution;
}

}  // namespace

PeriodicSolution findPeriodicSolution(eval::CompiledModel& model, const Eigen::VectorXd& guess,
                                      const PeriodicSettings& settings, const NewtonObserver& observer,
                                      std::stop_token stop)
{
    auto solution = solvePeriodic(model, guess, settings, observer, stop);
    // An orbit that grazes a switching surface (touches it at zero speed, as the impacting cart's
    // x = -sin t at kc = 1) has a singular variational Jacobian, while differences of the flow,
    // which see the nearby crossings, still give Newton a usable one.
    if (!solution.converged() && settings.jacobian == ShootingJacobian::Automatic && model.switchCount() > 0 &&
        !stop.stop_requested()) {
        PeriodicSettings differenced = settings;
        differenced.jacobian = ShootingJacobian::FiniteDifferences;
        auto retry = solvePeriodic(model, guess, differenced, observer, stop);
        if (retry.converged())
            return retry;
    }
    return solution;
}

PeriodicSensitivity periodicParameterSensitivity(eval::CompiledModel& model, const PeriodicSolution& solution,
                                                 const std::vector<std::size_t>& parameters,
                                                 const PeriodicSettings& settings)
{
    if (!solution.converged())
        throw std::runtime_error("parameter sensitivities need a converged periodic solution");
    for (std::size_t p : parameters)
        if (p >= model.parameterCount())
            throw std::invalid_argument("sensitivity requested for a parameter that does not exist");
    const bool autonomous = resolvedKind(model, settings.kind) == PeriodKind::Autonomous;
    const auto n = static_cast<Eigen::Index>(model.stateCount());
    detail::ShootingEquations equations(model, settings.intervals, autonomous, settings.startTime, settings.integrator,
                                        usesFiniteDifferenceJacobian(model, settings.jacobian, settings.integrator));
    equations.setThreads(settings.threads);
    equations.setPeriod(solution.period);
    equations.setInputs(settings.inputs);
    if (autonomous)
        equations.setPhaseReference(solution.initialState);
    const Eigen::VectorXd z = equations.initialUnknowns(solution.initialState, solution.period);
    equations.residual(z);
    std::vector<Eigen::Triplet<double>> triplets;
    equations.jacobian(triplets);
    detail::ShootingFactorisation ownFactorisation;
    detail::ShootingFactorisation& factorisation =
        settings.jacobianStore ? settings.jacobianStore->factorisation() : ownFactorisation;
    factorisation.factorise(z.size(), triplets);
    const Eigen::MatrixXd D = equations.parameterDerivative(z, parameters, {});
    const Eigen::MatrixXd S = -factorisation.solve(D);
    PeriodicSensitivity result;
    result.initialState = S.topRows(n);
    result.period = autonomous ? Eigen::RowVectorXd(S.row(S.rows() - 1))
                               : Eigen::RowVectorXd::Zero(static_cast<Eigen::Index>(parameters.size()));
    return result;
}

}  // namespace sysid::shooting
