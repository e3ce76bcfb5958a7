#include "engine/core/MemoryBudget.h"

#include "engine/core/InputFile.h"

#include <algorithm>
#include <cmath>

#include <sys/resource.h>
#include <unistd.h>

namespace sysid::core {

double availableMemoryBytes()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    double bytes = pages > 0 && pageSize > 0 ? static_cast<double>(pages) * static_cast<double>(pageSize) : 1e18;
    for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
        rlimit limit{};
        if (::getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
            bytes = std::min(bytes, static_cast<double>(limit.rlim_cur));
    }
    return bytes;
}

std::string memoryProblem(double bytes, const std::string& what)
{
    const double budget = availableMemoryBytes() / 2;
    if (std::isfinite(bytes) && bytes <= budget)
        return {};
    return what + " needs " +
        (std::isfinite(bytes) && bytes < 1e30 ? describeBytes(bytes) : std::string("more than 1e30 bytes")) +
        " of memory, more than the " + describeBytes(budget) + " this machine can give it (half of its " +
        describeBytes(availableMemoryBytes()) + ")";
}

}  // namespace sysid::core
