#include "engine/shooting/IntervalPool.h"

#include "engine/core/ThreadPool.h"

namespace sysid::shooting {

IntervalPool::IntervalPool(const OdeSystem& prototype, std::size_t threads, std::size_t intervals) :
    intervals_(intervals)
{
    const std::size_t participants = core::ThreadPool::participantsFor(threads, intervals);
    for (std::size_t i = 0; i < participants; ++i)
        systems_.push_back(prototype.clone());
}

void IntervalPool::run(const std::function<void(OdeSystem& system, std::size_t interval)>& task)
{
    core::ThreadPool::shared().parallelFor(
        intervals_, systems_.size(), [&](std::size_t interval, std::size_t slot) { task(*systems_[slot], interval); });
}

}  // namespace sysid::shooting
