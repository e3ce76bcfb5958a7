#pragma once

#include "engine/core/SettingField.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/shooting/BoundaryValueProblem.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::estimate {

// One stage of the loose-to-tight schedule of optimal estimation (Rutten 1993, §5.4): Newton runs
// to `newtonTolerance` with this integrator, then the next stage starts from its solution.
struct OptimalEstimationStage {
    // A fixed-step method (euler, rk4, implicit-euler, crank-nicolson) takes stepsPerInterval steps
    // per shooting interval; an adaptive one (dopri5, rosenbrock4, sparse-implicit) its rtol and atol.
    integrate::IntegratorSettings integrator;
    std::size_t stepsPerInterval = 1;
    double newtonTolerance = 1e-8;  // max |F| of the shooting system at which the stage ends
    // An adaptive stage after an adaptive stage integrates its Jacobians with that earlier stage's
    // (looser) integrator: Newton then converges linearly at about the looser tolerance, for a
    // fraction of the cost (docs/DECISIONS.md, "Tolerance schedule").
    bool previousJacobians = true;
};

// Key, command-line name, label, help and rule of every stage setting: the project's
// "stages": [{...}], the command line's --stage K:NAME=VALUE and the schedule table of the GUI
// are all made from it. Keys: "integrator.method", "integrator.rtol", "integrator.atol",
// "steps_per_interval", "newton_tolerance", "previous_jacobians".
const core::FieldTable<OptimalEstimationStage>& optimalEstimationStageFields();

// The schedule sysid uses unless told otherwise: one explicit Euler step per interval (Newton to
// 1e-6; Rutten 1993, §5.4), dopri5 at rtol 1e-6 (Newton to 1e-4), dopri5 at rtol 1e-11 (Newton to
// 1e-8, Jacobians from the stage before).
std::vector<OptimalEstimationStage> defaultOptimalEstimationStages();

// Whether `method` can be the fixed-step first stage of the older "first_stage" setting.
bool isFirstStageMethod(integrate::IntegrationMethod method);

// Checks a schedule: at least one stage, and each stage's settings against their rules. Throws
// core::SettingError with key "stages.K.KEY" and label "stage K KEY-LABEL" (K counted from 1).
void validateStages(const std::vector<OptimalEstimationStage>& stages);

// The stages a run goes through: all of them from a guess, and from a previous solution those
// from the first adaptive stage on (the last stage at least). The loose fixed-step stages are
// there to bring a far guess near without overflow (Rutten 1993, §5.4); a solution of the tight
// problem is near already, and a fixed-step stage would first move it to its own cruder solution
// (the mass-spring-damper from its own result: 8 iterations with the Euler stage, 0 without).
std::vector<OptimalEstimationStage> stagesToRun(const std::vector<OptimalEstimationStage>& stages,
                                                bool fromPreviousSolution);

// The schedule as the boundary value solver takes it.
std::vector<shooting::BvpStage> bvpStages(const std::vector<OptimalEstimationStage>& stages);

// "euler 1 step per interval -> dopri5 rtol 1e-06 -> dopri5 rtol 1e-11", for logs.
std::string scheduleText(const std::vector<OptimalEstimationStage>& stages);

}  // namespace sysid::estimate
