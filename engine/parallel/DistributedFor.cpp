#include "engine/parallel/DistributedFor.h"

#include "engine/core/ThreadPool.h"
#include "engine/parallel/IndexSplit.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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
    const std::vector<std::size_t> mine = indicesOf(count, rank, group.size());
    std::vector<std::optional<IndexResult>> local(mine.size());
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
        result.index = mine[k];
        result.rank = rank;
        try {
            std::optional<std::string> text = compute(mine[k], slot, combined.get_token());
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
        local[k] = std::move(result);
        if (finished && group.isRoot() && !callbackError) {
            try {
                finished(*local[k]);
            } catch (...) {
                callbackError = std::current_exception();
                callbackStop.request_stop();
            }
        }
    };
    core::ThreadPool::shared().parallelFor(mine.size(), core::ThreadPool::participantsFor(threads, mine.size()), task);

    std::vector<IndexResult> done;
    for (auto& r : local)
        if (r)
            done.push_back(std::move(*r));
    const std::vector<std::string> texts = group.gather(pack(done));
    if (!group.isRoot())
        return {};
    const auto byIndex = [](const IndexResult& a, const IndexResult& b) { return a.index < b.index; };
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
