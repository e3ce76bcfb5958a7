#pragma once

#include "engine/estimate/LeastSquaresProblem.h"
#include "engine/estimate/Minimiser.h"

#include <cstddef>
#include <stop_token>

namespace sysid::estimate {

// The damped Gauss-Newton method's stopping tolerances (the step and gradient tests also need
// the continuity gaps closed) and its shortest step.
struct GaussNewtonOptions : StoppingTolerances {
    double minStepLength = 1.0 / 4096;  // the line search gives up below this step length
};

// Damped Gauss-Newton (Bock 1983) for a problem whose steps also move hidden unknowns
// (multiple shooting's nodes, LeastSquaresProblem::setStepLength): minimises the merit
// data + rho * violation, the penalty rho raised whenever needed so that the Gauss-Newton
// direction descends (Nocedal & Wright, Numerical Optimization, 2nd ed., sec. 18.3), the step
// halved until the merit decreases by a fraction of that slope (Armijo). Throws
// std::runtime_error when the starting point cannot be evaluated.
MinimiserOutcome dampedGaussNewton(LeastSquaresProblem& problem, const GaussNewtonOptions& options,
                                   std::stop_token stop, const AcceptedStep& onAccepted);

}  // namespace sysid::estimate
