#pragma once

#include "engine/core/EnumTable.h"

#include <array>
#include <vector>

namespace sysid::estimate {

// The integration formulas of the equation-error estimators (seed note 004, ch. 3 and 4): the
// measured states are substituted into one step of the formula and its mismatch is the residual.
enum class EquationErrorFormula {
    Heun,  // one-step, explicit trapezoidal rule (RK2), seed eq. 3.3
    RungeKutta4,  // one-step, the classical fourth-order Runge-Kutta method
    Trapezoid,  // multistep over 1 interval: y_i = y_{i-1} + h/2 (F_{i-1} + F_i)
    Simpson,  // multistep over 2 intervals: y_i = y_{i-2} + h/3 (F_{i-2} + 4 F_{i-1} + F_i)
    NewtonCotes6,  // multistep over 6 intervals, the seed's closed formula (eq. 4.5)
};

inline constexpr core::EnumTable kEquationErrorFormulas{
    "formula",
    std::to_array<core::EnumSpelling<EquationErrorFormula>>({
        {.value = EquationErrorFormula::Heun,
         .name = "heun",
         .description = "one step of the explicit trapezoidal rule (RK2; Normann 1989, eq. 3.3)",
         .label = "Heun (RK2, Normann 1989)"},
        {.value = EquationErrorFormula::RungeKutta4,
         .name = "rk4",
         .description = "one step of the classical fourth-order Runge-Kutta method",
         .label = "Runge–Kutta 4"},
        {.value = EquationErrorFormula::Trapezoid,
         .name = "trapezoid",
         .description = "the trapezoidal rule over one interval",
         .label = "Trapezoid (1 step)"},
        {.value = EquationErrorFormula::Simpson,
         .name = "simpson",
         .description = "Simpson's rule over two intervals",
         .label = "Simpson (2 steps)"},
        {.value = EquationErrorFormula::NewtonCotes6,
         .name = "newton-cotes-6",
         .description = "the closed Newton-Cotes formula over six intervals (Normann 1989, eq. 4.5)",
         .label = "Newton–Cotes (6 steps, Normann 1989)"},
    })};

// The single-step methods' formulas (heun, rk4); the others are the multistep methods'.
constexpr bool isOneStep(EquationErrorFormula formula)
{
    return formula == EquationErrorFormula::Heun || formula == EquationErrorFormula::RungeKutta4;
}
constexpr bool isMultistep(EquationErrorFormula formula)
{
    return !isOneStep(formula);
}

// An explicit Runge-Kutta method by its Butcher tableau (Hairer, Norsett & Wanner, Solving
// ODEs I, sec. II.1): stage s at t + c[s] h, state y + h sum_j a[s][j] K_j (j < s), step
// h sum_s b[s] K_s.
struct ButcherTableau {
    std::vector<std::vector<double>> a;
    std::vector<double> b, c;
    std::size_t stages() const { return b.size(); }
};
ButcherTableau butcherTableau(EquationErrorFormula oneStepFormula);

// A closed Newton-Cotes formula y_i = y_{i-s} + h sum_j beta[j] F_{i-s+j}, j = 0..s
// (Stoer & Bulirsch, Introduction to Numerical Analysis, sec. 3.1 and 7.2.11).
struct MultistepWeights {
    std::size_t steps = 0;
    std::vector<double> beta;  // steps + 1 weights
};
MultistepWeights multistepWeights(EquationErrorFormula multistepFormula);

}  // namespace sysid::estimate
