#include "engine/estimate/DampedGaussNewton.h"

#include "engine/core/SolverStatistics.h"

#include <algorithm>
#include <cmath>

namespace sysid::estimate {

using core::Termination;
using core::TerminationCriterion;

MinimiserOutcome dampedGaussNewton(LeastSquaresProblem& problem, const GaussNewtonOptions& options,
                                   std::stop_token stop, const AcceptedStep& onAccepted)
{
    MinimiserRun run(problem, stop, onAccepted);
    Linearization& current = run.current;
    std::string failure;
    run.record(0, current.merit, 0.0, 0.0);

    Eigen::VectorXd scale = current.columnSquares();
    double penalty = 1.0;  // weight of the continuity violation in the merit
    if (run.nothingToEstimate())
        return run.finish(Termination::convergence(TerminationCriterion::NothingToEstimate, "nothing to estimate"));
    Linearization trial;
    // Defects below ~1e-12 are rounding, whatever the cost.
    auto gapsClosedAt = [&](const Linearization& l) {
        return l.violation <= options.costTolerance * l.merit || l.violation <= 1e-24;
    };

    for (std::size_t iteration = 1; iteration <= options.maxIterations; ++iteration) {
        const Eigen::VectorXd theta = problem.parameters();
        const NormalEquations normal = normalEquations(current, scale);
        // While the gap (closing continuity gaps) is large the point is not stationary, however small the gradient.
        if (current.merit == 0.0)
            return run.finish(Termination::convergence(TerminationCriterion::ExactFit, "exact fit (cost 0)"));
        if (normal.scaledGradient <= options.gradientTolerance && current.gap <= options.costTolerance * current.merit)
            return run.finish(
                Termination::convergence(TerminationCriterion::GradientTolerance, "gradient below tolerance"));
        Eigen::VectorXd full;
        {
            const core::PhaseTimer timer(core::Phase::LinearAlgebra);
            Eigen::MatrixXd regularized = normal.matrix;
            regularized.diagonal() += 1e-12 * scale;
            full = regularized.ldlt().solve(-normal.gradient);
        }
        if (!full.allFinite())
            return run.finish(
                Termination::failure(TerminationCriterion::SingularJacobian,
                                     "the normal equations are singular: some parameters cannot be identified"));
        const double predictedData = current.modelHalfSquares(full);
        const double relativeFull = full.norm() / (theta.norm() + options.stepTolerance);
        const bool gapsClosed = gapsClosedAt(current);
        if (relativeFull <= options.stepTolerance && gapsClosed &&
            current.merit - predictedData <= options.costTolerance * current.merit)
            return run.finish(
                Termination::convergence(TerminationCriterion::StepTolerance, "relative step below tolerance"));
        // Slope of the data merit along the step is at most predictedData - merit; of the
        // penalty, -2 rho violation. Twice the least rho that makes the slope negative
        // leaves the full step a clear decrease.
        if (current.violation > 0)
            penalty = std::max(penalty, 2.0 * (predictedData - current.merit) / current.violation);
        const double slope = (predictedData - current.merit) - 2.0 * penalty * current.violation;
        const double merit0 = current.merit + penalty * current.violation;
        bool accepted = false;
        for (double alpha = 1.0; alpha >= options.minStepLength; alpha /= 2) {
            if (stop.stop_requested())
                return run.finish(Termination::cancel());
            const Eigen::VectorXd step = ((theta + alpha * full).cwiseMax(run.lower).cwiseMin(run.upper)) - theta;
            problem.setStepLength(alpha);
            ++run.outcome.evaluations;
            if (problem.evaluate(step, trial, failure, stop) &&
                trial.merit + penalty * trial.violation <= merit0 + 1e-4 * alpha * std::min(slope, 0.0) &&
                trial.merit + penalty * trial.violation < merit0) {
                problem.accept();
                const double previous = merit0;
                std::swap(current, trial);
                const double now = current.merit + penalty * current.violation;
                run.record(iteration, current.merit, step.norm() / (theta.norm() + options.stepTolerance), alpha);
                accepted = true;
                if (previous - now <= options.costTolerance * previous && gapsClosedAt(current))
                    return run.finish(Termination::convergence(TerminationCriterion::CostTolerance,
                                                               "relative cost change below tolerance"));
                break;
            }
        }
        problem.setStepLength(1.0);
        if (!accepted && relativeFull <= 1e-8 && gapsClosed)
            return run.finish(Termination::convergence(TerminationCriterion::RoundingLevel,
                                                       "no further decrease: the step is at rounding level"));
        if (!accepted)
            return run.finish(Termination::failure(TerminationCriterion::LineSearch,
                                                   "the line search found no step that reduces the cost" +
                                                       (failure.empty() ? std::string() : " (" + failure + ")")));
    }
    return run.finishAtIterationLimit(options.maxIterations);
}

}  // namespace sysid::estimate
