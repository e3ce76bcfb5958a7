#pragma once

#include "engine/job/ProfileLikelihood.h"
#include "engine/project/Project.h"

#include <nlohmann/json.hpp>

namespace sysid::project {

// The settings of a profile as its result records them: {"points": 20, "confidence": 0.95, "simultaneous": false}.
nlohmann::json profileSettingsToJson(const job::ProfileSettings& settings);

// What a project stores as "profile": the settings and, when not every estimated parameter, the
// parameters to profile: {"points": 20, "confidence": 0.95, "simultaneous": false, "parameters": ["k"]}.
nlohmann::json profileSetupToJson(const Project::ProfileSetup& setup);
// The inverse; missing members keep their defaults. Throws FieldJsonError (SettingsJson.h) with
// the member's key for an unknown member, a wrong type or a value breaking its rule.
Project::ProfileSetup profileSetupFromJson(const nlohmann::json& json);

// The result of `sysid profile`:
//   {"method", "settings": {profile settings}, "threshold", "objective_at_optimum", "residual_variance",
//    "estimates": {"NAME": value}, "ranks", "cancelled",
//    "profiles": {"NAME": {"points": [{"value", "objective", "parameters": {"NAME": value}, "converged",
//                                      "rank", "at_bound": [NAME] (re-fitted unknowns on a bound, if any)}],
//                          "interval": [LOW | null, HIGH | null], "wald_interval": [LOW, HIGH],
//                          "verdict": "identifiable" | "practically non-identifiable" |
//                                     "structurally non-identifiable",
//                          "estimate", "sd", "unit", "largest_rise", "largest_rise_off_bounds",
//                          "lower": {"end": "crossed" | "limit" | "points" | "failed" | "cancelled",
//                                    "limit", "message", "failures": [{"value", "message"}]},
//                          "upper": {...}}},
//    "lower_optimum": {"objective", "parameters": {...}} (only when a profile met a lower objective)}
// "objective" is -2 log-likelihood up to a constant; points run from the lowest value to the highest,
// the optimum among them. Numbers that are not finite are written as null.
nlohmann::json profileResultToJson(const job::ProfileResult& result);

}  // namespace sysid::project
