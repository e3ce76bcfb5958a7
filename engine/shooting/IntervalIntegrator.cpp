#include "engine/shooting/IntervalIntegrator.h"

#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/Integrator.h"
#include "engine/integrate/SensitivitySystem.h"

#include <algorithm>
#include <cmath>

namespace sysid::shooting {

using integrate::IntegrationError;
using Reason = IntegrationError::Reason;

namespace {

// What a user of a shooting method can change when an interval cannot be integrated.
std::string advice(Reason reason)
{
    switch (reason) {
    case Reason::NonFiniteState: return "; use more shooting points or a better starting guess";
    case Reason::StepSizeUnderflow:
        return "; use more shooting points, a better starting guess or a stiff integrator (rosenbrock4)";
    case Reason::TooManySteps: return "; use more shooting points or a stiff integrator (rosenbrock4)";
    default: return "";
    }
}

}  // namespace

std::vector<double> integrateInterval(OdeSystem& system, const BvpStage& stage, double t0, double t1, const double* x0,
                                      bool variational, std::stop_token stop, const std::string& where)
{
    integrate::SensitivitySystem augmented(system, {}, variational);
    const std::size_t n = system.dimension();
    std::vector<double> z(augmented.size());
    augmented.initialState(x0, nullptr, z.data());
    if (!std::all_of(x0, x0 + n, [](double v) { return std::isfinite(v); }))
        throw IntegrationError(Reason::NonFiniteState, t0, where + ": the initial value is not finite");

    const auto& settings = stage.integrator;
    integrate::IntegrationTask task;
    task.times = {t0, t1};
    // Each interval must end exactly at its end point: the matching conditions compare it there.
    task.stopAtBreakpoints = true;
    task.stepsPerInterval = std::max<std::size_t>(stage.stepsPerInterval, 1);
    // The whole interval as the first try: intervals are short, and the controller shrinks it.
    const bool explicitAdaptive = settings.method == integrate::IntegrationMethod::Dopri5 ||
        settings.method == integrate::IntegrationMethod::Dop853;
    task.initialStep = explicitAdaptive ? t1 - t0 : (t1 - t0) / 10;
    // Fixed-step implicit stages (seed 001 §5.4 allows a stiff integrator in the loose-to-tight
    // schedule) are the exact discrete map, which the shooting Jacobian differentiates.
    task.implicit.toRounding = true;
    task.implicit.advice = "use more steps per interval, more shooting points or a better starting guess";
    task.stop = std::move(stop);
    try {
        integrate::runIntegration(augmented, z, task, settings, [](std::size_t, const double*) {});
    } catch (const IntegrationError& e) {
        throw IntegrationError(e.reason(), e.timeReached(), where + ": " + e.what() + advice(e.reason()));
    }
    return z;
}

}  // namespace sysid::shooting
