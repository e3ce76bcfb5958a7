#pragma once

#include "engine/core/SolverStatistics.h"
#include "engine/data/Text.h"
#include "engine/integrate/IntegrationError.h"

#include <algorithm>
#include <cstddef>

namespace sysid::integrate {

// One accepted step of an odeint controlled stepper, tried the way odeint's dense-output steppers
// try it (at most 500 times, then a SolverFailure), and never past `limit` when `stopAtLimit`
// (CVODES' tstop). tryStep(t, dt) is odeint's try_step: true on success with t advanced, and dt the
// next step to try either way. evaluations() counts the work of the tries, so that a try the error
// test rejected is told from a step size refused before any work. accept(t) takes the new state.
// A header of templates free of C++20, for the C++17 Rosenbrock file as well.
// A step cut short by the limit says nothing against the longer one proposed before it: the next
// step is the longer of the two.
struct KeepLongerProposal {
    void operator()(double& dt, double proposed) const { dt = std::max(dt, proposed); }
};

// `cutShort(dt, proposed)` settles the next step after a step cut short by the limit
// (KeepLongerProposal unless the method defers its step-size factor).
template <class TryStep, class Evaluations, class Accept, class CutShort = KeepLongerProposal>
void takeControlledStep(double& t, double& dt, double limit, bool stopAtLimit, core::IntegrationStatistics& statistics,
                        TryStep tryStep, Evaluations evaluations, Accept accept, CutShort cutShort = {})
{
    for (std::size_t failures = 0;;) {
        const double proposed = dt;
        const bool capped = stopAtLimit && t + dt >= limit;
        if (capped)
            dt = limit - t;
        const std::size_t before = evaluations();
        double reached = t;
        if (tryStep(reached, dt)) {
            if (capped) {
                reached = limit;  // exactly, not t + (limit - t) rounded
                cutShort(dt, proposed);
            }
            accept(reached);
            t = reached;
            ++statistics.steps;
            return;
        }
        if (evaluations() != before)
            ++statistics.rejectedSteps;
        if (++failures >= 500)
            throw IntegrationError(IntegrationError::Reason::SolverFailure, t,
                                   "integration failed at t = " + data::formatNumber(t, 10) +
                                       ": Max number of iterations exceeded (500). A new step size was not found.");
    }
}

}  // namespace sysid::integrate
