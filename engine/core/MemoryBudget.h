#pragma once

#include <string>

namespace sysid::core {

// The memory this process can have: the machine's physical memory, lowered by the address-space
// and data limits (ulimit -v, -d) where those are set.
double availableMemoryBytes();

// Why storage of `bytes` (computed in floating point, so that an absurd count does not wrap
// around) cannot be allocated, or "" when it fits in half of availableMemoryBytes() (the rest
// is for the work itself). `what` says what it is for: "the cost surface of 10^24 grid points".
std::string memoryProblem(double bytes, const std::string& what);

}  // namespace sysid::core
