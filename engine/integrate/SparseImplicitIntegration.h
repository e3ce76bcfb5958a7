#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/SensitivitySystem.h"

#include <functional>
#include <vector>

namespace sysid::integrate {

// Adaptive linearly implicit integration of a large sparse stiff model together with its
// forward sensitivities ("sparse-implicit"). z is laid out as in SensitivitySystem,
// [x, S_1, ..., S_K]; each step factorises I - gamma h df/dx once (sparse LU) and solves the
// state and every sensitivity column with that one factorisation. The step size is chosen
// from the error of the states alone; the sensitivities follow the accepted steps.
struct SparseImplicitCallbacks {
    std::function<void(std::size_t sample, const double* z)> record;
    // Called after every accepted step; may throw to stop the integration.
    std::function<void(double t, const double* z, double dt)> afterStep;
    // Turns a failure (no acceptable step) into the caller's error; must throw.
    std::function<void(double t, const std::string& what)> onFailure;
};

// Samples the solution at `times` by cubic Hermite interpolation within steps, restarting at each segment
// boundary (boundaries run from times.front() to times.back()) with the inputs held there.
void integrateSparseImplicit(eval::CompiledModel& model, SensitivitySystem& system, std::vector<double>& z,
                             const std::vector<double>& times, const std::vector<double>& boundaries,
                             const IntegratorSettings& settings, double initialStep,
                             const SparseImplicitCallbacks& callbacks);

}  // namespace sysid::integrate
