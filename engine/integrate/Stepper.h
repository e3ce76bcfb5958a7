#pragma once

#include "engine/core/SolverStatistics.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>

namespace sysid::integrate {

// One integration method stepping a SensitivitySystem's augmented state z = [x, S]: the concept
// Boost.Odeint's dense-output steppers share (initialize, do_step, calc_state), behind a virtual
// interface so that one driver (integrate::integrate) runs every method, and so that a located
// event can stop a step and restart the stepper from the event's state.
class Stepper {
public:
    virtual ~Stepper() = default;

    // Adaptive methods choose their steps from the tolerances; fixed ones take the step they get.
    virtual bool adaptive() const = 0;
    // (Re)starts at (t, z): after a segment boundary, an input sample or an event. `h` is the first
    // step to try (adaptive) or the step (fixed).
    virtual void initialize(const double* z, double t, double h) = 0;
    // Goes on from where the last step ended, at time() with state(), past a segment boundary across
    // which the right-hand side is continuous (an input that kinks there without jumping), trying `h`
    // first: a method that carries f(t, z) over from its last step (first same as last) keeps it, which
    // saves the evaluation a restart costs at every input sample of a long record. False: the method
    // cannot, and the caller restarts it with initialize().
    virtual bool continueAcross(double /*h*/) { return false; }
    // Takes one accepted step from time(). An adaptive method ends it at `limit` at the latest when
    // `stopAtLimit` (CVODES' tstop); otherwise it may pass `limit` and the driver interpolates.
    // Throws IntegrationError when no step can be taken (with the time reached).
    virtual void step(double limit, bool stopAtLimit) = 0;
    virtual double time() const = 0;  // after the last step
    virtual double previousTime() const = 0;  // before it
    virtual const double* state() const = 0;  // z at time()
    // z at t, previousTime() <= t <= time(), from the method's dense output.
    virtual void interpolate(double t, double* z) = 0;
    // The step the method would try next.
    virtual double nextStep() const = 0;
    // min(nextStep(), cap), which a method may know without computing nextStep() exactly.
    virtual double nextStepWithin(double cap) const { return std::min(nextStep(), cap); }

    // What the steps so far cost (steps and rejections, evaluations, factorisations).
    const core::IntegrationStatistics& statistics() const { return statistics_; }

    // Applied to the end state z (column-major [x, S]) of every accepted step before the next
    // starts: a DAE's projection onto its invariants and solve for its algebraic variables. Only
    // the steppers that take algebraic variables apply it.
    void setCorrection(std::function<void(double t, double* z)> correct) { correct_ = std::move(correct); }

protected:
    core::IntegrationStatistics statistics_;
    std::function<void(double, double*)> correct_;
};

}  // namespace sysid::integrate
