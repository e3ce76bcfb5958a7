#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/shooting/DampedNewton.h"
#include "engine/shooting/JacobianReuse.h"
#include "engine/shooting/PeriodicSolution.h"

#include <Eigen/Dense>

#include <cstddef>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::shooting {

// How the shooting Jacobian (and the monodromy matrix) is computed.
enum class ShootingJacobian {
    // Variational, unless the integrator steps across switches (SwitchHandling::StepAcross) of a
    // right-hand side that has them: then FiniteDifferences
    Automatic,
    Variational,  // the variational equations along the orbit (exact for continuous f)
    FiniteDifferences,  // central differences of the integrated flow
};

namespace detail {
class ShootingFactorisation;
}

// The factorised shooting Jacobian of the last solve, kept by a caller that solves a sequence of
// nearby orbits (a periodic-response fit solves the orbit again at every parameter update): the
// next solve starts with steps on it, and the re-use rule (NewtonSettings::reuseJacobian) decides
// when a new one is built. findPeriodicSolution and periodicParameterSensitivity leave their last
// factorisation here.
class ShootingJacobianStore {
public:
    ShootingJacobianStore();
    ~ShootingJacobianStore();
    ShootingJacobianStore(ShootingJacobianStore&&) noexcept;
    ShootingJacobianStore& operator=(ShootingJacobianStore&&) noexcept;
    detail::ShootingFactorisation& factorisation() { return *factorisation_; }

private:
    std::unique_ptr<detail::ShootingFactorisation> factorisation_;
};

struct PeriodicSettings {
    double period = 0.0;  // forcing period T (Forced) or first guess (Autonomous)
    std::size_t periods = 1;  // n for n·T-periodic (subharmonic) solutions
    std::size_t intervals = 1;  // shooting intervals: 1 = single shooting, N = multiple shooting
    std::size_t threads = 1;  // intervals integrated in parallel (0 = hardware concurrency); each extra
                              // thread compiles its own model copy once per solve
    PeriodKind kind = PeriodKind::Automatic;
    double startTime = 0.0;  // t0
    std::size_t samples = 200;  // orbit samples returned over one period
    integrate::IntegratorSettings integrator;  // default dopri5 1e-8/1e-10 is fine
    NewtonSettings newton;  // its reuseJacobian is set by jacobianReuse
    JacobianReuse jacobianReuse = JacobianReuse::Automatic;
    // A right-hand side that jumps across a switching surface (for example a damping
    // b*(1 + sign(abs(x) - 1))/2 that is switched on at a wall) makes the flow's true Jacobian
    // contain a saltation matrix at every crossing (Leine and Nijmeijer, "Dynamics and
    // Bifurcations of Non-Smooth Mechanical Systems", 2004, §3.4). The integrator locates the
    // crossings and applies it to the variational equations; stepped across (StepAcross), they
    // miss it and Newton stalls, so finite differences of the flow are used instead.
    ShootingJacobian jacobian = ShootingJacobian::Automatic;
    // Loose-to-tight tolerance schedule (RMUSN, seed 001 §5.4): Newton first converges to
    // max|F| <= looseTolerance with the integrator's relative tolerance raised to this value (the
    // absolute one in proportion), then goes on from there with the integrator's own tolerances
    // (usually two iterations). The early iterates are far from the orbit, so integrating them
    // tightly is wasted. 0 = off; used for adaptive methods only, and only when this is at least
    // 100 times the integrator's relative tolerance. When the loose stage fails, the solve starts
    // again from the guess with the integrator's own tolerances, exactly as without the schedule.
    // newton.maxIterations applies to each stage.
    double looseTolerance = 1e-4;
    // A model with measured inputs: its inputs over one forcing period, extended periodically
    // (InputSignals::periodic, whose period must be `period`). Not owned; null for a model without.
    const integrate::InputSignals* inputs = nullptr;
    // Where the solve finds an earlier factorised Jacobian and leaves its own (not owned; null: none kept).
    ShootingJacobianStore* jacobianStore = nullptr;
};

// Why the settings' inputs cannot drive this model's periodic solutions (empty: they can, or the
// model has no inputs): none given, one per model input missing, not periodic, or of another period.
std::string periodicInputProblem(const eval::CompiledModel& model, const integrate::InputSignals* inputs,
                                 double period);

// Whether the settings' Jacobian for this model is FiniteDifferences (resolves Automatic).
bool usesFiniteDifferenceJacobian(const eval::CompiledModel& model, ShootingJacobian jacobian,
                                  const integrate::IntegratorSettings& integrator);

// Whether the settings' shooting Newton re-uses its Jacobian for this model (resolves Automatic).
bool reusesJacobian(const eval::CompiledModel& model, const PeriodicSettings& settings);

// True when the model's right-hand side does not contain t (df/dt structurally zero) and the
// model has no inputs (a measured input is a function of t).
bool isAutonomous(const eval::CompiledModel& model);
// The kind a solve with these settings uses (Automatic resolved by isAutonomous).
PeriodKind resolvedKind(const eval::CompiledModel& model, PeriodKind kind);

// Periodic steady state of `model` (its current parameters) near `guess` (x(t0)).
//
// Unknowns: the states s_1..s_N at the N shooting points t_i = t0 + (i-1)·P/N (P = periods·T),
// plus P itself for an autonomous orbit. Residual: y_i(t_{i+1}; s_i) - s_{i+1} (i < N) and the
// periodicity condition y_N(t0 + P; s_N) - s_1. The Jacobian blocks dy_i/ds_i come from the
// variational equations (integrate::simulate with initialStateSensitivity), never from finite
// differences; the (block-cyclic, corner-coupled) matrix is factorised by Eigen::SparseLU for
// N > 1 and by dense LU for N = 1 (finite differences instead when f jumps, see ShootingJacobian). Autonomous orbits
// add the Poincaré phase condition f(x*)·(s_1 - x*) = 0 with x* the guess (Seydel, "Practical Bifurcation and Stability
// Analysis", 3rd ed., §7.3), and the column dF/dP = f(y_i(t_{i+1}))/N of each block row.
// Never throws for bad input or a failing integration: the result's newton.message says why.
PeriodicSolution findPeriodicSolution(eval::CompiledModel& model, const Eigen::VectorXd& guess,
                                      const PeriodicSettings& settings, const NewtonObserver& observer = {},
                                      std::stop_token stop = {});

// d x(t0)/d p of the periodic solution for the given model parameter indices, by the implicit
// function theorem on the shooting equations: dz/dp = -(dF/dz)^-1 dF/dp, with dF/dp from the
// parameter sensitivity equations. `period` holds dP/dp for an autonomous orbit (zeros for a
// forced one, whose period is given). Throws std::runtime_error when the solution did not
// converge or an integration fails.
struct PeriodicSensitivity {
    Eigen::MatrixXd initialState;  // states x parameters
    Eigen::RowVectorXd period;  // 1 x parameters
};
PeriodicSensitivity periodicParameterSensitivity(eval::CompiledModel& model, const PeriodicSolution& solution,
                                                 const std::vector<std::size_t>& parameters,
                                                 const PeriodicSettings& settings);

}  // namespace sysid::shooting
