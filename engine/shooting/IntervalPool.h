#pragma once

#include "engine/shooting/BoundaryValueProblem.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace sysid::shooting {

// Runs one task per shooting interval on the process's thread pool (core::ThreadPool), each
// participating thread with its own clone of the ODE system. Every interval's result depends only
// on its own inputs, so results are bit-identical for any thread count.
class IntervalPool {
public:
    IntervalPool(const OdeSystem& prototype, std::size_t threads, std::size_t intervals);

    std::size_t threads() const { return systems_.size(); }
    // Calls task(system, interval) for every interval; rethrows the exception of the
    // lowest-numbered failing interval after all running tasks have finished.
    void run(const std::function<void(OdeSystem& system, std::size_t interval)>& task);

private:
    std::size_t intervals_;
    std::vector<std::unique_ptr<OdeSystem>> systems_;
};

}  // namespace sysid::shooting
