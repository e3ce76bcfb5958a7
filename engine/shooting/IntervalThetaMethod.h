#pragma once

#include "engine/shooting/BoundaryValueProblem.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace sysid::shooting {

// `steps` equal steps of the theta method x1 = x0 + h [theta f(t1, x1) + (1 - theta) f(t0, x0)]
// over [t0, t1] on z = [x; Phi column-major] (Phi only with `variational`). Each step's equation
// is solved by Newton with a dense LU of I - theta h df/dx; Phi is carried by the exact
// derivative of the discrete step, so the shooting Jacobian is that of the discrete map.
// `afterStep(t, z)` runs after each step (cancellation, step count) and may throw. A step whose
// equation Newton cannot solve throws integrate::IntegrationError naming `where` and the time.
void integrateIntervalThetaMethod(OdeSystem& system, double theta, std::size_t steps, double t0, double t1,
                                  std::vector<double>& z, bool variational,
                                  const std::function<void(double t, const std::vector<double>& z)>& afterStep,
                                  const std::string& where);

}  // namespace sysid::shooting
