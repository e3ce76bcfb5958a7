#pragma once

#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/Stepper.h"

#include <memory>

namespace sysid::integrate {

// Adaptive linearly implicit integration of a large stiff system together with its forward
// sensitivities ("sparse-implicit"): ROS34PW2 (Rang & Angermann 2005). Each step factorises
// I - gamma h df/dx once (IterationMatrix: sparse LU for large sparse systems) and solves the state
// and every sensitivity column with that one factorisation. The step size is chosen from the error
// of the states alone; the sensitivities follow the accepted steps. Dense output between steps is
// the cubic Hermite interpolant. Steps never pass the driver's limit.
std::unique_ptr<Stepper> makeSparseImplicitStepper(SensitivitySystem& system, const IntegratorSettings& settings);

}  // namespace sysid::integrate
