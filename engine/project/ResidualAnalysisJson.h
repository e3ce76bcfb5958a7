#pragma once

#include "engine/estimate/ResidualAnalysis.h"

#include <nlohmann/json.hpp>

namespace sysid::project {

// The result JSON's "residual_analysis", one member per analysed output:
//   {"OUTPUT": {"samples": N, "lags": [0, ..., L], "autocorrelation": [...], "bound": b, "tested": L,
//               "outside": k, "white": true|false,
//               "cross_correlation": {"INPUT": {"lags": [-L, ..., L], "values": [...], "bound": b,
//                                               "tested": 2L + 1, "outside": k, "uncorrelated": true|false}},
//               "verdict": "residuals of OUTPUT are white (...)"}}
// Bounds are the 99 % intervals ±bound of each normalised correlation (null: none could be
// determined); lag τ of a cross-correlation pairs e(t) with u(t - τ).
nlohmann::json residualAnalysisToJson(const estimate::ResidualAnalysis& analysis);

// The inverse (outputs in the file's order, by name); a missing member is an empty analysis.
// Throws nlohmann::json::exception or std::invalid_argument for a damaged one.
estimate::ResidualAnalysis residualAnalysisFromJson(const nlohmann::json& json);

}  // namespace sysid::project
