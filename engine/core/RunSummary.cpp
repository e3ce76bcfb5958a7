#include "engine/core/RunSummary.h"

#include <cstdio>

namespace sysid::core {

namespace {

std::string seconds(double s)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6f s", s);  // as Ceres' FullReport
    return text;
}

std::string count(std::size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string integrationSummary(const SolverStatistics& statistics)
{
    const IntegrationStatistics& s = statistics.integration;
    return count(s.steps, "step", "steps") + " (" + std::to_string(s.rejectedSteps) + " rejected), " +
        count(s.rhsEvaluations, "right-hand side", "right-hand sides") + ", " +
        count(s.jacobianEvaluations, "Jacobian", "Jacobians") + ", " +
        count(s.factorizations, "LU factorisation", "LU factorisations") + " in " +
        count(s.integrations, "integration", "integrations") +
        (s.events > 0 ? ", " + count(s.events, "event located", "events located") : std::string());
}

std::string newtonSummary(const SolverStatistics& statistics)
{
    const NewtonStatistics& s = statistics.newton;
    if (s.iterations == 0 && s.jacobianBuilds == 0)
        return {};
    return count(s.iterations, "Newton iteration", "Newton iterations") + ": " +
        count(s.jacobianBuilds, "Jacobian built", "Jacobians built") + ", " + std::to_string(s.jacobianReuses) +
        " re-used, " + count(s.modifiedSteps, "modified step", "modified steps");
}

std::string timeSummary(const SolverStatistics& statistics)
{
    const PhaseSeconds& s = statistics.seconds;
    return "compilation " + seconds(s.compilation) + ", integration " + seconds(s.integration) + ", linear algebra " +
        seconds(s.linearAlgebra) + ", total " + seconds(s.total);
}

}  // namespace sysid::core
