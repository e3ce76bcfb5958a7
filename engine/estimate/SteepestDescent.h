#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/LeastSquaresProblem.h"
#include "engine/estimate/Minimiser.h"

#include <Eigen/Dense>

#include <stop_token>
#include <vector>

namespace sysid::estimate {

// The seed's cost J = sum_r c_r * residual_r^2 of a least-squares problem: c_r are quadrature
// weights, so that J approximates an integral over time (seed 003: J = int sum_i (q_i - S_i)^2 dt).
// The gradient is dJ/dtheta = 2 * jacobian' * (c .* residuals).
//
// Steepest descent with a fixed gain as the seed writes it, eq. (4.22):
// theta_j <- theta_j - K int sum_i (y_i - q_i) dy_i/dtheta_j dt = theta_j - (K/2) dJ/dtheta_j
// (Bordan 1971 sec. 4.1-4.3, after Bingulac 1967; Curry 1944), each new point projected onto the
// bounds. It stops when the
// relative change of J is below costTolerance, the relative step below stepTolerance, the
// gradient (relative to J) below gradientTolerance, or after maxIterations. A cost that rises
// or cannot be evaluated means the gain is too large: the fit stops at the last good point.
// The records' cost is J and their `lambda` the gain K; `final.merit` is J too.
MinimiserOutcome steepestDescent(LeastSquaresProblem& problem, const Eigen::VectorXd& quadratureWeights, double gain,
                                 const StoppingTolerances& tolerances, std::stop_token stop,
                                 const AcceptedStep& onAccepted);

// Trapezoid weights over each experiment's sample times, one per residual row of an
// OutputErrorProblem with these output weights (rows: experiment, then measured output with a
// positive weight, then sample), so that sum_r c_r r_r^2 = sum_e int sum_j w_j (q_j - y_j)^2 dt.
Eigen::VectorXd trapezoidRowWeights(const std::vector<Experiment>& experiments,
                                    const std::vector<double>& outputWeights);

}  // namespace sysid::estimate
