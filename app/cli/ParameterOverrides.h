#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/model/Model.h"

#include <string>
#include <vector>

namespace sysid::cli {

// The model's parameter values with, first, the estimates of a fit result (when `estimates` is
// given; `estimatesFile` names it in messages) and then "--set NAME=VALUE" arguments. A malformed
// argument is a UsageError; an unknown parameter name, or an estimate the model does not have, a
// UserError. Initial values of a fit's later records ("x(0)#2") are not the model's: left out.
std::vector<double> parameterValues(const model::Model& model, const std::vector<std::string>& assignments,
                                    const estimate::FitResult* estimates = nullptr,
                                    const std::string& estimatesFile = {});

// A fit result as `sysid fit -o RESULT.json` writes it; `option` names where it was given.
estimate::FitResult readFitResult(const std::string& path, const std::string& option);

double parseNumber(const std::string& text, const std::string& option);

}  // namespace sysid::cli
