#include "engine/estimate/Minimiser.h"

#include "engine/core/SolverStatistics.h"
#include "engine/estimate/NormalMatrix.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::estimate {

namespace {

Linearization evaluateStart(LeastSquaresProblem& problem, std::stop_token stop, MinimiserOutcome& outcome)
{
    Linearization start;
    std::string failure;
    ++outcome.evaluations;
    if (!problem.evaluate(Eigen::VectorXd::Zero(problem.parameters().size()), start, failure, stop))
        throw std::runtime_error("the model cannot be evaluated at the starting values: " + failure);
    problem.accept();  // the zero step: the problem now holds its starting point's results
    return start;
}

}  // namespace

MinimiserRun::MinimiserRun(LeastSquaresProblem& problem, std::stop_token stop, AcceptedStep onAccepted) :
    current(evaluateStart(problem, stop, outcome)), lower(problem.lower()), upper(problem.upper()), problem_(problem),
    onAccepted_(std::move(onAccepted))
{
}

void MinimiserRun::record(std::size_t iteration, double cost, double step, double lambda)
{
    const Eigen::VectorXd theta = problem_.parameters();
    outcome.iterations = iteration;
    outcome.history.push_back(
        {iteration, std::vector<double>(theta.data(), theta.data() + theta.size()), cost, step, lambda});
    if (onAccepted_)
        onAccepted_(outcome.history.back());
}

MinimiserOutcome MinimiserRun::finish(core::Termination termination)
{
    outcome.termination = std::move(termination);
    outcome.final = std::move(current);
    return std::move(outcome);
}

MinimiserOutcome MinimiserRun::finishAtIterationLimit(std::size_t maxIterations)
{
    return finish(core::Termination::iterationLimit("maximum number of iterations (" + std::to_string(maxIterations) +
                                                    ") reached"));
}

Eigen::VectorXd Linearization::columnSquares() const
{
    if (normalForm)
        return normalMatrix.diagonal();
    return jacobian.colwise().squaredNorm().transpose();
}

double Linearization::modelHalfSquares(const Eigen::VectorXd& step) const
{
    if (normalForm)  // |r + J s|^2 = |r|^2 + 2 s'J'r + s'J'J s
        return 0.5 * residuals.squaredNorm() + step.dot(normalGradient) + 0.5 * step.dot(normalMatrix * step);
    return 0.5 * (residuals + jacobian * step).squaredNorm();
}

double NormalEquations::predictedDecrease(const Linearization& at, const Eigen::VectorXd& step) const
{
    // In the normal form without the difference of two sums of squares, which loses the digits the
    // decrease shares with the cost.
    const double residualPart = at.normalForm
        ? at.gap - step.dot(at.normalGradient) - 0.5 * step.dot(at.normalMatrix * step)
        : (at.gap + 0.5 * at.residuals.squaredNorm()) - at.modelHalfSquares(step);
    return curved ? residualPart + 0.5 * step.dot(at.curvature * step) : residualPart;
}

NormalEquations normalEquations(const Linearization& at, Eigen::VectorXd& scale)
{
    const core::PhaseTimer timer(core::Phase::LinearAlgebra);
    NormalEquations out;
    if (at.normalForm) {
        out.matrix = at.normalMatrix;
        out.gradient = at.normalGradient;
    } else {
        out.matrix = normalMatrix(at.jacobian);
        out.gradient = at.jacobian.transpose() * at.residuals;
    }
    if (at.curvature.size() > 0) {
        Eigen::MatrixXd curved = out.matrix - at.curvature;
        if (Eigen::LLT<Eigen::MatrixXd>(curved).info() == Eigen::Success) {
            out.matrix = std::move(curved);
            out.curved = true;
        }
    }
    for (Eigen::Index i = 0; i < scale.size(); ++i)
        scale(i) = std::max({scale(i), out.matrix(i, i), 1e-300});
    out.scaledGradient =
        (out.gradient.array() / scale.array().sqrt()).abs().maxCoeff() / std::max(std::sqrt(2.0 * at.scale()), 1e-300);
    return out;
}

}  // namespace sysid::estimate
