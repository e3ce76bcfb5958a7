#include "engine/job/Multistart.h"

#include "engine/core/NotANumber.h"
#include "engine/core/ThreadPool.h"
#include "engine/parallel/DistributedFor.h"
#include "engine/parallel/ExactJson.h"
#include "engine/data/Text.h"
#include "engine/estimate/MethodTraits.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <tuple>

namespace sysid::job {

namespace {

using core::kNaN;

std::vector<SampleRange> designRanges(const PreparedFit& prepared)
{
    std::vector<SampleRange> ranges;
    std::vector<std::string> open;
    for (const FitUnknown& u : prepared.unknowns()) {
        if (!(std::isfinite(u.lower) && std::isfinite(u.upper)))
            open.push_back(u.name + " [" + data::formatNumber(u.lower, 6) + ", " + data::formatNumber(u.upper, 6) +
                           "]");
        else
            ranges.push_back(SampleRange::forBounds(u.lower, u.upper));
    }
    if (!open.empty())
        throw JobError(
            JobError::Kind::Settings,
            "multistart: the starts are drawn within the bounds, and these estimated parameters have none: " +
                data::nameList(open) +
                "; give each finite bounds in the model (param k = 1 [LOW, HIGH]; an estimated initial value: "
                "state x = 1 [LOW, HIGH] estimate, or x(0) = 1 [LOW, HIGH] estimate)");
    if (ranges.empty())
        throw JobError(JobError::Kind::Settings, "multistart: the fit estimates nothing");
    return ranges;
}

PreparedFit checkedPreparation(const FitJob& fit, const MultistartSettings& settings)
{
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        throw JobError(JobError::Kind::Settings, std::string("multistart: ") + e.what());
    }
    return PreparedFit(fit);
}

// The order of preference among starts: converged ones first, then by cost, then by index. A
// total order, so that the best does not depend on the order in which the starts finished.
auto rankOf(const MultistartStart& s)
{
    const double cost = std::isfinite(s.cost) ? s.cost : std::numeric_limits<double>::infinity();
    return std::make_tuple(s.converged() ? 0 : 1, cost, s.index);
}

bool usable(const MultistartStart& s)
{
    return std::isfinite(s.cost) && !s.final.empty();
}

// A start as the text it travels to process 0 in (parallel::distributedFor); the index and the
// initial values are the design's, so they do not travel.
std::string startText(const MultistartStart& s)
{
    const nlohmann::json out = {{"kind", core::terminationKinds.name(s.kind)},
                                {"reason", s.stopReason},
                                {"iterations", s.iterations},
                                {"cost", parallel::exactNumber(s.cost)},
                                {"final", parallel::exactNumbers(s.final)}};
    return out.dump();
}

// The inverse; a task that threw is a failed start with its message.
MultistartStart startOf(const parallel::IndexResult& r, const MultistartPlan& plan)
{
    MultistartStart s;
    s.index = r.index;
    s.rank = r.rank;
    s.initial = plan.design().point(r.index);
    s.cost = kNaN;
    if (r.failed) {
        s.kind = core::TerminationKind::Failed;
        s.stopReason = r.text;
        return s;
    }
    const nlohmann::json in = nlohmann::json::parse(r.text);
    s.kind = core::terminationKinds.parse(in.at("kind").get<std::string>()).value_or(core::TerminationKind::Failed);
    s.stopReason = in.at("reason").get<std::string>();
    s.iterations = in.at("iterations").get<std::size_t>();
    s.cost = parallel::exactNumber(in.at("cost"));
    s.final = parallel::exactNumbers(in.at("final"));
    return s;
}

}  // namespace

const core::FieldTable<MultistartSettings>& multistartFields()
{
    using S = MultistartSettings;
    static const core::FieldTable<S> table{
        core::countField<S>(
            {.key = "starts",
             .option = "multistart",
             .label = "starts",
             .help = "fit from this many starting points drawn by a Latin hypercube within the "
                     "bounds (log-uniform for bounds both positive and more than a decade apart); "
                     "the lowest cost is the result",
             .defaultText = "one fit from the starting values"},
            [](S& s) -> std::size_t& { return s.starts; }, 1),
        core::countField<S>(
            {.key = "seed",
             .option = "seed",
             .label = "seed",
             .help = "seed of the multistart's starting points: the same seed draws the same starts, "
                     "whatever the number of threads"},
            [](S& s) -> std::size_t& { return s.seed; }, 0),
        core::numberField<S>(
            {.key = "tolerance",
             .option = "minimum-tolerance",
             .label = "same-minimum tolerance",
             .help = "two starts reached the same minimum when their costs agree within this "
                     "relative tolerance and their parameters, scaled to the bounds (log-scaled "
                     "where the starts are log-uniform), within this fraction of the range"},
            [](S& s) -> double& { return s.tolerance; }, core::kPositive),
    };
    return table;
}

