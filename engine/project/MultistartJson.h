#pragma once

#include "engine/job/Multistart.h"
#include "engine/project/SettingsJson.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sysid::project {

// The settings a project stores as "multistart": {"starts": 20, "seed": 1, "tolerance": 0.001}.
nlohmann::json multistartSettingsToJson(const job::MultistartSettings& settings);
// The inverse; missing members keep their defaults. Throws FieldJsonError naming the member (an
// unknown one, a wrong type, a value that breaks its rule).
job::MultistartSettings multistartSettingsFromJson(const nlohmann::json& json);

// One start: {"index", "initial": {"NAME": value}, "final": {"NAME": value} (absent when it failed),
// "cost" (null when it failed), "status": "converged" | "iteration_limit" | "cancelled" | "failed",
// "stop_reason", "iterations", "rank"}. Numbers round-trip exactly (17 digits), so that starts
// computed elsewhere and read back summarise to the same result.
nlohmann::json multistartStartToJson(const job::MultistartStart& start, const std::vector<std::string>& names);
// The inverse; `names` gives the order of the values. Throws std::invalid_argument for a member
// missing or of the wrong type.
job::MultistartStart multistartStartFromJson(const nlohmann::json& json, const std::vector<std::string>& names);

// The "multistart" object of a fit's result:
//   {"settings": {...}, "seed", "method", "starts_total", "completed", "failed", "cancelled", "ranks",
//    "best_start", "fraction_best", "ranges": {"NAME": {"lower", "upper", "logarithmic"}},
//    "starts": [start, ...] (index order),
//    "minima": [{"cost", "parameters": {"NAME": value}, "count", "start", "starts": [index, ...]}, ...]}
// (minima lowest cost first; the first is the result).
nlohmann::json multistartToJson(const job::MultistartResult& result);

}  // namespace sysid::project
