#pragma once

#include "engine/estimate/OptimalEstimation.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace sysid::project {

// The result of `sysid optimal`:
//   {"parameters": {"NAME": {"value", "drift"}}, "cost", "iterations", "converged", "message",
//    "termination": {"kind", "criterion", "message"}, "statistics": {...}, "residual_norm", "times": [...], "states":
//    {"x": [...]}, "inputs": {"u": [...]}, "residuals": {"xi:x": [...], "eps:y": [...]},
//    "costates": {"x": [...], "theta": [...]}, "parameter_traces": {"theta": [...]},
//    "stiffness": {"at_guess": STIFFNESS, "at_solution": STIFFNESS}}
// with "value" theta(a) and "drift" max - min of theta over the data; numbers that are not
// finite are written as null. STIFFNESS is {"times", "kappa", "kappa_min", "kappa_min_time",
// "points", "kappa_dt", "suggested_points"} (Rutten 1993, sec. 5.3; kappa = min Re(lambda)).
nlohmann::json optimalResultToJson(const estimate::OptimalEstimationResult& result);
// STIFFNESS alone (what `sysid optimal --diagnose -o FILE` writes under "stiffness"."at_guess").
nlohmann::json stiffnessToJson(const estimate::StiffnessDiagnostics& diagnostics);

// The inverse, for starting a run from a result (costates and parameter traces are absent from
// results written before they were added; such a run starts its costates at 0) and for showing
// a stored result. Throws std::invalid_argument naming the member that cannot be read.
estimate::OptimalEstimationResult optimalResultFromJson(const nlohmann::json& json);

// A result file of `sysid optimal` read as the trajectories to start from; throws
// std::invalid_argument naming the file (and the member) when it cannot be read.
estimate::StartTrajectory loadStartTrajectory(const std::string& path);

// The settings a project stores as "optimal_estimation":
//   {"state_weights": {"NAME": W}, "measurement_weights": {"NAME": V},
//    "initial_prior": {"NAME": {"value": q_a, "weight": W_a}}, "shooting_points": 101, "max_iterations": 50,
//    "initial_guess": {"NAME": "EXPRESSION"}, "guess_from": "RESULT.json" | "last_result",
//    "stages": [{"integrator": {"method", "rtol", "atol"}, "steps_per_interval", "newton_tolerance",
//                "previous_jacobians"}, ...]}
// (estimate::optimalEstimationSettingFields and optimalEstimationStageFields). The older
// "first_stage": {"method", "steps_per_interval"} is read as the first stage's. Names are checked
// against the model when the estimate runs; "guess_from" is written and read as given (Project
// resolves it against the project's folder).
nlohmann::json optimalSettingsToJson(const estimate::OptimalEstimationSettings& settings);

// A member of "optimal_estimation" that cannot be read; `key` is the path inside it, such as
// "state_weights.x" or "stages.2.integrator.rtol" (stages counted from 1; empty for the object itself).
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
