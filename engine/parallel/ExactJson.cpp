#include "engine/parallel/ExactJson.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sysid::parallel {

nlohmann::json exactNumber(double value)
{
    if (std::isfinite(value))
        return value;
    if (std::isnan(value))
        return "nan";
    return value > 0 ? "inf" : "-inf";
}

double exactNumber(const nlohmann::json& json)
{
    if (json.is_number())
        return json.get<double>();
    const std::string text = json.get<std::string>();
    if (text == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    if (text == "inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-inf")
        return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument("not a number: " + text);
}

nlohmann::json exactNumbers(const std::vector<double>& values)
{
    nlohmann::json out = nlohmann::json::array();
    for (const double v : values)
        out.push_back(exactNumber(v));
    return out;
}

std::vector<double> exactNumbers(const nlohmann::json& json)
{
    std::vector<double> out;
    for (const nlohmann::json& item : json)
        out.push_back(exactNumber(item));
    return out;
}

}  // namespace sysid::parallel
