#pragma once

#include "engine/core/EnumTable.h"

#include <array>

namespace sysid::estimate {

// How the single-shooting methods (output-error, bayes, steepest-descent) get dy/dtheta.
enum class SensitivityMethod {
    // Meissinger's parameter-sensitivity equations integrated with the model (any model).
    Forward,
    // The structural-sensitivity method (Kokotovic; Bordan 1971 sec. 3.4, integrate::structuralSensitivity):
    // one sensitivity model driven at its sensitivity points, propagated by the matrix
    // exponential. Only for models linear in the states with constant coefficients (a
    // discretised linear PDE); the integrator settings do not apply to it.
    Structural,
};

inline constexpr core::EnumTable kSensitivityMethods{
    "sensitivity method",
    std::to_array<core::EnumSpelling<SensitivityMethod>>({
        {.value = SensitivityMethod::Forward,
         .name = "forward",
         .description = "the parameter-sensitivity equations (Meissinger), integrated with the model: any model",
         .label = "Forward (Meissinger)"},
        {.value = SensitivityMethod::Structural,
         .name = "structural",
         .description = "the structural-sensitivity method (Kokotovic): one sensitivity model of the system's own "
                        "structure, driven at each parameter's sensitivity points and propagated by the matrix "
                        "exponential. Only for models linear in the states with constant coefficients (e.g. a linear "
                        "PDE by the method of lines); the integrator settings do not apply",
         .label = "Structural (linear models)"},
    })};

}  // namespace sysid::estimate
