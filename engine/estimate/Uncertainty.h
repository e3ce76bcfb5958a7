#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace sysid::estimate {

struct Uncertainty {
    Eigen::MatrixXd covariance;
    Eigen::VectorXd sd;  // +inf for a parameter the data cannot determine
    Eigen::MatrixXd correlation;  // NaN where an sd is infinite
    double halfWidthFactor = 0.0;  // 95 % interval = value +- factor * sd (Student t)
    // Directions in parameter space the data do not see (changes of the parameters that leave the
    // fit unchanged), largest component 1: a unit vector for a parameter without any effect, a
    // combination for parameters that act only together. Empty when every parameter is determined.
    std::vector<Eigen::VectorXd> undeterminedDirections;
};

// Covariance of the estimates from the weighted data Jacobian J at the optimum:
// s^2 (J'J)^-1 with s^2 = |r|^2 / (m - p), the residual variance (Seber & Wild, Nonlinear
// Regression, 1989, sec. 2.1). With priors (precision P) the posterior (J'J/s^2 + P)^-1.
// A singular J'J is inverted on its range; directions it cannot see get infinite sd.
Uncertainty uncertainty(const Eigen::MatrixXd& dataJacobian, const Eigen::VectorXd& dataResiduals,
                        const Eigen::VectorXd& priorPrecision);
// The same from the normal equations: J'J, |r|^2 and the number of residuals m.
Uncertainty uncertaintyFromNormalEquations(const Eigen::MatrixXd& normalMatrix, double residualSquares,
                                           std::size_t residuals, const Eigen::VectorXd& priorPrecision);
// Covariance (J'J + P)^-1 of a Jacobian whose rows are already weighted by the inverse noise sd (maximum
// likelihood with the noise variances estimated: their estimates are asymptotically uncorrelated with the
// parameters, so the Fisher information of the parameters is J'J at the estimated variances; Seber & Wild
// 1989, ch. 2). The interval factor is Student's with m - p degrees of freedom, as above.
Uncertainty uncertaintyWithEstimatedNoise(const Eigen::MatrixXd& weightedJacobian,
                                          const Eigen::VectorXd& priorPrecision);

}  // namespace sysid::estimate
