#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sysid::integrate {

enum class IntegrationMethod {
    Dopri5,       // adaptive explicit Runge-Kutta 5(4), dense output; the default
    Rosenbrock4,  // adaptive linearly implicit, for stiff systems
    RK4,          // classical fixed-step Runge-Kutta
    Euler,        // explicit Euler, fixed step
    // Adaptive linearly implicit (Rosenbrock-W) with a sparse LU of I - gamma h df/dx shared by
    // the sensitivities: large stiff models such as PDEs by the method of lines.
    SparseImplicit,
    // Fixed-step implicit schemes of seed 003 ch. 2 (its eqs. 2.10 and 2.18), each step's equation
    // solved by Newton with a sparse LU of I - theta h df/dx that the sensitivities share.
    ImplicitEuler,   // backward differences in time: order 1, L-stable
    CrankNicolson,   // the trapezoidal average: order 2, A-stable but not L-stable (stiff modes oscillate)
};

std::optional<IntegrationMethod> parseIntegrationMethod(std::string_view name);
std::string methodName(IntegrationMethod method);
bool isAdaptive(IntegrationMethod method);

struct IntegratorSettings {
    IntegrationMethod method = IntegrationMethod::Dopri5;
    double relativeTolerance = 1e-8;
    double absoluteTolerance = 1e-10;
    // Adaptive methods: largest step allowed (0 = no limit). Fixed-step methods: the step;
    // 0 = one step per output interval. Output intervals are always hit exactly.
    double maxStep = 0.0;
    std::size_t maxSteps = 1000000;
};

}  // namespace sysid::integrate
