#pragma once

#include "engine/shooting/BoundaryValueProblem.h"

#include <stop_token>
#include <string>
#include <vector>

namespace sysid::shooting {

// One shooting interval's initial value problem x' = f(x, t), x(t0) = x0, integrated to t1
// with the stage's method. With `variational`, the variational equations Phi' = (df/dx) Phi,
// Phi(t0) = I ride along, and the result is [x(t1); Phi(t1) column-major] (n + n^2 values);
// otherwise x(t1). Throws integrate::IntegrationError whose message starts with `where`
// (e.g. "interval 3 [0.2, 0.3]") and gives the time it reached.
std::vector<double> integrateInterval(OdeSystem& system, const BvpStage& stage, double t0, double t1, const double* x0,
                                      bool variational, std::stop_token stop, const std::string& where);

}  // namespace sysid::shooting