void MultistartSettings::validate() const
{
    core::validateFields(multistartFields(), *this);
}

MultistartPlan::MultistartPlan(const FitJob& fit, const MultistartSettings& settings) :
    settings_(settings), prepared_(checkedPreparation(fit, settings)),
    design_(designRanges(prepared_), settings.starts, static_cast<std::uint64_t>(settings.seed))
{
}

MultistartStart MultistartPlan::runStart(std::size_t index, std::stop_token stop, estimate::FitResult* fit) const
{
    MultistartStart start;
    start.index = index;
    start.initial = design_.point(index);
    start.cost = kNaN;
    try {
        estimate::FitResult result = prepared_.fit(start.initial, std::nullopt, nullptr, stop);
        start.kind = result.termination.kind;
        start.stopReason = result.termination.message;
        start.iterations = result.iterations;
        start.cost = result.cost;
        for (const estimate::ParameterEstimate& p : result.parameters)
            start.final.push_back(p.value);
        if (!std::isfinite(start.cost)) {
            start.kind = core::TerminationKind::Failed;
            start.stopReason = "the cost is not finite; " + start.stopReason;
        }
        if (fit)
            *fit = std::move(result);
    } catch (const std::exception& e) {  // JobError and anything the integration throws: this start failed
        start.kind = core::TerminationKind::Failed;
        start.stopReason = e.what();
        start.final.clear();
        start.cost = kNaN;
    }
    return start;
}

MultistartResult MultistartPlan::summarise(std::vector<MultistartStart> starts, const estimate::FitResult* bestFit,
                                           std::stop_token stop) const
{
    MultistartResult result;
    result.method = estimate::methodName(prepared_.settings().method);
    result.settings = settings_;
    result.parameterNames = prepared_.unknownNames();
    result.ranges = design_.ranges();
    std::sort(starts.begin(), starts.end(),
              [](const MultistartStart& a, const MultistartStart& b) { return a.index < b.index; });
    result.starts = std::move(starts);

    std::vector<const MultistartStart*> order;
    for (const MultistartStart& s : result.starts) {
        if (!usable(s))
            ++result.failed;
        else
            order.push_back(&s);
    }
    std::sort(order.begin(), order.end(),
              [](const MultistartStart* a, const MultistartStart* b) { return rankOf(*a) < rankOf(*b); });
    const auto unit = [&](const std::vector<double>& x) {
        std::vector<double> u(x.size());
        for (std::size_t d = 0; d < x.size(); ++d)
            u[d] = result.ranges[d].toUnit(x[d]);
        return u;
    };
    std::vector<std::vector<double>> representatives;
    const double tol = settings_.tolerance;
    for (const MultistartStart* s : order) {
        if (!s->converged())
            continue;
        const std::vector<double> u = unit(s->final);
        bool joined = false;
        for (std::size_t m = 0; m < result.minima.size() && !joined; ++m) {
            MultistartMinimum& minimum = result.minima[m];
            const double scale = std::max(std::abs(minimum.cost), std::abs(s->cost));
            if (std::abs(s->cost - minimum.cost) > tol * scale)
                continue;
            double distance = 0;
            for (std::size_t d = 0; d < u.size(); ++d)
                distance = std::max(distance, std::abs(u[d] - representatives[m][d]));
            if (distance <= tol) {
                minimum.starts.push_back(s->index);
                joined = true;
            }
        }
        if (!joined) {
            result.minima.push_back({s->cost, s->final, s->index, {s->index}});
            representatives.push_back(u);
        }
    }
    for (MultistartMinimum& m : result.minima)
        std::sort(m.starts.begin(), m.starts.end());
    if (!result.minima.empty() && !result.starts.empty())
        result.fractionBest =
            static_cast<double>(result.minima.front().starts.size()) / static_cast<double>(result.starts.size());

    if (!order.empty()) {
        const MultistartStart& best = *order.front();
        result.best = best.index;
        if (bestFit) {
            result.fit = *bestFit;
        } else {
            // The best start fitted again: every start is a function of (seed, index) alone.
            const MultistartStart again = runStart(best.index, stop, &result.fit);
            if (!usable(again))
                throw JobError(JobError::Kind::Fit,
                               "multistart: the best start " + std::to_string(best.index) +
                                   " failed when fitted again: " + again.stopReason);
        }
    }
    result.cancelled = stop.stop_requested();
    return result;
}

