#pragma once

#include "engine/estimate/FitObserver.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/LeastSquaresProblem.h"

#include <functional>
#include <stop_token>
#include <vector>

namespace sysid::estimate {

struct LevenbergMarquardtOutcome {
    Linearization final;  // at the returned point
    std::size_t iterations = 0;
    bool converged = false;
    bool cancelled = false;
    std::string stopReason;
    std::vector<IterationRecord> history;
};

// Minimises a LeastSquaresProblem from its current point. Throws std::runtime_error when the
// starting point cannot be evaluated. `onAccepted` is called after every accepted step.
LevenbergMarquardtOutcome levenbergMarquardt(LeastSquaresProblem& problem, const FitSettings& settings,
                                             std::stop_token stop,
                                             const std::function<void(const IterationRecord&)>& onAccepted);

}  // namespace sysid::estimate
