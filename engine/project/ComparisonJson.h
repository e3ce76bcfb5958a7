#pragma once

#include "engine/job/Comparison.h"

#include <nlohmann/json.hpp>

#include <string>

namespace sysid::project {

// A comparison as `sysid compare -o OUT.json` writes it, and as each data set of a fit result's
// "validation" block holds it:
//   {"outputs": {"OUTPUT": {"rmse", "nrmse", "fit_percent"}}, "initial": {"STATE": value}}
// Only the outputs the record measures; numbers that are not finite are null.
nlohmann::json comparisonToJson(const job::Comparison& comparison);

// The record and the simulation as CSV: "t", then per model output "NAME measured" (outputs the
// record measures) and "NAME simulated"; numbers as the shortest text that reads back exactly.
std::string comparisonCsv(const job::Comparison& comparison);

}  // namespace sysid::project
