#pragma once

#include <string>

namespace sysid::model {

// A name with its unit as summaries, tables and plot axes show it: "s [m]"; the bare name when
// the model gives no unit.
inline std::string withUnit(const std::string& name, const std::string& unit)
{
    return unit.empty() ? name : name + " [" + unit + "]";
}

}  // namespace sysid::model
