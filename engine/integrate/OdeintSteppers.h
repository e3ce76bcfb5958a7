#pragma once

#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/Stepper.h"

#include <memory>

namespace sysid::integrate {

// Boost.Odeint's explicit Runge-Kutta steppers on the augmented state: dopri5 (Dormand & Prince
// 1980, adaptive with its continuous extension), classical rk4 and explicit Euler (fixed step).
std::unique_ptr<Stepper> makeDopri5Stepper(SensitivitySystem& system, const IntegratorSettings& settings);
std::unique_ptr<Stepper> makeRungeKutta4Stepper(SensitivitySystem& system);
std::unique_ptr<Stepper> makeEulerStepper(SensitivitySystem& system);

}  // namespace sysid::integrate
