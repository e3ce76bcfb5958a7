#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace sysid::integrate {

// Drives an odeint dense-output stepper over [boundaries.front(), boundaries.back()] one
// segment at a time, restarting at each boundary, and samples the solution at `times`.
// Input signals are only piecewise smooth: restarting where they kink (with the input held
// to the segment's own polynomial, also when a step overshoots) keeps the stepper's error
// estimate honest (Hairer, Norsett & Wanner, Solving ODEs I, sec. II.6, discontinuities).
// Header-only and free of C++20 so the C++17 Rosenbrock file can use it too.
template <class Stepper, class System, class State, class Data, class BeginSegment, class Record, class AfterStep>
void integrateOverSegments(Stepper& stepper, System system, State& z, const std::vector<double>& times,
                           const std::vector<double>& boundaries, double initialStep, Data data,
                           BeginSegment beginSegment, Record record, AfterStep afterStep)
{
    State sample = z;
    record(0, data(z));
    std::size_t k = 1;
    double dt = initialStep;
    for (std::size_t segment = 0; segment + 1 < boundaries.size() && k < times.size(); ++segment) {
        const double start = boundaries[segment];
        const double end = boundaries[segment + 1];
        beginSegment(start, end);
        stepper.initialize(z, start, std::min(dt, end - start));
        while (stepper.current_time() < end) {
            const auto step = stepper.do_step(system);
            afterStep(step.second, data(stepper.current_state()), step.second - step.first);
            const double reached = std::min(step.second, end);
            while (k < times.size() && times[k] <= reached) {
                stepper.calc_state(times[k], sample);
                record(k, data(sample));
                ++k;
            }
        }
        dt = stepper.current_time_step();
        if (segment + 2 < boundaries.size())
            stepper.calc_state(end, z);
    }
}

}  // namespace sysid::integrate
