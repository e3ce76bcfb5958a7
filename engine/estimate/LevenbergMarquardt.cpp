#include "engine/data/Text.h"
#include "engine/estimate/LevenbergMarquardt.h"
#include "engine/estimate/NormalMatrix.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sysid::estimate {

namespace {

IterationRecord record(std::size_t iteration, const Eigen::VectorXd& theta, double cost, double step, double lambda)
{
    return {iteration, std::vector<double>(theta.data(), theta.data() + theta.size()), cost, step, lambda};
}

}  // namespace

// Levenberg-Marquardt with Marquardt's diagonal scaling (Moré, "The Levenberg-Marquardt
// algorithm: implementation and theory", LNM 630, 1978) and the gain-ratio damping update of
// Madsen, Nielsen & Tingleff, "Methods for non-linear least squares problems", 2004, sec. 3.2.
// Bounds are kept by projecting each trial point onto the box.
LevenbergMarquardtOutcome levenbergMarquardt(LeastSquaresProblem& problem, const FitSettings& settings,
                                             std::stop_token stop,
                                             const std::function<void(const IterationRecord&)>& onAccepted)
{
    LevenbergMarquardtOutcome out;
    const Eigen::Index p = problem.parameters().size();
    std::string failure;
    Linearization current;
    if (!problem.evaluate(Eigen::VectorXd::Zero(p), current, failure, stop))
        throw std::runtime_error("the model cannot be evaluated at the starting values: " + failure);
    problem.accept();  // the zero step: the problem now holds its starting point's results
    const Eigen::VectorXd lower = problem.lower();
    const Eigen::VectorXd upper = problem.upper();
    out.history.push_back(record(0, problem.parameters(), current.merit, 0.0, 0.0));
    if (onAccepted)
        onAccepted(out.history.back());

    Eigen::VectorXd scale = current.jacobian.colwise().squaredNorm().transpose();
    double lambda = 1e-3;
    double nu = 2.0;
    double penalty = 1.0;  // multiple shooting: weight of the continuity violation in the merit
    auto finish = [&](bool converged, std::string reason) {
        out.converged = converged;
        out.stopReason = std::move(reason);
        out.final = current;
        return out;
    };
    if (p == 0)
        return finish(true, "nothing to estimate");
    // Trial linearizations are swapped with the current one, never freed: a large Jacobian
    // (200 000 x 200, 320 MB) is then filled in place instead of being page-faulted afresh.
    Linearization trial;

    for (std::size_t iteration = 1; iteration <= settings.maxIterations; ++iteration) {
        const Eigen::VectorXd theta = problem.parameters();
        const Eigen::MatrixXd A = normalMatrix(current.jacobian);
        const Eigen::VectorXd g = current.jacobian.transpose() * current.residuals;
        for (Eigen::Index i = 0; i < p; ++i)
            scale(i) = std::max({scale(i), A(i, i), 1e-300});
        // Scaled gradient: the gradient as seen in parameters measured in units of their sensitivity.
        const double gradient =
            (g.array() / scale.array().sqrt()).abs().maxCoeff() / std::max(std::sqrt(2.0 * current.merit), 1e-300);
        // What a zero parameter step still gains (multiple shooting: closing continuity gaps);
        // while it is large the point is not stationary, however small the gradient.
        const double gap = current.merit - 0.5 * current.residuals.squaredNorm();
        const bool gapClosed = gap <= settings.costTolerance * current.merit;
        if (current.merit == 0.0 || (gradient <= settings.gradientTolerance && gapClosed))
            return finish(true, current.merit == 0.0 ? "exact fit (cost 0)" : "gradient below tolerance");
        if (problem.dampsByStepLength()) {
            // Damped Gauss-Newton (Bock 1983) on the merit data + rho * violation, the penalty
            // rho raised whenever needed so the Gauss-Newton direction descends (Nocedal &
            // Wright, Numerical Optimization, 2nd ed., sec. 18.3); the step is halved until
            // the merit decreases by a fraction of that slope (Armijo).
            Eigen::MatrixXd regularized = A;
            regularized.diagonal() += 1e-12 * scale;
            const Eigen::VectorXd full = regularized.ldlt().solve(-g);
            if (!full.allFinite())
                return finish(false, "the normal equations are singular: some parameters cannot be identified");
            const double predictedData = 0.5 * (current.residuals + current.jacobian * full).squaredNorm();
            const double relativeFull = full.norm() / (theta.norm() + settings.stepTolerance);
            // Defects below ~1e-12 are rounding, whatever the cost.
            const bool gapsClosed =
                current.violation <= settings.costTolerance * current.merit || current.violation <= 1e-24;
            if (relativeFull <= settings.stepTolerance && gapsClosed &&
                current.merit - predictedData <= settings.costTolerance * current.merit)
                return finish(true, "relative step below tolerance");
            // Slope of the data merit along the step is at most predictedData - merit; of the
            // penalty, -2 rho violation. Twice the least rho that makes the slope negative
            // leaves the full step a clear decrease.
            if (current.violation > 0)
                penalty = std::max(penalty, 2.0 * (predictedData - current.merit) / current.violation);
            const double slope = (predictedData - current.merit) - 2.0 * penalty * current.violation;
            const double merit0 = current.merit + penalty * current.violation;
            bool accepted = false;
            for (double alpha = 1.0; alpha >= 1.0 / 4096; alpha /= 2) {
                if (stop.stop_requested()) {
                    out.cancelled = true;
                    return finish(false, "cancelled");
                }
                const Eigen::VectorXd step = ((theta + alpha * full).cwiseMax(lower).cwiseMin(upper)) - theta;
                problem.setStepLength(alpha);
                if (problem.evaluate(step, trial, failure, stop) &&
                    trial.merit + penalty * trial.violation <= merit0 + 1e-4 * alpha * std::min(slope, 0.0) &&
                    trial.merit + penalty * trial.violation < merit0) {
                    problem.accept();
                    const double previous = merit0;
                    std::swap(current, trial);
                    const double now = current.merit + penalty * current.violation;
                    out.iterations = iteration;
                    out.history.push_back(record(iteration, problem.parameters(), current.merit,
                                                 step.norm() / (theta.norm() + settings.stepTolerance), alpha));
                    if (onAccepted)
                        onAccepted(out.history.back());
                    accepted = true;
                    if (previous - now <= settings.costTolerance * previous &&
                        (current.violation <= settings.costTolerance * current.merit || current.violation <= 1e-24))
                        return finish(true, "relative cost change below tolerance");
                    break;
                }
            }
            problem.setStepLength(1.0);
            if (!accepted && relativeFull <= 1e-8 && gapsClosed)
                return finish(true, "no further decrease: the step is at rounding level");
            if (!accepted)
                return finish(false,
                              "the line search found no step that reduces the cost" +
                                  (failure.empty() ? std::string() : " (" + failure + ")"));
            continue;
        }
        while (true) {
            if (stop.stop_requested()) {
                out.cancelled = true;
                return finish(false, "cancelled");
            }
            Eigen::MatrixXd damped = A;
            damped.diagonal() += lambda * scale;
            Eigen::VectorXd step = damped.ldlt().solve(-g);
            const Eigen::VectorXd trialPoint = (theta + step).cwiseMax(lower).cwiseMin(upper);
            step = trialPoint - theta;
            const double relativeStep = step.norm() / (theta.norm() + settings.stepTolerance);
            if (!step.allFinite())
                return finish(false, "the normal equations are singular: some parameters cannot be identified");
            const double predicted = current.merit - 0.5 * (current.residuals + current.jacobian * step).squaredNorm();
            if (relativeStep <= settings.stepTolerance && predicted <= settings.costTolerance * current.merit)
                return finish(true, "relative step below tolerance");
            const bool ok = problem.evaluate(step, trial, failure, stop);
            if (stop.stop_requested()) {
                out.cancelled = true;
                return finish(false, "cancelled");
            }
            const double actual = ok ? current.merit - trial.merit : -1.0;
            if (ok && predicted > 0 && actual > 0) {
                const double rho = actual / predicted;
                lambda *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
                nu = 2.0;
                problem.accept();
                const double previous = current.merit;
                std::swap(current, trial);
                out.iterations = iteration;
                out.history.push_back(record(iteration, problem.parameters(), current.merit, relativeStep, lambda));
                if (onAccepted)
                    onAccepted(out.history.back());
                if (actual <= settings.costTolerance * previous)
                    return finish(true, "relative cost change below tolerance");
                break;
            }
            lambda *= nu;
            nu *= 2.0;
            if (lambda > 1e20)
                return finish(false,
                              ok ? "no step reduces the cost further (damping limit " + data::formatNumber(lambda, 3) +
                                      ")"
                                 : "the model cannot be evaluated near the current estimate: " + failure);
        }
    }
    return finish(false, "maximum number of iterations (" + std::to_string(settings.maxIterations) + ") reached");
}

}  // namespace sysid::estimate
