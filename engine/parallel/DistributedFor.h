#pragma once

#include "engine/parallel/ProcessGroup.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::parallel {

// One index's outcome as it reaches process 0.
struct IndexResult {
    std::size_t index = 0;
    int rank = 0;  // the process that computed it
    bool failed = false;  // compute threw; `text` is the exception's message
    std::string text;  // what compute returned
};

// Runs a loop of independent tasks over the processes of `group` and, inside each process, over
// `threads` threads of core::ThreadPool (0: every core), and collects every task's result on
// process 0 in index order. This is how a study's realisations, a multistart's starts, a profile's
// sides and a cost surface's rows are spread over an MPI job:
//
//   const auto results = parallel::distributedFor(group, N, threads,
//       [&](std::size_t i, std::size_t slot, std::stop_token stop) -> std::optional<std::string> {
//           return toText(computeTask(i, perThread[slot], stop));  // std::nullopt: stopped
//       },
//       [&](const parallel::IndexResult& r) { /* progress on process 0 */ }, stop);
//   if (group.isRoot()) for (const auto& r : results) assemble(r.index, r.rank, fromText(r.text));
//
// - Which indices a process computes is fixed by parallel::indicesOf (round robin), so the result
//   never depends on the number of processes or threads, provided task i depends on i alone and
//   its text is exact (parallel/ExactJson writes doubles so that they read back bit for bit). The
//   single-process run takes the same path through the text, so the two are the same bit for bit.
// - An exception out of compute is caught and returned as a failed IndexResult with its message:
//   a failing task never ends the loop and never leaves another process waiting.
// - `finished` is called on process 0 only, serialised: for its own tasks as they finish, then
//   for the other processes' tasks, in index order, when they arrive. An exception out of it
//   stops this process's remaining tasks and is rethrown after the results are gathered.
// - `slot` (below core::ThreadPool::shared().workerCount() + 1) tells which thread runs the task,
//   for resources kept per thread (a compiled model), as in ThreadPool::parallelFor.
// - `stop` ends this process's unfinished tasks (they are left out of the result); the processes
//   still meet to gather what was done.
// - Collective: every process of `group` calls it with the same count.
using TaskCompute =
    std::function<std::optional<std::string>(std::size_t index, std::size_t slot, std::stop_token stop)>;
using TaskFinished = std::function<void(const IndexResult&)>;

std::vector<IndexResult> distributedFor(const ProcessGroup& group, std::size_t count, unsigned threads,
                                        const TaskCompute& compute, const TaskFinished& finished = {},
                                        std::stop_token stop = {});

}  // namespace sysid::parallel
