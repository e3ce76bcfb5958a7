#include "engine/core/SolverStatistics.h"

namespace sysid::core {

namespace {
thread_local RunStatistics* current = nullptr;
}

IntegrationStatistics& IntegrationStatistics::operator+=(const IntegrationStatistics& other)
{
    steps += other.steps;
    rejectedSteps += other.rejectedSteps;
    rhsEvaluations += other.rhsEvaluations;
    jacobianEvaluations += other.jacobianEvaluations;
    factorizations += other.factorizations;
    integrations += other.integrations;
    return *this;
}

void RunStatistics::add(const IntegrationStatistics& s)
{
    steps_ += s.steps;
    rejected_ += s.rejectedSteps;
    rhs_ += s.rhsEvaluations;
    jacobians_ += s.jacobianEvaluations;
    factorizations_ += s.factorizations;
    integrations_ += s.integrations;
}

void RunStatistics::addSeconds(Phase phase, double seconds)
{
    nanoseconds_[static_cast<int>(phase)] += static_cast<long long>(seconds * 1e9);
}

SolverStatistics RunStatistics::snapshot() const
{
    SolverStatistics s;
    s.integration.steps = steps_;
    s.integration.rejectedSteps = rejected_;
    s.integration.rhsEvaluations = rhs_;
    s.integration.jacobianEvaluations = jacobians_;
    s.integration.factorizations = factorizations_;
    s.integration.integrations = integrations_;
    s.seconds.compilation = static_cast<double>(nanoseconds_[static_cast<int>(Phase::Compilation)]) * 1e-9;
    s.seconds.integration = static_cast<double>(nanoseconds_[static_cast<int>(Phase::Integration)]) * 1e-9;
    s.seconds.linearAlgebra = static_cast<double>(nanoseconds_[static_cast<int>(Phase::LinearAlgebra)]) * 1e-9;
    return s;
}

RunStatistics* currentStatistics()
{
    return current;
}

StatisticsScope::StatisticsScope(RunStatistics* collector) : previous_(current)
{
    current = collector;
}

StatisticsScope::~StatisticsScope()
{
    current = previous_;
}

PhaseTimer::PhaseTimer(Phase phase) :
    collector_(current), phase_(phase),
    start_(collector_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{})
{
}

PhaseTimer::~PhaseTimer()
{
    if (collector_)
        collector_->addSeconds(phase_,
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

}  // namespace sysid::core
