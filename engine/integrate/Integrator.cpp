#include "engine/integrate/Integrator.h"

#include "engine/data/Text.h"
#include "engine/integrate/ConsistentState.h"
#include "engine/integrate/Constraints.h"
#include "engine/integrate/Dop853Stepper.h"
#include "engine/integrate/EventHandler.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/OdeintSteppers.h"
#include "engine/integrate/RosenbrockStepper.h"
#include "engine/integrate/SparseImplicitStepper.h"

#include <algorithm>
#include <cmath>

namespace sysid::integrate {

namespace {

// An adaptive step whose result overflows is retried this many times, each ten times shorter,
// before the integration gives up: an error estimate of infinities can accept such a step.
constexpr int overflowRetries = 200;

class StepGuard {
public:
    StepGuard(SensitivitySystem& system, const IntegratorSettings& settings, const IntegrationTask& task,
              bool adaptive) :
        system_(system),
        settings_(settings), task_(task), adaptive_(adaptive)
    {
    }

    void checkCancelled(double t) const
    {
        if (task_.stop.stop_requested())
            throw IntegrationError(IntegrationError::Reason::Cancelled, t,
                                   "integration cancelled at t = " + data::formatNumber(t, 10));
    }

    // The first non-finite entry of z, or size() when all are finite.
    std::size_t firstNonFinite(const double* z) const
    {
        for (std::size_t i = 0; i < system_.size(); ++i)
            if (!std::isfinite(z[i]))
                return i;
        return system_.size();
    }

    [[noreturn]] void nonFinite(double t, std::size_t i) const
    {
        const std::size_t n = system_.stateCount();
        const std::string what = (i < n ? "state " : "a sensitivity of state ") + system_.system().stateName(i % n);
        throw IntegrationError(IntegrationError::Reason::NonFiniteState, t,
                               "integration failed at t = " + data::formatNumber(t, 10) + ": " + what +
                                   " became infinite or NaN (the solution overflows, or an expression such as log, "
                                   "sqrt or a division left its domain)");
    }

