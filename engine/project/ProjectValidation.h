#pragma once

#include "engine/job/Comparison.h"
#include "engine/project/Project.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::project {

// Indices (into Project::data) of the data sets kept to judge a fit: included, role validation.
std::vector<std::size_t> validationDataSets(const Project& project);

// One validation data set compared with the fitted model, or why that failed.
struct DataSetComparison {
    std::size_t dataSet = 0;  // index in the project
    std::string name;  // the data set's name, else its path
    std::optional<job::Comparison> comparison;
    std::string error;  // set when comparison is empty
};

// Each validation data set read and compared (job::compareWithRecord) with `fit`'s model at
// `estimates`; a data set that cannot be read or simulated gets its error, the others go on.
std::vector<DataSetComparison> compareValidationDataSets(const Project& project, const job::FitJob& fit,
                                                         const std::map<std::string, double>& estimates,
                                                         job::InitialValues initial, std::stop_token stop = {});

// One line per data set for a text report: "validation on NAME: y rmse 0.01, nrmse 0.05, fit 95.2 %".
std::string validationReport(const std::vector<DataSetComparison>& comparisons);

// The "validation" block of a fit result: {"NAME": comparisonToJson, or {"error": message}}.
nlohmann::json validationToJson(const std::vector<DataSetComparison>& comparisons);

}  // namespace sysid::project
