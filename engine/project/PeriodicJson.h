#pragma once

#include "engine/job/PeriodicJob.h"

#include <nlohmann/json.hpp>

namespace sysid::project {

// ORBIT.json of DESIGN.md:
//   {"period", "initial_state": {"x": ...}, "floquet_multipliers": [[re, im], ...],
//    "stable", "verdict", "iterations", "converged", "message",
//    "termination": {"kind", "criterion", "message"}, "statistics": {...},
//    "orbit": {"t": [...], "states": {"x": [...]}, "outputs": {"y": [...]}},
//    "branch": {"parameter", "termination", "completed", "message",
//               "points": [{"parameter", "amplitude", "period", "stable", "type",
//                           "floquet_multipliers"}]}}        (only with a sweep)
// "converged"/"completed" and "message" are derived from the termination (RunSummaryJson.h).
// Numbers that are not finite are written as null.
nlohmann::json periodicResultToJson(const job::PeriodicJob::Result& result, const std::string& sweepParameter = {});

}  // namespace sysid::project
