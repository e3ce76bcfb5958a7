#pragma once

#include "engine/core/SolverStatistics.h"

#include <string>

namespace sysid::core {

// One line each for logs and reports:
// "1234 steps (5 rejected), 5678 right-hand sides, 12 Jacobians, 3 LU factorisations in 45 integrations"
std::string integrationSummary(const SolverStatistics& statistics);
// "12 Newton iterations: 5 Jacobians built, 7 re-used, 0 modified steps" (empty without Newton iterations)
std::string newtonSummary(const SolverStatistics& statistics);
// "compilation 0.000024 s, integration 0.456000 s, linear algebra 0.001200 s, total 0.600000 s"
std::string timeSummary(const SolverStatistics& statistics);

}  // namespace sysid::core
