#include "engine/parallel/DistributedFor.h"

#include "engine/core/ThreadPool.h"
#include "engine/parallel/IndexSplit.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <iterator>
#include <mutex>

namespace sysid::parallel {

namespace {

// A process's finished tasks as one text for the gather: [[index, failed, text], ...].
std::string pack(const std::vector<IndexResult>& results)
{
    nlohmann::json out = nlohmann::json::array();
    for (const IndexResult& r : results)
        out.push_back(nlohmann::json::array({r.index, r.failed, r.text}));
    return out.dump();
}

std::vector<IndexResult> unpack(const std::string& text, int rank)
{
    std::vector<IndexResult> results;
    for (const nlohmann::json& item : nlohmann::json::parse(text))
        results.push_back({item.at(0).get<std::size_t>(), rank, item.at(1).get<bool>(), item.at(2).get<std::string>()});
    return results;
}

}  // namespace

std::vector<IndexResult> distributedFor(const ProcessGroup& group, std::size_t count, unsigned threads,
                                        const TaskCompute& compute, const TaskFinished& finished, std::stop_token stop)
{
    const int rank = group.rank();
    const std::size_t mine = countOf(count, rank, group.size());
    // Only finished tasks take memory (sorted by index after): a loop stopped early, or a huge
    // count checked elsewhere against the memory, holds nothing for the work not done.
    std::vector<IndexResult> done;
    std::mutex mutex;
    std::exception_ptr callbackError;
    std::stop_source callbackStop;  // a throwing `finished` ends this process's remaining tasks

    const auto task = [&](std::size_t k, std::size_t slot) {
        std::stop_source combined;
        std::stop_callback a(stop, [&] { combined.request_stop(); });
        std::stop_callback b(callbackStop.get_token(), [&] { combined.request_stop(); });
        if (combined.stop_requested())
            return;
        IndexResult result;
        result.index = indexOf(k, rank, group.size());
        result.rank = rank;
        try {
            std::optional<std::string> text = compute(result.index, slot, combined.get_token());
            if (!text)
                return;
            result.text = std::move(*text);
        } catch (const std::exception& e) {
            result.failed = true;
            result.text = e.what();
        } catch (...) {
            result.failed = true;
            result.text = "an unknown error";
        }
        const std::lock_guard lock(mutex);
        done.push_back(std::move(result));
        if (finished && group.isRoot() && !callbackError) {
            try {
                finished(done.back());
            } catch (...) {
                callbackError = std::current_exception();
                callbackStop.request_stop();
            }
        }
    };
    // One loop per participant claiming the next task, rather than a parallelFor over the tasks,
    // which keeps a slot per task.
    std::atomic<std::size_t> next{0};
    const std::size_t workers = core::ThreadPool::participantsFor(threads, mine);
    if (mine > 0)
        core::ThreadPool::shared().parallelFor(workers, workers, [&](std::size_t, std::size_t slot) {
            for (std::size_t k = next.fetch_add(1); k < mine; k = next.fetch_add(1)) {
                if (stop.stop_requested() || callbackStop.stop_requested())
                    return;
                task(k, slot);
            }
        });

    const auto byIndex = [](const IndexResult& a, const IndexResult& b) { return a.index < b.index; };
    std::sort(done.begin(), done.end(), byIndex);
    const std::vector<std::string> texts = group.gather(pack(done));
    if (!group.isRoot())
        return {};
    std::vector<IndexResult> others;
    for (std::size_t other = 1; other < texts.size(); ++other)
        for (IndexResult& r : unpack(texts[other], static_cast<int>(other)))
            others.push_back(std::move(r));
    std::sort(others.begin(), others.end(), byIndex);
    for (const IndexResult& r : others)
        if (finished && !callbackError) {
            try {
                finished(r);
            } catch (...) {
                callbackError = std::current_exception();
            }
        }
    if (callbackError)
        std::rethrow_exception(callbackError);
    done.insert(done.end(), std::make_move_iterator(others.begin()), std::make_move_iterator(others.end()));
    std::sort(done.begin(), done.end(), byIndex);
    return done;
}

}  // namespace sysid::parallel
