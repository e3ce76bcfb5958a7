#pragma once

#include "engine/estimate/FitResult.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace sysid::project {

// RESULT.json of DESIGN.md:
//   {"parameters": {"NAME": {"value", "std", "initial", "lower95", "upper95", "unit"}},
//    "cost", "iterations", "converged", "stop_reason", "cancelled",
//    "termination": {"kind", "criterion", "message"}, "statistics": {...}, "report": {...},
//    "residual_rms": {"OUTPUT": rms},
//    "residual_analysis": {"OUTPUT": {...}} (ResidualAnalysisJson.h),
//    "noise_sd": {"OUTPUT": {"value", "std", "samples", "unit"}} (maximum likelihood only: each output's noise
//    sd estimated with the parameters, its standard deviation, the samples it rests on and the output's unit),
//    "likelihood": {"minus_two_log_likelihood", "samples", "noise_variances", "parameters"} (fits of output
//    residuals: -2 ln L of the Gaussian likelihood with each output's variance at RSS/n, estimate::Likelihood;
//    AIC = minus_two_log_likelihood + 2 (parameters + noise_variances)),
//    "correlation": [[...]],
//    "history": [{"iteration", "cost", "parameters": {"NAME": value}}]}
// `sysid fit` adds "model": {"file", "text"} (the model fitted) and, for a project with validation
// data sets, "validation": {"DATASET": {"outputs": {"OUTPUT": {"rmse", "nrmse", "fit_percent"}},
// "initial": {"STATE": value}}} (project::validationToJson, ProjectValidation.h).
// Rows and columns of "correlation" follow the keys of "parameters" in the order they are
// written (nlohmann::json sorts keys by name). Numbers that are not finite (an output that is
// not measured, an undeterminable sd) are written as null. "unit" is the model's unit text, "" when
// it gives none. A parameter with a known true value
// (synthetic data) also gets "true" and "relative_error" ((value - true)/|true|; null for 0).
nlohmann::json resultToJson(const estimate::FitResult& result, const std::map<std::string, double>& trueValues = {});

// "converged", "stop_reason" and "cancelled" are derived from the termination (RunSummaryJson.h,
// as "statistics"); "report" is fitReportJson (FitReport.h).
//
// The inverse, for a project's stored last result: parameters come back in the file's order
// (by name), with the correlation and history in that order; null numbers become NaN; the
// covariance is not stored and stays empty. Throws std::invalid_argument for a damaged result.
estimate::FitResult resultFromJson(const nlohmann::json& json);

}  // namespace sysid::project
