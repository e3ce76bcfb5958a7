#pragma once

#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/Stepper.h"

#include <memory>

namespace sysid::integrate {

// Boost.Odeint's rosenbrock4 (Hairer & Wanner's RODAS-type order-4 method with its controller and
// dense output) on the augmented state, with the exact Jacobian of the sensitivity system. Kept in
// its own file because Boost 1.74's uBLAS (which rosenbrock4 needs) only compiles as C++17 (so this
// header takes the settings as numbers: IntegratorSettings.h is C++20). excludeSensitivities:
// the step-size control measures the error of x alone (SensitivityErrorControl::Exclude).
std::unique_ptr<Stepper> makeRosenbrock4Stepper(SensitivitySystem& system, double absoluteTolerance,
                                                double relativeTolerance, double maxStep, bool excludeSensitivities);

}  // namespace sysid::integrate
