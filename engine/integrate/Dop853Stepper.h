#pragma once

#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/Stepper.h"

#include <memory>

namespace sysid::integrate {

// DOP853 (Hairer, Norsett & Wanner 1993, sec. II.10; the code dop853.f): explicit Runge-Kutta of
// order 8 with Hairer's combined 5th/3rd-order error estimate and step-size control, and its
// 7th-order dense output (three extra evaluations, made only for a step that is interpolated).
// Odeint has no method of order above 5 with dense output, hence this one.
std::unique_ptr<Stepper> makeDop853Stepper(SensitivitySystem& system, const IntegratorSettings& settings);

}  // namespace sysid::integrate
