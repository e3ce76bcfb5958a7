#pragma once

#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/Stepper.h"

#include <memory>
#include <string>

namespace sysid::integrate {

// How the implicit steppers solve each step's equation.
struct ImplicitSolveOptions {
    // false: Newton stops when its update is within the integrator's tolerances. true: it goes on
    // to rounding level, so the step is the exact discrete map (shooting differentiates it).
    bool toRounding = false;
    // Appended to the message of a step whose equation cannot be solved: what the user can change.
    std::string advice = "use a smaller step (--max-step)";
};

// The fixed-step theta method x1 = x0 + h [theta f(t1, x1) + (1 - theta) f(t0, x0)] with its forward
// sensitivities: theta = 1 is implicit Euler, theta = 1/2 Crank-Nicolson. Each step's equation is
// solved by Newton's method with an LU of I - theta h df/dx (dense or sparse, IterationMatrix); the
// sensitivity columns are the exact derivatives of the discrete step (the step equation
// differentiated), solved with the LU of the last iterate.
std::unique_ptr<Stepper> makeThetaStepper(double theta, SensitivitySystem& system, const IntegratorSettings& settings,
                                          const ImplicitSolveOptions& options);

}  // namespace sysid::integrate
