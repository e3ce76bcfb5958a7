#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::integrate {

// The switches and resets of a system (a model's sign, abs, min, max and `when` statements, see
// eval::SwitchSource), in the terms the integration core's event handling needs. Vectors at a point
// (t, x) are dense: gradients have n entries in x and parameterCount() in p; Jacobians are
// column-major. One instance per thread, like its OdeSystem.
class Discontinuities {
public:
    virtual ~Discontinuities() = default;
    virtual std::size_t switchCount() const = 0;
    virtual std::size_t eventCount() const = 0;

    // Holds each switch on its mode (+1 or -1) until releaseModes(); a switch marked sliding has
    // its mode solved at every evaluation so that the flow stays on its surface (Filippov's
    // convex combination of the two branches).
    virtual void holdModes(const std::vector<double>& modes, const std::vector<char>& sliding) = 0;
    virtual void releaseModes() = 0;
    // The switching functions g_i on the held modes.
    virtual void switchingFunctions(double t, const double* x, double* g) = 0;
    // The modes in effect at (t, x): the held ones with the sliding ones solved for.
    virtual void currentModes(double t, const double* x, double* m) = 0;
    // dg_i/dt along the flow with the switches on modes `m` (the inputs' slopes included).
    virtual void rates(double t, const double* x, const std::vector<double>& m, double* a) = 0;
    // Switch i's gradient in x and p; returns dg_i/dt at fixed x (inputs' slopes included).
    virtual double switchingGradient(double t, const double* x, std::size_t i, double* gx, double* gp) = 0;

    // Every reset's condition function g (the event fires when it crosses zero in eventDirection).
    virtual void eventConditions(double t, const double* x, double* g) = 0;
    virtual int eventDirection(std::size_t k) const = 0;
    virtual double eventGradient(double t, const double* x, std::size_t k, double* gx, double* gp) = 0;
    // x+ = h(t, x-) of reset k over all states (unassigned ones keep their value), with dh/dx
    // (n x n), dh/dp (n x np) and dh/dt (n).
    virtual void reset(double t, const double* x, std::size_t k, double* next, double* hx, double* hp,
                       double* ht) = 0;

    // For messages: "sign(q')", "the event 'when x < 0' (line 4)".
    virtual std::string switchName(std::size_t i) const = 0;
    virtual std::string eventName(std::size_t k) const = 0;
};

}  // namespace sysid::integrate
