#include "engine/core/ThreadPool.h"

#include "engine/core/SolverStatistics.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <memory>

namespace sysid::core {

namespace {

std::size_t cores()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

// The shared state of one parallelFor call; helpers hold it by shared_ptr, so a helper that
// wakes up after the call has returned finds nothing left to do and touches no dead stack.
struct Call {
    std::size_t count = 0;
    const ThreadPool::Task* task = nullptr;
    RunStatistics* statistics = nullptr;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> slots{0};
    std::atomic<std::size_t> lowestFailure{std::numeric_limits<std::size_t>::max()};
    std::vector<std::exception_ptr> errors;
    std::mutex mutex;
    std::condition_variable done;
    std::size_t active = 0;  // participants inside work(), under mutex
    bool finished = false;  // every index claimed; under mutex

    void work(std::size_t slot)
    {
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= count)
                return;
            if (i > lowestFailure.load())
                continue;
            try {
                (*task)(i, slot);
            } catch (...) {
                errors[i] = std::current_exception();
                std::size_t seen = lowestFailure.load();
                while (i < seen && !lowestFailure.compare_exchange_weak(seen, i)) {
                }
            }
        }
    }

    // A helper's whole turn: join unless the call is over, work, leave.
    void help()
    {
        std::size_t slot = 0;
        {
            std::lock_guard lock(mutex);
            if (finished)
                return;
            ++active;
            slot = slots.fetch_add(1);
        }
        {
            StatisticsScope scope(statistics);
            work(slot);
        }
        std::lock_guard lock(mutex);
        if (--active == 0)
            done.notify_all();
    }
};

}  // namespace

ThreadPool& ThreadPool::shared()
{
    static ThreadPool pool(cores() - 1);
    return pool;
}

ThreadPool::ThreadPool(std::size_t workers)
{
    threads_.reserve(workers);
    for (std::size_t i = 0; i < workers; ++i)
        threads_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_)
        t.join();
}

void ThreadPool::workerLoop()
{
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty())
                return;
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job();
    }
}

std::size_t ThreadPool::participantsFor(std::size_t requested, std::size_t count)
{
    const std::size_t wanted = requested == 0 ? cores() : requested;
    return std::max<std::size_t>(1, std::min(wanted, count));
}

void ThreadPool::parallelFor(std::size_t count, std::size_t participants, const Task& task)
{
    if (count == 0)
        return;
    participants = std::min(participantsFor(participants, count), threads_.size() + 1);
    auto call = std::make_shared<Call>();
    call->count = count;
    call->task = &task;
    call->statistics = currentStatistics();
    call->errors.resize(count);
    call->slots = 1;  // slot 0 is the caller's
    if (participants > 1) {
        {
            std::lock_guard lock(mutex_);
            for (std::size_t h = 1; h < participants; ++h)
                queue_.emplace_back([call] { call->help(); });
        }
        wake_.notify_all();
    }
    call->work(0);
    {
        // Every index is claimed: no helper may join any more; wait for those still working.
        std::unique_lock lock(call->mutex);
        call->finished = true;
        call->done.wait(lock, [&] { return call->active == 0; });
    }
    for (const auto& e : call->errors)
        if (e)
            std::rethrow_exception(e);
}

}  // namespace sysid::core
