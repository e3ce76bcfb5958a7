#include "engine/core/SettingField.h"

#include <charconv>
#include <cmath>

namespace sysid::core {

bool NumberRule::accepts(double value) const
{
    if (!std::isfinite(value))
        return false;
    switch (bound) {
    case Bound::Positive: return value > 0;
    case Bound::NonNegative: return value >= 0;
    case Bound::Finite: break;
    }
    return true;
}

std::string NumberRule::describe() const
{
    if (!text.empty())
        return std::string(text);
    switch (bound) {
    case Bound::Positive: return "a number > 0";
    case Bound::NonNegative: return "a number >= 0";
    case Bound::Finite: break;
    }
    return "a finite number";
}

std::string settingText(double value)
{
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

std::string countRule(std::size_t minimum)
{
    return "a whole number >= " + std::to_string(minimum);
}

}  // namespace sysid::core
