#pragma once

// Rosenbrock4Controller against odeint's own rosenbrock4_controller, in a C++17 file of its own
// (odeint's rosenbrock4 needs Boost 1.74's uBLAS, which does not compile as C++20).
#include "engine/integrate/SensitivitySystem.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::test {

struct ControllerComparison {
    std::size_t attempts = 0, accepted = 0, rejected = 0;
    std::string difference;  // empty when every attempt gave the same bits
};

// Both controllers, ours with the norm over all components, step the autonomous form of `system`
// (time as the last component, as RosenbrockStepper integrates it) from (z0, t0) with first step h0
// until t1 is passed; after every attempt the result, t, the next dt and every component of the
// new state must be bitwise equal.
ControllerComparison compareWithOdeintController(integrate::SensitivitySystem& system, const std::vector<double>& z0,
                                                 double t0, double t1, double h0, double absoluteTolerance,
                                                 double relativeTolerance, double maxStep);

}  // namespace sysid::test
