#pragma once

#include <string_view>
#include <vector>

namespace sysid::data {

// The sample interval of uniformly sampled time: (last - first) / (n - 1), after
// checking that every interval equals it to 1e-9 relative. Throws
// std::invalid_argument, starting with `what`, for fewer than 2 samples,
// non-finite or non-increasing time, or non-uniform sampling (naming the first
// interval that differs and suggesting resampling).
double uniformTimeStep(const std::vector<double>& time, std::string_view what);

}  // namespace sysid::data
