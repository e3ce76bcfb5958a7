#pragma once

#include "engine/job/NoiseStudy.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace sysid::project {

// The settings a project stores as "study":
//   {"realisations": 100, "noise_percent": 5, "distribution": "uniform", "seed": 1}
nlohmann::json studySettingsToJson(const job::NoiseStudySettings& settings);

// A member of "study" that cannot be read; `key` is its name inside "study" (empty for the
// object itself).
class StudySettingsError : public std::invalid_argument {
public:
    StudySettingsError(std::string key, std::string message) :
        std::invalid_argument(key.empty() ? message : key + ": " + message), key(std::move(key)),
        message(std::move(message))
    {
    }
    std::string key;
    std::string message;
};

// The inverse; missing members keep their defaults. Throws StudySettingsError for an unknown
// member, realisations < 1, a noise percent that is not a finite number > 0, an unknown
// distribution or a seed that is not a whole number >= 0.
job::NoiseStudySettings studySettingsFromJson(const nlohmann::json& json);

// The result of `sysid study`:
//   {"kind": "monte-carlo" | "bootstrap", "method", "settings": {study settings}, "completed",
//    "failed", "not_converged", "cancelled", "ranks" (processes the study was spread over),
//    "parameters": {"NAME": {"true", "estimate", "count", "mean", "sd", "standard_error", "bias",
//                            "bias_percent", "min", "q1", "median", "q3", "max", "percentile_2_5",
//                            "percentile_97_5", "lower_whisker", "upper_whisker"}},
//    "realisations": [{"index", "seed", "failed", "converged", "iterations", "cost",
//                      "message", "rank" (the process that fitted it), "estimates": {"NAME": value}}]}
// Numbers that are not finite (an unknown true value) are written as null.
nlohmann::json studyResultToJson(const job::NoiseStudyResult& result);

// One row per finished realisation: realisation, seed, failed (0/1), converged (0/1),
// iterations, cost, one column per parameter, message (quoted). A failed realisation has
// empty estimate and cost cells.
std::string studyResultToCsv(const job::NoiseStudyResult& result);

}  // namespace sysid::project
