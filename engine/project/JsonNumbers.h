#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

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

// Column c of a matrix as an array (finiteOrNull each).
template <class Matrix>
nlohmann::json columnOrNulls(const Matrix& m, typename Matrix::Index c)
{
    nlohmann::json values = nlohmann::json::array();
    for (typename Matrix::Index r = 0; r < m.rows(); ++r)
        values.push_back(finiteOrNull(m(r, c)));
    return values;
}

// {"NAME": value} for the names and values in the same order (finiteOrNull each).
inline nlohmann::json namedValues(const std::vector<std::string>& names, const std::vector<double>& values)
{
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t k = 0; k < names.size() && k < values.size(); ++k)
        out[names[k]] = finiteOrNull(values[k]);
    return out;
}

}  // namespace sysid::project
