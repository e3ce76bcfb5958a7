#pragma once

#include "engine/estimate/FitResult.h"

#include <nlohmann/json.hpp>

namespace sysid::project {

// RESULT.json of DESIGN.md:
//   {"parameters": {"NAME": {"value", "std", "initial", "lower95", "upper95"}},
//    "cost", "iterations", "converged", "stop_reason", "cancelled",
//    "residual_rms": {"OUTPUT": rms},
//    "correlation": [[...]],
//    "history": [{"iteration", "cost", "parameters": {"NAME": value}}]}
// Rows and columns of "correlation" follow the keys of "parameters" in the order they are
// written (nlohmann::json sorts keys by name). Numbers that are not finite (an output that is
// not measured, an undeterminable sd) are written as null.
nlohmann::json resultToJson(const estimate::FitResult& result);

}  // namespace sysid::project
