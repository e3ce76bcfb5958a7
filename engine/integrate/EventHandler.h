#pragma once

#include "engine/integrate/Discontinuities.h"
#include "engine/integrate/SensitivitySystem.h"

#include <functional>
#include <optional>
#include <vector>

namespace sysid::integrate {

// The events of one integration: the switches of a system (its sign, abs, min and max) and its
// resets (`when`), located on the integrator's dense output so that no step straddles one, and
// applied to the state and its sensitivities there. Between events each switch is held on its
// branch (or sliding on its surface); a crossing flips it, or starts sliding where both sides
// push into the surface (Filippov 1988); the sensitivities jump by the saltation rule (Hiskens and
// Pai 2000; Leine and Nijmeijer 2004, sec. 3.4), so they equal the derivatives of the
// event-located flow.
class EventHandler {
public:
    // z at t for previousTime <= t <= time of the step just taken (the method's dense output).
    using StateAt = std::function<void(double t, double* z)>;

    EventHandler(SensitivitySystem& system, Discontinuities& discontinuities);
    ~EventHandler();
    EventHandler(const EventHandler&) = delete;
    EventHandler& operator=(const EventHandler&) = delete;

    // Chooses each switch's branch at the start of an integration (from the sign of its function,
    // or where that is zero from the direction of the flow) and arms the events.
    void start(double t, const double* z);
    // At a restart where f may jump in time (an input sample): switches whose function changed
    // sign there flip, and resets whose condition became true there fire.
    void restart(double t, double* z);
    // After a step from t0 to t1: the time of the first event in (t0, t1], if any. `z1` is z at t1.
    std::optional<double> locate(double t0, double t1, const double* z1, const StateAt& stateAt);
    // Applies the events that locate() found, at its time, to z there (state and sensitivities).
    // `timeEvent`: at a fixed instant (restart), where the event time has no sensitivity.
    void apply(double t, double* z, bool timeEvent = false);

    std::size_t eventsApplied() const { return applied_; }

private:
    std::size_t n() const { return system_.stateCount(); }
    std::size_t indicatorCount() const { return switches_ + resets_; }
    // Positive while no event is due: m_i g_i on a branch, 1 - |m_i| while sliding, and the reset
    // conditions signed so that they fall through zero when they fire.
    void indicators(double t, const double* x, std::vector<double>& e);
    void hold();
    // Branch (or sliding) of every switch at (t, x) from scratch: inner switches first.
    void chooseModes(double t, const double* x);
    double rate(double t, const double* x, std::size_t i, double mode);
    void flip(double t, double* z, std::size_t i, bool timeEvent);
    void leaveSurface(double t, const double* z, std::size_t i);
    void fireReset(double t, double* z, std::size_t k, bool timeEvent);
    // S_c += jump * dtau_c with dtau_c = -(gx S_c + gp_c) / rate, for every sensitivity column.
    void saltation(double* z, const std::vector<double>& gx, const std::vector<double>& gp, double rate,
                   const std::vector<double>& jump);
    void rearm(double t, const double* x);

    SensitivitySystem& system_;
    Discontinuities& d_;
    std::size_t switches_, resets_;
    std::vector<double> modes_;
    std::vector<char> sliding_;
    std::vector<char> armed_;  // the indicator was positive at the last check: a sign change is an event
    std::vector<char> fired_;  // reset k fired last and its condition has not turned false since
    std::vector<double> lastFired_;  // per reset: when it last fired
    std::vector<double> afterFiring_;  // per reset: its indicator just after it fired
    std::vector<double> e0_, e1_, em_;
    std::vector<std::size_t> due_;  // what locate() found
    std::vector<int> columnParameter_;  // per sensitivity column: the system parameter, or -1
    std::vector<double> x_, f0_, f1_, gx_, gp_, hx_, hp_, ht_, jump_, scratchZ_, rates_;
    std::size_t applied_ = 0;
};

}  // namespace sysid::integrate