    void afterStep(double t, double dt, bool landedOnLimit)
    {
        checkCancelled(t);
        if (++steps_ > settings_.maxSteps)
            throw IntegrationError(IntegrationError::Reason::TooManySteps, t,
                                   "integration stopped at t = " + data::formatNumber(t, 10) + " after more than " +
                                       std::to_string(settings_.maxSteps) +
                                       " steps (the limit); the system may be stiff "
                                       "(try rosenbrock4, or sparse-implicit for a large model) or the tolerances too "
                                       "tight");
        // A step cut short to land on a limit may be small without the controller having failed.
        if (adaptive_ && !landedOnLimit && std::abs(dt) < 1e-14 * std::max(1.0, std::abs(t)))
            throw IntegrationError(IntegrationError::Reason::StepSizeUnderflow, t,
                                   "integration failed at t = " + data::formatNumber(t, 10) +
                                       ": the step size fell to " + data::formatNumber(dt, 10) +
                                       " (step size underflow); the solution may blow up or have "
                                       "a discontinuity here");
    }

private:
    SensitivitySystem& system_;
    const IntegratorSettings& settings_;
    const IntegrationTask& task_;
    bool adaptive_;
    std::size_t steps_ = 0;
};

double defaultInitialStep(const IntegrationTask& task, const IntegratorSettings& settings)
{
    const auto& times = task.times;
    const double span = times.back() - times.front();
    const double first = times.size() > 1 ? times[1] - times[0] : span;
    double dt = task.initialStep > 0 && std::isfinite(task.initialStep) ? task.initialStep
                                                                        : std::min(1e-4 * std::max(span, 1.0), first);
    if (settings.maxStep > 0)
        dt = std::min(dt, settings.maxStep);
    return dt > 0 ? dt : 1e-6;
}

// Takes one accepted step and checks it; an overflowing adaptive step is retried shorter from the
// state before it.
void guardedStep(Stepper& stepper, StepGuard& guard, std::vector<double>& before, double limit, bool stopAtLimit)
{
    int retries = 0;
    for (;;) {
        const double from = stepper.time();
        stepper.step(limit, stopAtLimit);
        const std::size_t bad = guard.firstNonFinite(stepper.state());
        if (bad == before.size()) {
            guard.afterStep(stepper.time(), stepper.time() - from, stepper.time() == limit);
            return;
        }
        const double shorter = 0.1 * (stepper.time() - from);
        guard.checkCancelled(from);
        if (!stepper.adaptive() || ++retries > overflowRetries || !(shorter >= 1e-14 * std::max(1.0, std::abs(from))))
            guard.nonFinite(stepper.time(), bad);
        stepper.interpolate(from, before.data());
        stepper.initialize(before.data(), from, shorter);
    }
}

void runAdaptive(Stepper& stepper, SensitivitySystem& system, std::vector<double>& z, const IntegrationTask& task,
                 const IntegratorSettings& settings, StepGuard& guard, const SampleRecorder& record,
                 EventHandler* events, ConsistentState* consistent)
{
    const auto& times = task.times;
    std::vector<double> boundaries{times.front()};
    for (double b : system.system().breakpoints(times.front(), times.back()))
        boundaries.push_back(b);
    boundaries.push_back(times.back());

    std::vector<double> sample(z.size()), before(z.size()), atEnd(z.size());
    record(0, z.data());
    std::size_t k = 1;
    auto recordUntil = [&](double reached) {
        while (k < times.size() && times[k] <= reached) {
            stepper.interpolate(times[k], sample.data());
            if (consistent)
                consistent->settle(times[k], sample.data());
            record(k, sample.data());
            ++k;
        }
    };
    const EventHandler::StateAt stateAt = [&](double t, double* out) { stepper.interpolate(t, out); };
    double dt = defaultInitialStep(task, settings);
    bool stepperProposes = false;  // after the first segment the stepper's next step is the first to try
    // Where f stays continuous across the input samples and nothing else acts at them, a step that
    // ended on a sample carries its f into the next segment instead of restarting the method.
    const bool carry = !events && !consistent && system.system().continuousAtBreakpoints();
    bool landed = false;  // the last segment's final step ended exactly on its end
    for (std::size_t segment = 0; segment + 1 < boundaries.size() && k < times.size(); ++segment) {
        const double start = boundaries[segment];
        const double end = boundaries[segment + 1];
        system.system().beginSegment(start, end);
        if (events)
            segment == 0 ? events->start(start, z.data()) : events->restart(start, z.data());
        const double first = stepperProposes ? stepper.nextStepWithin(end - start) : std::min(dt, end - start);
        if (!(carry && landed && stepper.continueAcross(first)))
            stepper.initialize(z.data(), start, first);
        while (stepper.time() < end) {
            const double from = stepper.time();
            guardedStep(stepper, guard, before, end, task.stopAtBreakpoints);
            const double reached = std::min(stepper.time(), end);
            if (events) {
                const double* zReached = stepper.state();
                if (reached < stepper.time()) {
                    stepper.interpolate(reached, atEnd.data());
                    zReached = atEnd.data();
                }
                if (const auto when = events->locate(from, reached, zReached, stateAt)) {
                    // Samples up to the event from this step; the rest from the restart there.
                    recordUntil(*when);
                    const double step = stepper.time() - from;
                    stepper.interpolate(*when, z.data());
                    events->apply(*when, z.data());
                    if (consistent)
                        consistent->settle(*when, z.data());
                    guard.checkCancelled(*when);
                    // Shorter than the step that found the event: the flow may leave the surface briefly.
                    const double h = std::max(0.25 * step, 1e-3 * (end - start));
                    stepper.initialize(z.data(), *when, *when < end ? std::min(h, end - *when) : h);
                    continue;
                }
            }
            recordUntil(reached);
        }
        stepperProposes = true;
        landed = stepper.time() == end;
        if (landed) {
            std::copy(stepper.state(), stepper.state() + z.size(), z.begin());
        } else {
            stepper.interpolate(end, z.data());
            if (consistent)
                consistent->settle(end, z.data());
        }
    }
}

void runFixed(Stepper& stepper, SensitivitySystem& system, std::vector<double>& z, const IntegrationTask& task,
              const IntegratorSettings& settings, StepGuard& guard, const SampleRecorder& record, EventHandler* events,
              ConsistentState* consistent)
{
    const auto& times = task.times;
    // Fixed steps cross input samples on their own grid: inputs are read from their interpolants.
    system.system().releaseSegment();
    record(0, z.data());
    if (events)
        events->start(times.front(), z.data());
    std::vector<double> from(z.size()), end(z.size());
    double t = times.front();
    // A fixed-step method has no dense output: the state at an earlier time is one step of the
    // method from the step's start.
    const EventHandler::StateAt stateAt = [&](double at, double* out) {
        stepper.initialize(from.data(), t, at - t);
        stepper.step(at, false);
        std::copy(stepper.state(), stepper.state() + z.size(), out);
    };
    for (std::size_t k = 1; k < times.size(); ++k) {
        const double interval = times[k] - times[k - 1];
        FixedSteps steps = task.stepsPerInterval > 0
            ? FixedSteps{task.stepsPerInterval, interval / static_cast<double>(task.stepsPerInterval)}
            : fixedSteps(interval, settings.maxStep);
        if (events && k > 1)
            events->restart(times[k - 1], z.data());
        t = times[k - 1];
        stepper.initialize(z.data(), t, steps.size);
        for (std::size_t s = 0; s < steps.count; ++s) {
            std::copy(stepper.state(), stepper.state() + z.size(), from.begin());
            stepper.step(times[k], false);
            const std::size_t bad = guard.firstNonFinite(stepper.state());
            const double reached = s + 1 == steps.count ? times[k] : stepper.time();
            if (bad != z.size())
                guard.nonFinite(reached, bad);
            guard.afterStep(reached, steps.size, false);
            if (events) {
                std::copy(stepper.state(), stepper.state() + z.size(), end.begin());
                if (const auto when = events->locate(t, reached, end.data(), stateAt)) {
                    stateAt(*when, z.data());
                    events->apply(*when, z.data());
                    if (consistent)
                        consistent->settle(*when, z.data());
                    guard.checkCancelled(*when);
                    // The rest of the interval in equal steps no longer than before.
                    steps = fixedSteps(times[k] - *when, steps.size * (1 + 1e-12));
                    t = *when;
                    stepper.initialize(z.data(), t, steps.size);
                    s = std::size_t(-1);  // the loop's ++s starts the new count at 0
                    if (*when >= times[k])
                        break;
                    continue;
                }
            }
            t = reached;
        }
        std::copy(stepper.state(), stepper.state() + z.size(), z.begin());
        record(k, z.data());
    }
}

}  // namespace

FixedSteps fixedSteps(double interval, double maxStep)
{
    const std::size_t count = maxStep > 0
        ? std::max<std::size_t>(static_cast<std::size_t>(std::ceil(interval / maxStep * (1 - 1e-12))), 1)
        : 1;
    return {count, interval / static_cast<double>(count)};
}

std::unique_ptr<Stepper> makeStepper(IntegrationMethod method, SensitivitySystem& system,
                                     const IntegratorSettings& settings, const ImplicitSolveOptions& implicit)
{
    // Checked before the first step, where a failure would read as one of the integration.
    if (system.columnCount() > 0 && usesSecondDerivatives(method))
        system.system().requireSecondDerivatives(methodName(method) + " with sensitivities");
    switch (method) {
    case IntegrationMethod::Dopri5: return makeDopri5Stepper(system, settings);
    case IntegrationMethod::Dop853: return makeDop853Stepper(system, settings);
    case IntegrationMethod::Rosenbrock4:
        return makeRosenbrock4Stepper(system, settings.absoluteTolerance, settings.relativeTolerance, settings.maxStep,
                                      settings.sensitivityErrorControl == SensitivityErrorControl::Exclude);
    case IntegrationMethod::RK4: return makeRungeKutta4Stepper(system);
    case IntegrationMethod::Euler: return makeEulerStepper(system);
    case IntegrationMethod::SparseImplicit: return makeSparseImplicitStepper(system, settings);
    case IntegrationMethod::ImplicitEuler: return makeThetaStepper(1.0, system, settings, implicit);
    case IntegrationMethod::CrankNicolson: return makeThetaStepper(0.5, system, settings, implicit);
    }
    return makeDopri5Stepper(system, settings);
}

IntegrationOutcome runIntegration(SensitivitySystem& system, std::vector<double>& z, const IntegrationTask& task,
                                  const IntegratorSettings& chosen, const SampleRecorder& record)
{
    core::PhaseTimer timer(core::Phase::Integration);
    Constraints* constraints = system.system().constraints();
    // A DAE has one default method, whoever forgot to resolve it (no explicit method could run it).
    IntegratorSettings settings = chosen;
    if (constraints && !settings.methodChosen)
        settings.method = defaultMethodFor(false, true);
    if (constraints && !takesAlgebraicVariables(settings.method))
        throw IntegrationError(IntegrationError::Reason::SolverFailure, task.times.front(),
                               methodName(settings.method) + " cannot integrate the algebraic variables of this model (" +
                                   system.system().stateName(system.stateCount() - constraints->algebraicCount()) +
                                   ", from its constraints): choose sparse-implicit (the default for such models), "
                                   "implicit-euler or crank-nicolson");
    auto stepper = makeStepper(settings.method, system, settings, task.implicit);
    // A DAE starts consistent and is kept so after every step (post-stabilisation) and at every sample.
    std::unique_ptr<ConsistentState> consistent;
    if (constraints) {
        constraints->stabilise(settings.baumgarte() ? settings.baumgarteAlpha : 0.0,
                               settings.baumgarte() ? settings.baumgarteBeta : 0.0);
        consistent = std::make_unique<ConsistentState>(system, *constraints, settings.projects());
        consistent->initialise(task.times.front(), z.data(),
                               task.modelInitialState ? constraints->heldInitialState() : std::vector<char>{});
        stepper->setCorrection([c = consistent.get()](double t, double* state) { c->settle(t, state); });
    }
    StepGuard guard(system, settings, task, stepper->adaptive());
    IntegrationOutcome outcome;
    // Resets are always located; switches unless the settings say to step across them.
    std::unique_ptr<EventHandler> events;
    if (Discontinuities* d = system.system().discontinuities())
        if (settings.switches == SwitchHandling::Locate || d->eventCount() > 0)
            events = std::make_unique<EventHandler>(system, *d);
    auto account = [&] {
        outcome.statistics = stepper->statistics();
        if (events)
            outcome.statistics.events = events->eventsApplied();
        outcome.statistics.integrations = 1;
        if (auto* collector = core::currentStatistics())
            collector->add(outcome.statistics);
    };
    try {
        if (stepper->adaptive())
            runAdaptive(*stepper, system, z, task, settings, guard, record, events.get(), consistent.get());
        else
            runFixed(*stepper, system, z, task, settings, guard, record, events.get(), consistent.get());
    } catch (const IntegrationError&) {
        account();
        throw;
    } catch (const std::invalid_argument&) {
        account();
        throw;
    } catch (const std::exception& e) {
        account();
        const double t = stepper->time();
        throw IntegrationError(IntegrationError::Reason::SolverFailure, t,
                               "integration failed at t = " + data::formatNumber(t, 10) + ": " + e.what());
    }
    account();
    if (stepper->adaptive())
        outcome.lastStep = stepper->nextStep();
    return outcome;
}

}  // namespace sysid::integrate
