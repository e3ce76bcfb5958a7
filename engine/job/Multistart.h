#pragma once

#include "engine/core/SettingField.h"
#include "engine/core/Termination.h"
#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"
#include "engine/job/LatinHypercube.h"
#include "engine/job/PreparedFit.h"
#include "engine/parallel/ProcessGroup.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// How a multistart runs (`sysid fit --multistart N --seed S`, the GUI's multistart view, a project's
// "multistart" object).
struct MultistartSettings {
    std::size_t starts = 20;  // fits from as many starting points
    std::size_t seed = 1;  // of the design: the same seed draws the same starts
    // Two fits reached the same minimum when their costs agree within this relative tolerance and
    // their parameters, scaled to the design's unit cube, within this absolute one.
    double tolerance = 1e-3;
    bool operator==(const MultistartSettings&) const = default;

    // Throws core::SettingError for a setting that breaks its rule in multistartFields().
    void validate() const;
};

// Key in a project's "multistart" object, `sysid fit` option, help and rule of each setting.
const core::FieldTable<MultistartSettings>& multistartFields();

// One start: where it began and where its local fit ended.
struct MultistartStart {
    std::size_t index = 0;
    std::vector<double> initial;  // every unknown, MultistartResult::parameterNames order
    std::vector<double> final;  // empty when the fit failed
    double cost = 0;  // the fit's cost (FitResult::cost); NaN when it failed
    core::TerminationKind kind = core::TerminationKind::Failed;
    std::string stopReason;  // the fit's termination message, or why it could not run
    std::size_t iterations = 0;
    int rank = 0;  // the process that computed it (0 without MPI)

    bool converged() const { return kind == core::TerminationKind::Converged; }
};

// The starts that ended at the same minimum.
struct MultistartMinimum {
    double cost = 0;  // the lowest of its starts
    std::vector<double> parameters;  // of that start
    std::size_t start = 0;  // its index
    std::vector<std::size_t> starts;  // every start that reached it, in index order
};

struct MultistartResult {
    std::string method;
    MultistartSettings settings;
    std::vector<std::string> parameterNames;  // every unknown of the fit
    std::vector<SampleRange> ranges;  // the design's box, per unknown
    std::vector<MultistartStart> starts;  // the computed ones, in index order
    // The minima the converged starts reached, lowest cost first; the first is the result.
    std::vector<MultistartMinimum> minima;
    std::optional<std::size_t> best;  // index of the start whose fit is `fit`; none when every start failed
    estimate::FitResult fit;  // the best start's whole result
    double fractionBest = 0;  // of the starts (failed ones included) that reached the best minimum
    std::size_t failed = 0;  // starts whose fit could not run
    int ranks = 1;  // processes that computed the starts
    bool cancelled = false;
};

// A multistart prepared: the fit's model compiled, its records read, the design drawn. Start i is
// a function of (seed, i) alone, so any split of the indices over threads or processes computes
// the same starts; `summarise` turns the starts into the result.
class MultistartPlan {
public:
    // Throws JobError: Settings for settings that break their rules or an unknown whose bounds are
    // not finite; Model, Data, Settings as FitJob::run for a fit that cannot be set up.
    MultistartPlan(const FitJob& fit, const MultistartSettings& settings);

    std::size_t count() const { return design_.count(); }
    const PreparedFit& prepared() const { return prepared_; }
    const LatinHypercube& design() const { return design_; }

    // Fits start `index` on its own. A fit that cannot run (the model blows up, a singular
    // Jacobian) is recorded with its reason, not thrown. `fit` receives the whole result when given.
    MultistartStart runStart(std::size_t index, std::stop_token stop = {}, estimate::FitResult* fit = nullptr) const;

    // The result of the computed `starts` (any order; each index at most once): the minima, the
    // best, its fraction. `bestFit` is the best start's whole result when the caller kept it;
    // otherwise that start is fitted again here (it gives the same result).
    MultistartResult summarise(std::vector<MultistartStart> starts, const estimate::FitResult* bestFit = nullptr,
                               std::stop_token stop = {}) const;

private:
    MultistartSettings settings_;
    PreparedFit prepared_;
    LatinHypercube design_;
};

// Multistart of a fit: starts drawn by a Latin hypercube within the bounds (log-uniform for a
// parameter whose bounds are positive and span more than a decade), each fitted by the fit's
// method, in parallel; the lowest cost is the result.
struct Multistart {
    FitJob fit;
    MultistartSettings settings;
    unsigned threads = 0;  // 0: std::thread::hardware_concurrency()
    // The processes the starts are spread over (parallel::distributedFor); nullptr: this one. Every
    // process calls run; the result is process 0's (the others get an empty one with `ranks` set).
    const parallel::ProcessGroup* processes = nullptr;

    struct Progress {
        const MultistartStart* start = nullptr;  // the start just finished
        std::size_t done = 0, total = 0;
        double bestCost = 0;  // the lowest cost so far (NaN before any)
    };
    // Called after each start, serialised, on a worker thread. Must not block long.
    using ProgressCallback = std::function<void(const Progress&)>;
    // Which start indices this call computes (empty: all).
    using IndexFilter = std::function<bool(std::size_t)>;

    // The computed starts of `plan` in index order, fitted in parallel; `bestFit` receives the whole
    // result of the best of them. `stop` ends the running fits; the starts not begun are left out.
    static std::vector<MultistartStart> runStarts(const MultistartPlan& plan, unsigned threads,
                                                  const ProgressCallback& progress, std::stop_token stop,
                                                  const IndexFilter& compute = {},
                                                  estimate::FitResult* bestFit = nullptr);

    // Throws JobError as MultistartPlan. The result does not depend on the thread or process count.
    // Over several processes `progress` is called on process 0 only.
    MultistartResult run(const ProgressCallback& progress = {}, std::stop_token stop = {}) const;

private:
    MultistartResult runOverProcesses(const MultistartPlan& plan, const ProgressCallback& progress,
                                      std::stop_token stop) const;
};

}  // namespace sysid::job
