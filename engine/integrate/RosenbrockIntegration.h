#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace sysid::integrate {

// Rosenbrock4 with dense output over a sample grid. Kept behind plain callbacks in its own
// file because Boost 1.74's uBLAS (which odeint's rosenbrock4 needs) only compiles as C++17.
struct RosenbrockProblem {
    std::size_t size = 0;
    std::function<void(double t, const double* z, double* dz)> rhs;
    // J is row-major size x size; dFdt has size entries.
    std::function<void(double t, const double* z, double* J, double* dFdt)> jacobian;
    std::function<void(std::size_t sample, const double* z)> record;
    // Called after every accepted step; may throw to stop the integration.
    std::function<void(double t, const double* z, double dt)> afterStep;
    // Turns a solver exception into the caller's error type.
    std::function<void(double t, const char* what)> onFailure;
    // Segment boundaries, from the first to the last sample time; the stepper restarts at each.
    std::vector<double> boundaries;
    std::function<void(double start, double end)> beginSegment;
};

void integrateRosenbrock(const RosenbrockProblem& problem, const std::vector<double>& z0,
                         const std::vector<double>& times, double absoluteTolerance, double relativeTolerance,
                         double maxStep, double initialStep);

}  // namespace sysid::integrate
