#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sysid::core {

// One long-lived pool of worker threads for the whole process and one parallel-for over it.
// Creating threads per call made a 2-thread, 8-interval shooting solve slower than the serial one
// (docs/DECISIONS.md); these threads are created once.
//
// parallelFor(count, participants, task) calls task(index, slot) for every index in [0, count).
// The calling thread works too, together with up to participants - 1 pool threads that are free;
// `slot` (0 .. participants - 1) tells which participant runs the call, so per-thread resources
// (a compiled model, an ODE system clone) can be kept per slot. Because the caller always works
// through the indices itself, a parallelFor inside a task (a fit inside a noise-study realisation)
// never waits for a busy pool: it simply runs with fewer helpers. The statistics collector of the
// calling thread (core::currentStatistics) is installed in the helpers while they work for it.
//
// When tasks throw, the exception of the lowest failing index is rethrown after every running task
// has finished; indices above a known failure are skipped (they cannot change which one that is),
// so the outcome is the same for any thread count.
class ThreadPool {
public:
    using Task = std::function<void(std::size_t index, std::size_t slot)>;

    // The process's pool: hardware concurrency - 1 workers (the caller is the remaining one).
    static ThreadPool& shared();

    explicit ThreadPool(std::size_t workers);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    std::size_t workerCount() const { return threads_.size(); }

    // participants: at most this many threads work on the call, the caller included; 0 = as many
    // as there are cores. Never more than `count`.
    void parallelFor(std::size_t count, std::size_t participants, const Task& task);

    // What `participants = 0` means for a call over `count` indices, for callers that size per-slot
    // resources before the call.
    static std::size_t participantsFor(std::size_t requested, std::size_t count);

private:
    void workerLoop();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace sysid::core
