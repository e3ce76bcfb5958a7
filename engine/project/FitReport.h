#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/estimate/FitSettings.h"

#include <nlohmann/json.hpp>

#include <string>

namespace sysid::project {

// The settings that differ from a default FitSettings, by their key path in a project file
// ("max_iterations", "integrator.rtol", "output_weights.y"): the project writer is the one
// statement of their names, so the report speaks the names a user writes.
nlohmann::json nonDefaultSettings(const estimate::FitSettings& settings);

// The full report of a fit, as Ceres' Solver::Summary::FullReport: the method and its
// minimiser, the settings that differ from their defaults, the unknowns and residuals, the cost
// before and after, iterations, evaluations, the integrations' statistics, seconds per phase,
// the residual analysis' verdict per output and why it stopped. A title line, then one "  label   value" line each; no
// newline at the end.
std::string fitReport(const estimate::FitResult& result);

// The report as the result JSON holds it:
//   {"method", "minimiser", "non_default_settings": {...}, "unknowns", "residuals", "iterations",
//    "evaluations", "derivative_evaluations", "initial_cost", "final_cost", "text": fitReport}
// (the termination and the statistics are members of the result itself).
nlohmann::json fitReportJson(const estimate::FitResult& result);

}  // namespace sysid::project
