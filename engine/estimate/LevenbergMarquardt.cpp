#include "engine/estimate/LevenbergMarquardt.h"

#include "engine/core/SolverStatistics.h"
#include "engine/data/Text.h"

#include <cmath>

namespace sysid::estimate {

using core::Termination;
using core::TerminationCriterion;

// Levenberg-Marquardt with Marquardt's diagonal scaling (Moré, "The Levenberg-Marquardt
// algorithm: implementation and theory", LNM 630, 1978) and the gain-ratio damping update of
// Madsen, Nielsen & Tingleff, "Methods for non-linear least squares problems", 2004, sec. 3.2.
// Bounds are kept by projecting each trial point onto the box.
MinimiserOutcome levenbergMarquardt(LeastSquaresProblem& problem, const LevenbergMarquardtOptions& options,
                                    std::stop_token stop, const AcceptedStep& onAccepted)
{
    MinimiserRun run(problem, stop, onAccepted);
    Linearization& current = run.current;
    std::string failure;
    run.record(0, current.merit, 0.0, 0.0);

    Eigen::VectorXd scale = current.columnSquares();
    double lambda = options.initialDamping;
    double nu = 2.0;
    if (run.nothingToEstimate())
        return run.finish(Termination::convergence(TerminationCriterion::NothingToEstimate, "nothing to estimate"));
    // Trial linearizations are swapped with the current one, never freed: a large Jacobian
    // (200 000 x 200, 320 MB) is then filled in place instead of being page-faulted afresh.
    Linearization trial;

    for (std::size_t iteration = 1; iteration <= options.maxIterations; ++iteration) {
        const Eigen::VectorXd theta = problem.parameters();
        const NormalEquations normal = normalEquations(current, scale);
        const double reference = current.scale();
        const bool gapClosed = current.gap <= options.costTolerance * reference;
        if (reference == 0.0)
            return run.finish(Termination::convergence(TerminationCriterion::ExactFit, "exact fit (cost 0)"));
        if (normal.scaledGradient <= options.gradientTolerance && gapClosed)
            return run.finish(
                Termination::convergence(TerminationCriterion::GradientTolerance, "gradient below tolerance"));
        while (true) {
            if (stop.stop_requested())
                return run.finish(Termination::cancel());
            Eigen::VectorXd step;
            {
                const core::PhaseTimer timer(core::Phase::LinearAlgebra);
                Eigen::MatrixXd damped = normal.matrix;
                damped.diagonal() += lambda * scale;
                step = damped.ldlt().solve(-normal.gradient);
            }
            const Eigen::VectorXd trialPoint = (theta + step).cwiseMax(run.lower).cwiseMin(run.upper);
            step = trialPoint - theta;
            const double relativeStep = step.norm() / (theta.norm() + options.stepTolerance);
            if (!step.allFinite())
                return run.finish(
                    Termination::failure(TerminationCriterion::SingularJacobian,
                                         "the normal equations are singular: some parameters cannot be identified"));
            const double predicted = normal.predictedDecrease(current, step);
            if (relativeStep <= options.stepTolerance && predicted <= options.costTolerance * reference)
                return run.finish(
                    Termination::convergence(TerminationCriterion::StepTolerance, "relative step below tolerance"));
            ++run.outcome.evaluations;
            const bool ok = problem.evaluate(step, trial, failure, stop);
            if (stop.stop_requested())
                return run.finish(Termination::cancel());
            const double actual = ok ? current.merit - trial.merit : -1.0;
            // At the optimum the predicted decrease is rounding (s'J'r and s'J'J s cancel) and may come
            // out zero or negative; a step that lowers the cost by less than the tolerance is then
            // taken all the same, and ends the run. Refusing it raised the damping and integrated
            // again: 3 of the 24 integrations of a 65 000-sample fit (docs/DECISIONS.md).
            const bool last = actual <= options.costTolerance * reference;
            if (ok && actual > 0 && (predicted > 0 || last)) {
                if (predicted > 0) {
                    const double rho = actual / predicted;
                    lambda *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
                    nu = 2.0;
                }
                problem.accept();
                std::swap(current, trial);
                run.record(iteration, current.merit, relativeStep, lambda);
                if (last)
                    return run.finish(Termination::convergence(TerminationCriterion::CostTolerance,
                                                               "relative cost change below tolerance"));
                break;
            }
            lambda *= nu;
            nu *= 2.0;
            if (lambda > options.maxDamping)
                return run.finish(
                    ok ? Termination::failure(TerminationCriterion::LineSearch,
                                              "no step reduces the cost further (damping limit " +
                                                  data::formatNumber(lambda, 3) + ")")
                       : Termination::failure(TerminationCriterion::EvaluationFailed,
                                              "the model cannot be evaluated near the current estimate: " + failure));
        }
    }
    return run.finishAtIterationLimit(options.maxIterations);
}

}  // namespace sysid::estimate
