#include "engine/estimate/EquationErrorFormula.h"

#include <stdexcept>

namespace sysid::estimate {

ButcherTableau butcherTableau(EquationErrorFormula oneStepFormula)
{
    if (oneStepFormula == EquationErrorFormula::Heun)
        return {{{}, {1.0}}, {0.5, 0.5}, {0.0, 1.0}};
    if (oneStepFormula == EquationErrorFormula::RungeKutta4)
        return {{{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}}, {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}, {0.0, 0.5, 0.5, 1.0}};
    throw std::invalid_argument(std::string(kEquationErrorFormulas.name(oneStepFormula)) +
                                " is not a one-step formula");
}

MultistepWeights multistepWeights(EquationErrorFormula multistepFormula)
{
    switch (multistepFormula) {
    case EquationErrorFormula::Trapezoid: return {1, {0.5, 0.5}};
    case EquationErrorFormula::Simpson: return {2, {1.0 / 3, 4.0 / 3, 1.0 / 3}};
    case EquationErrorFormula::NewtonCotes6: {
        // Weddle-type closed seven-point rule as printed in seed 004, eq. 4.5: (6h/840)(41, 216, 27, 272, ...).
        MultistepWeights w{6, {41, 216, 27, 272, 27, 216, 41}};
        for (double& b : w.beta)
            b *= 6.0 / 840.0;
        return w;
    }
    default: break;
    }
    throw std::invalid_argument(std::string(kEquationErrorFormulas.name(multistepFormula)) +
                                " is not a multistep formula");
}

}  // namespace sysid::estimate
