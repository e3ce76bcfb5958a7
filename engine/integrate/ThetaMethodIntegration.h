#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/SensitivitySystem.h"

#include <functional>
#include <string>
#include <vector>

namespace sysid::integrate {

// The fixed-step theta method x1 = x0 + h [theta f(t1, x1) + (1 - theta) f(t0, x0)] with its
// forward sensitivities: theta = 1 is implicit Euler, theta = 1/2 Crank-Nicolson. z is laid out
// as in SensitivitySystem, [x, S_1, ..., S_K]. Each step's equation is solved by Newton's method
// with a sparse LU of I - theta h df/dx; the sensitivity columns are the exact derivatives of the
// discrete step (the step equation differentiated), solved with the LU of the last iterate.
struct ThetaMethodCallbacks {
    std::function<void(std::size_t sample, const double* z)> record;
    // Called after every step; may throw to stop the integration.
    std::function<void(double t, const double* z, double dt)> afterStep;
    // Turns a step whose equation cannot be solved into the caller's error; must throw.
    std::function<void(double t, const std::string& what)> onFailure;
};

// The step is settings.maxStep, shortened so that every output interval holds a whole number of
// equal steps (one step per interval when maxStep is 0): the output times are hit exactly.
void integrateThetaMethod(double theta, eval::CompiledModel& model, SensitivitySystem& system, std::vector<double>& z,
                          const std::vector<double>& times, const IntegratorSettings& settings,
                          const ThetaMethodCallbacks& callbacks);

// The steps of each output interval for a fixed-step method: their count and size.
struct FixedSteps {
    std::size_t count;
    double size;
};
FixedSteps fixedSteps(double interval, double maxStep);

}  // namespace sysid::integrate
