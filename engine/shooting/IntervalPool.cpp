#include "engine/shooting/IntervalPool.h"

#include <algorithm>
#include <exception>
#include <thread>

namespace sysid::shooting {

IntervalPool::IntervalPool(const OdeSystem& prototype, std::size_t threads, std::size_t intervals) :
    intervals_(intervals)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::max<std::size_t>(1, std::min(threads, intervals));
    for (std::size_t i = 0; i < threads; ++i)
        systems_.push_back(prototype.clone());
}

void IntervalPool::run(const std::function<void(OdeSystem& system, std::size_t interval)>& task)
{
    std::vector<std::exception_ptr> errors(intervals_);
    const std::size_t workers = systems_.size();
    auto work = [&](std::size_t worker) {
        const std::size_t begin = intervals_ * worker / workers;
        const std::size_t end = intervals_ * (worker + 1) / workers;
        for (std::size_t i = begin; i < end; ++i) {
            try {
                task(*systems_[worker], i);
            } catch (...) {
                errors[i] = std::current_exception();
                return;  // later intervals of this block are not needed: the evaluation failed
            }
        }
    };
    if (workers == 1) {
        work(0);
    } else {
        std::vector<std::jthread> pool;
        pool.reserve(workers - 1);
        for (std::size_t w = 1; w < workers; ++w)
            pool.emplace_back(work, w);
        work(0);
    }  // jthreads join here
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
}

}  // namespace sysid::shooting
