#include "engine/estimate/SteepestDescent.h"

#include "engine/data/Text.h"

#include <cmath>
#include <stdexcept>

namespace sysid::estimate {

namespace {

double seedCost(const Linearization& l, const Eigen::VectorXd& c)
{
    return (c.array() * l.residuals.head(c.size()).array().square()).sum();
}

Eigen::VectorXd seedGradient(const Linearization& l, const Eigen::VectorXd& c)
{
    if (l.normalForm)  // weights rows of J: the fit never asks this problem for the normal form
        throw std::logic_error("steepest descent needs the Jacobian, not the normal equations");
    const Eigen::Index m = c.size();
    return 2.0 * l.jacobian.topRows(m).transpose() * (c.array() * l.residuals.head(m).array()).matrix();
}

}  // namespace

Eigen::VectorXd trapezoidRowWeights(const std::vector<Experiment>& experiments,
                                    const std::vector<double>& outputWeights)
{
    std::vector<double> rows;
    for (const auto& ex : experiments)
        for (std::size_t j = 0; j < ex.outputMeasured.size(); ++j) {
            if (!ex.outputMeasured[j] || !(outputWeights.at(j) > 0))
                continue;
            const auto& t = ex.times;
            for (std::size_t s = 0; s < t.size(); ++s) {
                const double left = s > 0 ? t[s] - t[s - 1] : 0.0;
                const double right = s + 1 < t.size() ? t[s + 1] - t[s] : 0.0;
                // The residual rows already carry sqrt(w_j), so w_j is in r^2.
                rows.push_back(0.5 * (left + right));
            }
        }
    return Eigen::Map<const Eigen::VectorXd>(rows.data(), static_cast<Eigen::Index>(rows.size()));
}

MinimiserOutcome steepestDescent(LeastSquaresProblem& problem, const Eigen::VectorXd& quadratureWeights, double gain,
                                 const StoppingTolerances& tolerances, std::stop_token stop,
                                 const AcceptedStep& onAccepted)
{
    using core::Termination;
    using core::TerminationCriterion;
    if (!(gain > 0) || !std::isfinite(gain))
        throw std::invalid_argument("the steepest-descent gain K must be a finite number > 0 (it is " +
                                    data::formatNumber(gain, 6) + ")");
    MinimiserRun run(problem, stop, onAccepted);
    Linearization& current = run.current;
    std::string failure;
    if (current.residuals.size() < quadratureWeights.size())
        throw std::invalid_argument("steepest descent: more quadrature weights than residuals");
    double cost = seedCost(current, quadratureWeights);
    current.merit = cost;
    run.record(0, cost, 0.0, gain);
    if (run.nothingToEstimate())
        return run.finish(Termination::convergence(TerminationCriterion::NothingToEstimate, "nothing to estimate"));

    for (std::size_t iteration = 1; iteration <= tolerances.maxIterations; ++iteration) {
        if (stop.stop_requested())
            return run.finish(Termination::cancel());
        const Eigen::VectorXd theta = problem.parameters();
        const Eigen::VectorXd g = seedGradient(current, quadratureWeights);
        if (cost == 0.0)
            return run.finish(Termination::convergence(TerminationCriterion::ExactFit, "exact fit (cost 0)"));
        // Gradient per unit relative change of each parameter, relative to J: scale-free.
        const double gradient = (g.array() * (theta.array().abs() + 1e-12)).abs().maxCoeff() / cost;
        if (gradient <= tolerances.gradientTolerance)
            return run.finish(
                Termination::convergence(TerminationCriterion::GradientTolerance, "gradient below tolerance"));
        // The seed's update (4.22) has no factor 2: K multiplies dJ/dtheta / 2.
        const Eigen::VectorXd step = (theta - 0.5 * gain * g).cwiseMax(run.lower).cwiseMin(run.upper) - theta;
        const double relativeStep = step.norm() / (theta.norm() + tolerances.stepTolerance);
        if (relativeStep <= tolerances.stepTolerance)
            return run.finish(
                Termination::convergence(TerminationCriterion::StepTolerance, "relative step below tolerance"));
        Linearization trial;
        ++run.outcome.evaluations;
        const bool ok = problem.evaluate(step, trial, failure, stop);
        if (stop.stop_requested())
            return run.finish(Termination::cancel());
        if (!ok)
            return run.finish(Termination::failure(
                TerminationCriterion::EvaluationFailed,
                "the model cannot be evaluated after a steepest-descent step (gain K = " + data::formatNumber(gain, 6) +
                    " too large?): " + failure));
        const double next = seedCost(trial, quadratureWeights);
        if (!std::isfinite(next) || next > cost)
            return run.finish(Termination::failure(
                TerminationCriterion::GainTooLarge,
                "the cost rose from " + data::formatNumber(cost, 6) + " to " + data::formatNumber(next, 6) +
                    ": the gain K = " + data::formatNumber(gain, 6) + " is too large for this problem"));
        problem.accept();
        const double previous = cost;
        cost = next;
        current = std::move(trial);
        current.merit = cost;
        run.record(iteration, cost, relativeStep, gain);
        if (previous - cost <= tolerances.costTolerance * previous)
            return run.finish(
                Termination::convergence(TerminationCriterion::CostTolerance, "relative cost change below tolerance"));
    }
    return run.finishAtIterationLimit(tolerances.maxIterations);
}

}  // namespace sysid::estimate
