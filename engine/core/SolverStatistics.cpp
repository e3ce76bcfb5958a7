#include "engine/core/SolverStatistics.h"

namespace sysid::core {

namespace {
thread_local RunStatistics* current = nullptr;
}

IntegrationStatistics& IntegrationStatistics::operator+=(const IntegrationStatistics& other)
{
    for (auto counter : integrationCounters)
        this->*counter += other.*counter;
    return *this;
}

NewtonStatistics& NewtonStatistics::operator+=(const NewtonStatistics& other)
{
    for (auto counter : newtonCounters)
        this->*counter += other.*counter;
    return *this;
}

void RunStatistics::add(const NewtonStatistics& s)
{
    for (std::size_t i = 0; i < newtonCounters.size(); ++i)
        newtonCounts_[i] += s.*newtonCounters[i];
}

void RunStatistics::add(const IntegrationStatistics& s)
{
    for (std::size_t i = 0; i < integrationCounters.size(); ++i)
        counts_[i] += s.*integrationCounters[i];
}

void RunStatistics::addSeconds(Phase phase, double seconds)
{
    nanoseconds_[static_cast<int>(phase)] += static_cast<long long>(seconds * 1e9);
}

SolverStatistics RunStatistics::snapshot() const
{
    SolverStatistics s;
    for (std::size_t i = 0; i < integrationCounters.size(); ++i)
        s.integration.*integrationCounters[i] = counts_[i];
    for (std::size_t i = 0; i < newtonCounters.size(); ++i)
        s.newton.*newtonCounters[i] = newtonCounts_[i];
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
