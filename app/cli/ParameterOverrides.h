#pragma once

#include "engine/model/Model.h"

#include <string>
#include <vector>

namespace sysid::cli {

// Applies "--set NAME=VALUE" arguments to the model's parameter values.
// A malformed argument is a UsageError; an unknown parameter name is a UserError.
std::vector<double> parameterValues(const model::Model& model, const std::vector<std::string>& assignments);

double parseNumber(const std::string& text, const std::string& option);

}  // namespace sysid::cli
