#pragma once

#include "engine/core/SolverStatistics.h"
#include "engine/core/Termination.h"

#include <nlohmann/json.hpp>

namespace sysid::project {

// "termination": {"kind": "converged" | "iteration_limit" | "cancelled" | "failed",
//                 "criterion": "cost_tolerance" | ... | "none", "message": "..."}
nlohmann::json terminationToJson(const core::Termination& termination);
// The inverse; throws std::invalid_argument for an unknown kind or criterion.
core::Termination terminationFromJson(const nlohmann::json& json);

// "statistics": {"steps", "rejected_steps", "rhs_evaluations", "jacobian_evaluations",
//                "factorizations", "integrations", "events",
//                "newton": {"iterations", "jacobian_builds", "jacobian_reuses", "modified_steps"},
//                "seconds": {"compilation", "integration", "linear_algebra", "total"}}
nlohmann::json statisticsToJson(const core::SolverStatistics& statistics);
// The inverse; missing members stay 0.
core::SolverStatistics statisticsFromJson(const nlohmann::json& json);

}  // namespace sysid::project
