#pragma once

#include "engine/estimate/FitResult.h"

#include <string>
#include <vector>

namespace sysid::cli {

// A fit result as `sysid fit -o RESULT.json` writes it; `option` names where it was given.
estimate::FitResult readFitResult(const std::string& path, const std::string& option);

double parseNumber(const std::string& text, const std::string& option);

}  // namespace sysid::cli
