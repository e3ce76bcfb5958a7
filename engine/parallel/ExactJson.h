#pragma once

#include <nlohmann/json.hpp>

#include <vector>

namespace sysid::parallel {

// Doubles in the text a task sends to process 0 (see DistributedFor), so that they read back bit
// for bit: a finite number as nlohmann writes it (the shortest text that reads back to the same
// double), the others as "nan", "inf" or "-inf" (JSON has no such numbers; nlohmann writes null).
nlohmann::json exactNumber(double value);
double exactNumber(const nlohmann::json& json);

nlohmann::json exactNumbers(const std::vector<double>& values);
std::vector<double> exactNumbers(const nlohmann::json& json);

}  // namespace sysid::parallel
