#pragma once

#include "engine/estimate/LeastSquaresProblem.h"
#include "engine/estimate/Minimiser.h"

#include <cstddef>
#include <stop_token>

namespace sysid::estimate {

// Levenberg-Marquardt's stopping tolerances and damping.
struct LevenbergMarquardtOptions : StoppingTolerances {
    double initialDamping = 1e-3;  // lambda of the first trial, times Marquardt's diagonal
    double maxDamping = 1e20;  // give up when no step reduces the cost below this lambda
};

// Minimises a LeastSquaresProblem from its current point. Throws std::runtime_error when the
// starting point cannot be evaluated. `onAccepted` is called after every accepted step.
MinimiserOutcome levenbergMarquardt(LeastSquaresProblem& problem, const LevenbergMarquardtOptions& options,
                                    std::stop_token stop, const AcceptedStep& onAccepted);

}  // namespace sysid::estimate
