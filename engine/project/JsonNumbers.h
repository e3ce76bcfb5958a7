#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace sysid::project {

// JSON has no NaN or infinity: a number that is not finite is written as null and read back as NaN.
inline nlohmann::json finiteOrNull(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

inline double numberOrNaN(const nlohmann::json& j)
{
    return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace sysid::project
