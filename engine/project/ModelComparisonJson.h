#pragma once

#include "engine/job/ModelComparison.h"

#include <nlohmann/json.hpp>

#include <string>

namespace sysid::project {

// Several fitted models on one record, as `sysid compare A.json B.json --data DATA.csv -o OUT.json`
// writes it:
//   {"data", "criteria": "<the formulas>", "weights": {"OUTPUT": w},
//    "models": [{"name", "method", "parameters", "residuals", "cost", "aic", "aicc", "bic", "delta_aic",
//                "outputs": {"OUTPUT": {"rmse", "nrmse", "fit_percent"}}} | {"name", "method", "error"}],
//    "best": NAME, "note": "..." (when the models compare different outputs)}
// Numbers that are not finite are null.
nlohmann::json modelComparisonToJson(const job::ModelComparison& comparison);

// The same table as CSV, one row per model: model, method, parameters, residuals, cost, aic, aicc, bic,
// delta_aic, then rmse / nrmse / fit_percent per compared output ("OUTPUT rmse", ...), error.
std::string modelComparisonCsv(const job::ModelComparison& comparison);

// One line that says how cost and the criteria are computed (for files, tables and the GUI).
std::string informationCriteriaFormulas();

}  // namespace sysid::project