std::vector<MultistartStart> Multistart::runStarts(const MultistartPlan& plan, unsigned threads,
                                                   const ProgressCallback& progress, std::stop_token stop,
                                                   const IndexFilter& compute, estimate::FitResult* bestFit)
{
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < plan.count(); ++i)
        if (!compute || compute(i))
            indices.push_back(i);
    std::vector<std::optional<MultistartStart>> computed(indices.size());
    std::mutex mutex;
    std::size_t done = 0;
    std::optional<MultistartStart> best;
    const std::size_t workers = core::ThreadPool::participantsFor(threads, indices.size());
    if (!indices.empty())
        core::ThreadPool::shared().parallelFor(indices.size(), workers, [&](std::size_t k, std::size_t) {
            if (stop.stop_requested())
                return;
            estimate::FitResult fit;
            MultistartStart start = plan.runStart(indices[k], stop, bestFit ? &fit : nullptr);
            // Cut short by the stop (cancelled, or failed because of it): not a start of the result.
            if (stop.stop_requested() && !start.converged() && start.kind != core::TerminationKind::IterationLimit)
                return;
            const std::lock_guard lock(mutex);
            ++done;
            if (usable(start) && (!best || rankOf(start) < rankOf(*best))) {
                best = start;
                if (bestFit)
                    *bestFit = std::move(fit);
            }
            computed[k] = std::move(start);
            if (progress)
                progress({&*computed[k], done, indices.size(), best ? best->cost : kNaN});
        });
    std::vector<MultistartStart> starts;
    for (auto& s : computed)
        if (s)
            starts.push_back(std::move(*s));
    return starts;
}

MultistartResult Multistart::run(const ProgressCallback& progress, std::stop_token stop) const
{
    const MultistartPlan plan(fit, settings);
    if (processes && processes->size() > 1)
        return runOverProcesses(plan, progress, stop);
    estimate::FitResult bestFit;
    std::vector<MultistartStart> starts = runStarts(plan, threads, progress, stop, {}, &bestFit);
    const bool anyUsable =
        std::any_of(starts.begin(), starts.end(), [](const MultistartStart& s) { return usable(s); });
    MultistartResult result = plan.summarise(std::move(starts), anyUsable ? &bestFit : nullptr, stop);
    return result;
}

MultistartResult Multistart::runOverProcesses(const MultistartPlan& plan, const ProgressCallback& progress,
                                              std::stop_token stop) const
{
    const parallel::ProcessGroup& group = *processes;
    const std::size_t total = plan.count();
    std::size_t done = 0;
    double bestCost = kNaN;
    const auto results = parallel::distributedFor(
        group, total, threads,
        [&](std::size_t i, std::size_t, std::stop_token fitStop) -> std::optional<std::string> {
            const MultistartStart start = plan.runStart(i, fitStop);
            // Cut short by the stop (cancelled, or failed because of it): not a start of the result.
            if (fitStop.stop_requested() && !start.converged() && start.kind != core::TerminationKind::IterationLimit)
                return std::nullopt;
            return startText(start);
        },
        [&](const parallel::IndexResult& r) {
            const MultistartStart start = startOf(r, plan);
            ++done;
            if (usable(start) && !(start.cost >= bestCost))
                bestCost = start.cost;
            if (progress)
                progress({&start, done, total, bestCost});
        },
        stop);
    if (!group.isRoot()) {
        MultistartResult none;
        none.settings = settings;
        none.ranks = group.size();
        return none;
    }
    std::vector<MultistartStart> starts;
    for (const parallel::IndexResult& r : results)
        starts.push_back(startOf(r, plan));
    // The best start's whole fit is computed again on process 0: a start is a function of (seed,
    // index) alone, so it is the fit the process that ran it had.
    MultistartResult result = plan.summarise(std::move(starts), nullptr, stop);
    result.ranks = group.size();
    return result;
}

}  // namespace sysid::job
