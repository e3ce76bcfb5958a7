#include "engine/estimate/Minimiser.h"

#include "engine/core/SolverStatistics.h"
#include "engine/estimate/NormalMatrix.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::estimate {

IterationRecord iterationRecord(std::size_t iteration, const Eigen::VectorXd& theta, double cost, double step,
                                double lambda)
{
    return {iteration, std::vector<double>(theta.data(), theta.data() + theta.size()), cost, step, lambda};
}

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

NormalEquations normalEquations(const Linearization& at, Eigen::VectorXd& scale)
{
    const core::PhaseTimer timer(core::Phase::LinearAlgebra);
    NormalEquations out;
    out.matrix = normalMatrix(at.jacobian);
    out.gradient = at.jacobian.transpose() * at.residuals;
    for (Eigen::Index i = 0; i < scale.size(); ++i)
        scale(i) = std::max({scale(i), out.matrix(i, i), 1e-300});
    out.scaledGradient =
        (out.gradient.array() / scale.array().sqrt()).abs().maxCoeff() / std::max(std::sqrt(2.0 * at.merit), 1e-300);
    return out;
}

}  // namespace sysid::estimate
