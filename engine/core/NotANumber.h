#pragma once

#include <limits>

namespace sysid::core {

// The quiet NaN that marks a value not computed (a failed start, a statistic of no samples).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace sysid::core
