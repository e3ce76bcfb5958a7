#pragma once

#include "engine/core/SolverStatistics.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/Stepper.h"
#include "engine/integrate/ThetaStepper.h"

#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::integrate {

// What one integration samples and how it runs; simulate() and the shooting intervals fill it.
struct IntegrationTask {
    // Sample times, strictly increasing; the integration starts at times.front() from the z given.
    std::vector<double> times;
    // Adaptive methods: never step past an input breakpoint or the end (CVODES' tstop): shooting
    // intervals must end exactly on their end. Otherwise a step may pass them and the sample there
    // comes from the dense output.
    bool stopAtBreakpoints = false;
    // Fixed-step methods: equal steps per sample interval; 0 = from IntegratorSettings::maxStep.
    std::size_t stepsPerInterval = 0;
    // Adaptive methods: the first step; 0 = a small default the controller grows from.
    double initialStep = 0.0;
    ImplicitSolveOptions implicit;
    std::stop_token stop;
    // A DAE (OdeSystem::constraints()): z's state holds the model's own initial values, whose held
    // components (Constraints::heldInitialState) the consistent initial values keep. False: a state
    // from elsewhere (a shooting node), moved to the nearest consistent one.
    bool modelInitialState = false;
};

struct IntegrationOutcome {
    core::IntegrationStatistics statistics;
    double lastStep = 0.0;  // adaptive methods: the step the controller would take next (a hint for the next run)
};

using SampleRecorder = std::function<void(std::size_t sample, const double* z)>;

// The one place that maps an integrator to its stepper.
std::unique_ptr<Stepper> makeStepper(IntegrationMethod method, SensitivitySystem& system,
                                     const IntegratorSettings& settings, const ImplicitSolveOptions& implicit);

// The integration core: steps `system` from z at task.times.front() to task.times.back() with the
// method of `settings`, calling record(k, z) at every sample time. A DAE's z is made consistent first
// and kept so (ConsistentState: every step and sample). Adaptive methods restart at the
// system's breakpoints (input samples), holding the inputs to their pieces in between (Hairer,
// Norsett & Wanner, Solving ODEs I, sec. II.6); fixed-step ones divide each sample interval into
// equal steps. Every step is checked (cancellation, non-finite state: an adaptive step is retried
// shorter first, step limit, step size underflow). z holds the final state on return. The cost is
// returned and added to core::currentStatistics(). Throws IntegrationError naming the time reached.
IntegrationOutcome runIntegration(SensitivitySystem& system, std::vector<double>& z, const IntegrationTask& task,
                                  const IntegratorSettings& settings, const SampleRecorder& record);

// The steps of each output interval for a fixed-step method: their count and size.
struct FixedSteps {
    std::size_t count;
    double size;
};
FixedSteps fixedSteps(double interval, double maxStep);

}  // namespace sysid::integrate
