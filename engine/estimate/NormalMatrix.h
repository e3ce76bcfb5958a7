#pragma once

#include <Eigen/Dense>

namespace sysid::estimate {

// J'J, exactly symmetric. A symmetric rank-k update (SYRK) computes one triangle only: half
// the work of the general product, which dominates a Gauss-Newton iteration with many
// residuals and parameters (200 000 x 200 in the PDE benchmark).
Eigen::MatrixXd normalMatrix(const Eigen::MatrixXd& jacobian);

}  // namespace sysid::estimate
