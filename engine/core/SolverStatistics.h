#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>

namespace sysid::core {

// What integrations cost, after SUNDIALS' CVodeGet* counters. Every integration returns its
// own; a run sums them over all its integrations and threads.
struct IntegrationStatistics {
    std::size_t steps = 0;  // accepted steps
    std::size_t rejectedSteps = 0;  // steps the error control (or a failed implicit solve) rejected
    std::size_t rhsEvaluations = 0;  // evaluations of the right-hand side (with its sensitivity columns)
    std::size_t jacobianEvaluations = 0;  // evaluations of df/dx for an iteration matrix or a Rosenbrock stage
    std::size_t factorizations = 0;  // LU factorisations of an iteration matrix
    std::size_t integrations = 0;  // how many integrations were summed
    std::size_t events = 0;  // switches and resets located and applied

    IntegrationStatistics& operator+=(const IntegrationStatistics& other);
};

// Every counter of IntegrationStatistics, for the code that sums or copies them all.
inline constexpr std::array integrationCounters{
    &IntegrationStatistics::steps,          &IntegrationStatistics::rejectedSteps,
    &IntegrationStatistics::rhsEvaluations, &IntegrationStatistics::jacobianEvaluations,
    &IntegrationStatistics::factorizations, &IntegrationStatistics::integrations,
    &IntegrationStatistics::events};

// What the damped-Newton solves of a run cost (shooting, continuation, time discretisation,
// boundary value problems): iterations, Jacobians built and re-used, modified steps.
struct NewtonStatistics {
    std::size_t iterations = 0;
    std::size_t jacobianBuilds = 0;
    std::size_t jacobianReuses = 0;  // steps taken on an earlier Jacobian's factorisation
    std::size_t modifiedSteps = 0;  // steps with the singular values of J raised (Gay 1976)

    NewtonStatistics& operator+=(const NewtonStatistics& other);
};

inline constexpr std::array newtonCounters{&NewtonStatistics::iterations, &NewtonStatistics::jacobianBuilds,
                                           &NewtonStatistics::jacobianReuses, &NewtonStatistics::modifiedSteps};

// Seconds spent per phase of a run. Phases that run on several threads at once (integrations
// of shooting intervals, rows of a contour) are summed over the threads, so they can exceed
// `total`, which is wall time.
struct PhaseSeconds {
    double compilation = 0.0;  // compiling the model's evaluation programs
    double integration = 0.0;  // integrating the model (with its sensitivities)
    double linearAlgebra = 0.0;  // forming and solving the minimisers' and Newton's linear systems
    double total = 0.0;  // the whole run, wall time
};

// The statistics part of a result: JSON "statistics" {steps, rejected_steps, rhs_evaluations,
// jacobian_evaluations, factorizations, integrations, events, newton {iterations, jacobian_builds,
// jacobian_reuses, modified_steps}, seconds {compilation, integration, linear_algebra, total}}.
struct SolverStatistics {
    IntegrationStatistics integration;
    NewtonStatistics newton;
    PhaseSeconds seconds;
};

enum class Phase { Compilation, Integration, LinearAlgebra };

// Collects the statistics of one run from every thread that works for it (thread-safe).
class RunStatistics {
public:
    void add(const IntegrationStatistics& s);
    void add(const NewtonStatistics& s);
    void addSeconds(Phase phase, double seconds);
    // The sums so far; `total` is left to the caller, which knows the run's wall time.
    SolverStatistics snapshot() const;

private:
    std::array<std::atomic<std::size_t>, integrationCounters.size()> counts_{};  // in integrationCounters' order
    std::array<std::atomic<std::size_t>, newtonCounters.size()> newtonCounts_{};  // in newtonCounters' order
    std::atomic<long long> nanoseconds_[3] = {0, 0, 0};
};

// The current thread's collector, or nullptr. Integrations and timed phases report to it, so a
// run collects the cost of everything it calls without passing a collector down every layer;
// core::ThreadPool hands the submitting thread's collector to its workers.
RunStatistics* currentStatistics();

// Makes `collector` the current thread's collector for the scope's lifetime (the previous one
// is restored after). nullptr stops collecting.
class StatisticsScope {
public:
    explicit StatisticsScope(RunStatistics* collector);
    ~StatisticsScope();
    StatisticsScope(const StatisticsScope&) = delete;
    StatisticsScope& operator=(const StatisticsScope&) = delete;

private:
    RunStatistics* previous_;
};

// Adds the wall time of its lifetime to `phase` of the current collector (nothing without one).
class PhaseTimer {
public:
    explicit PhaseTimer(Phase phase);
    ~PhaseTimer();
    PhaseTimer(const PhaseTimer&) = delete;
    PhaseTimer& operator=(const PhaseTimer&) = delete;

private:
    RunStatistics* collector_;
    Phase phase_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace sysid::core
