#pragma once

#include "engine/eval/CompiledModel.h"

#include <Eigen/Dense>

namespace sysid::shooting {

// The monodromy matrix of a model with constraints restricted to the tangent space of its
// invariants at the orbit's start x (time t): T^T M_xx T for an orthonormal basis T of the null
// space of dG/dx over the differential states. Its eigenvalues are the Floquet multipliers of the
// motion on the constraints; the full matrix adds one zero per invariant and algebraic variable
// (directions the projection removes). For a model without constraints, `monodromy` itself.
Eigen::MatrixXd onConstraints(eval::CompiledModel& model, double t, const Eigen::VectorXd& x,
                              const Eigen::MatrixXd& monodromy);

}  // namespace sysid::shooting
