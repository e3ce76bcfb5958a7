#pragma once

#include "engine/estimate/OptimalEstimation.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace sysid::project {

// The result of `sysid optimal`:
//   {"parameters": {"NAME": {"value", "drift"}}, "cost", "iterations", "converged", "message",
//    "termination": {"kind", "criterion", "message"}, "statistics": {...}, "residual_norm", "times": [...], "states":
//    {"x": [...]}, "inputs": {"u": [...]}, "residuals": {"xi:x": [...], "eps:y": [...]}}
// with "value" theta(a) and "drift" max - min of theta over the data; numbers that are not
// finite are written as null.
nlohmann::json optimalResultToJson(const estimate::OptimalEstimationResult& result);

// The settings a project stores as "optimal_estimation":
//   {"state_weights": {"NAME": W}, "measurement_weights": {"NAME": V},
//    "initial_prior": {"NAME": {"value": q_a, "weight": W_a}}, "shooting_points": 101}
// Only these four members; names are checked against the model when the estimate runs.
nlohmann::json optimalSettingsToJson(const estimate::OptimalEstimationSettings& settings);

// A member of "optimal_estimation" that cannot be read; `key` is the path inside it, such as
// "state_weights.x" (empty for the object itself).
class OptimalSettingsError : public std::invalid_argument {
public:
    OptimalSettingsError(std::string key, std::string message) :
        std::invalid_argument(key.empty() ? message : key + ": " + message), key(std::move(key)),
        message(std::move(message))
    {
    }
    std::string key;
    std::string message;
};

// The inverse; missing members keep their defaults. Throws OptimalSettingsError for an
// unknown member, a value of the wrong type or one that OptimalEstimationSettings::validate
// refuses (its key and rule).
estimate::OptimalEstimationSettings optimalSettingsFromJson(const nlohmann::json& json);

}  // namespace sysid::project
