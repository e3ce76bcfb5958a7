#pragma once

#include "engine/core/Termination.h"
#include "engine/estimate/LeastSquaresProblem.h"
#include "engine/estimate/ProgressSink.h"

#include <Eigen/Dense>

#include <cstddef>
#include <functional>
#include <stop_token>
#include <vector>

namespace sysid::estimate {

// When a least-squares minimiser (Levenberg-Marquardt, damped Gauss-Newton, steepest descent)
// stops. estimate::fit builds these from FitSettings (stoppingTolerances in Fit.h); the defaults
// here are FitSettings' (test_estimate keeps them equal) and serve direct callers.
struct StoppingTolerances {
    std::size_t maxIterations = 100;
    double costTolerance = 1e-12;  // converged when an accepted step lowers the cost by less than this, relatively
    double stepTolerance = 1e-10;  // converged when the relative step is below this
    double gradientTolerance = 1e-10;  // converged when the scaled gradient is below this
};

// What a least-squares minimiser (Levenberg-Marquardt, damped Gauss-Newton, steepest descent)
// returns: the problem itself holds the final point.
struct MinimiserOutcome {
    Linearization final;  // at the returned point
    std::size_t iterations = 0;
    std::size_t evaluations = 0;  // calls of LeastSquaresProblem::evaluate (residuals with their Jacobian)
    core::Termination termination;
    std::vector<IterationRecord> history;  // iteration 0 is the starting point
};

// Called after every accepted step (and once for the starting point).
using AcceptedStep = std::function<void(const IterationRecord&)>;

// What a least-squares minimiser keeps while it runs: the outcome it fills, the current
// linearization and the bounds. It records accepted points and ends with a termination.
class MinimiserRun {
public:
    // Evaluates and accepts the starting point, counting the evaluation in the outcome. Throws
    // std::runtime_error when the model cannot be evaluated there.
    MinimiserRun(LeastSquaresProblem& problem, std::stop_token stop, AcceptedStep onAccepted);

    bool nothingToEstimate() const { return problem_.parameters().size() == 0; }
    // Appends the problem's current point to the history as `iteration` (0: the start) and
    // tells the observer.
    void record(std::size_t iteration, double cost, double step, double lambda);
    // The outcome at the current linearization, stopped for `termination`; ends the run.
    MinimiserOutcome finish(core::Termination termination);
    MinimiserOutcome finishAtIterationLimit(std::size_t maxIterations);

    MinimiserOutcome outcome;
    Linearization current;
    const Eigen::VectorXd lower;
    const Eigen::VectorXd upper;

private:
    LeastSquaresProblem& problem_;
    AcceptedStep onAccepted_;
};

// The Gauss-Newton model at the current point: A = J'J, g = J'r, and the gradient scaled by
// Marquardt's diagonal (`scale`, raised here to A's diagonal where that is larger) relative to
// sqrt(2 scale()): the gradient as seen in parameters measured in units of their sensitivity.
struct NormalEquations {
    Eigen::MatrixXd matrix;  // J'J, less the linearization's curvature where that leaves it positive definite
    Eigen::VectorXd gradient;
    double scaledGradient = 0.0;
    bool curved = false;  // the curvature was subtracted: the model's decrease has its term
    // The decrease the local model predicts for `step` (the gap, then the residuals' and the curvature's parts).
    double predictedDecrease(const Linearization& at, const Eigen::VectorXd& step) const;
};
NormalEquations normalEquations(const Linearization& at, Eigen::VectorXd& scale);

}  // namespace sysid::estimate
