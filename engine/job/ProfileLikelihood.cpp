#include "engine/job/ProfileLikelihood.h"

#include "engine/core/NotANumber.h"
#include "engine/data/Text.h"
#include "engine/estimate/Distributions.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/job/PreparedFit.h"
#include "engine/job/ProfileObjective.h"
#include "engine/parallel/DistributedFor.h"
#include "engine/parallel/ExactJson.h"

#include <nlohmann/json.hpp>


#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>

namespace sysid::job {

namespace {

using core::kNaN;

// Steps per side until sqrt(objective - optimum) reaches sqrt(threshold), for a profile linear in it.
constexpr double kStepsToThreshold = 8;
// A step whose square root rises more than this many times the target is redone with half the step.
constexpr double kLargestRiseFactor = 3;
// A step is halved at most this many times (after a failed fit or too large a rise).
constexpr int kHalvings = 10;
// A profile whose objective never rises above this fraction of the threshold is flat.
constexpr double kFlatFraction = 1e-3;

struct SideInput {
    std::size_t unknown = 0;
    int direction = 0;
    double limit = 0;
};

class SideRunner {
public:
    SideRunner(const PreparedFit& prepared, const ProfileObjective& objective, const ProfileResult& result,
               const ProfileSettings& settings) :
        prepared_(prepared),
        objective_(objective), result_(result), settings_(settings)
    {
    }

    // One side of one parameter's profile; `onPoint` after each fit (failed ones too).
    ProfileSide run(const SideInput& in, const std::function<void(const ProfilePoint*)>& onPoint,
                    std::stop_token stop) const
    {
        ProfileSide side;
        side.limit = in.limit;
        const auto u = in.unknown;
        const double estimate = result_.optimum.parameters[u];
        const double sd = result_.fit.parameters[u].sd;
        const double target = std::sqrt(result_.threshold) / kStepsToThreshold;
        if (!(in.direction * (in.limit - estimate) > 0)) {
            side.end = ProfileSideEnd::Limit;  // the estimate is at the bound already
            return side;
        }
        double step = std::isfinite(sd) && sd > 0 ? target * sd
            : estimate != 0                       ? 0.05 * std::abs(estimate)
                                                  : 0.01 * std::abs(in.limit - estimate);
        step = std::min(step, std::abs(in.limit - estimate));
        const double smallest = step / std::pow(2.0, kHalvings);

        std::optional<ProfilePoint> previous;
        ProfilePoint current = result_.optimum;
        current.value = estimate;
        double currentRoot = 0;
        while (side.points.size() < settings_.points) {
            if (stop.stop_requested()) {
                side.end = ProfileSideEnd::Cancelled;
                return side;
            }
            double value = current.value + in.direction * step;
            const bool atLimit = in.direction * (value - in.limit) >= 0;
            if (atLimit)
                value = in.limit;
            ProfilePoint point;
            std::string failure;
            bool fitted = false;
            // The extrapolated start first; from the neighbour itself when that fails.
            for (const bool extrapolate : {previous.has_value(), false}) {
                try {
                    point = fitAt(u, value, warmStart(u, value, current, extrapolate ? &*previous : nullptr), stop);
                    fitted = true;
                    break;
                } catch (const JobError& e) {
                    failure = e.what();
                }
                if (!extrapolate)
                    break;
            }
            if (stop.stop_requested()) {
                side.end = ProfileSideEnd::Cancelled;
                return side;
            }
            if (!fitted || !std::isfinite(point.objective)) {
                if (fitted)
                    failure = "the objective is not finite";
                side.failures.push_back({value, failure});
                if (onPoint)
                    onPoint(nullptr);
                if (step > smallest) {
                    step /= 2;
                    continue;
                }
                side.end = ProfileSideEnd::Failed;
                side.message = data::formatNumber(value, 6) + ": " + failure;
                return side;
            }
            const double rise = point.objective - result_.objectiveAtOptimum;
            const double root = std::sqrt(std::max(rise, 0.0));
            if (root - currentRoot > kLargestRiseFactor * target && step > smallest) {
                if (onPoint)
                    onPoint(nullptr);
                step /= 2;  // too coarse: the crossing would be poorly located
                continue;
            }
            side.points.push_back(point);
            if (onPoint)
                onPoint(&side.points.back());
            if (rise >= result_.threshold) {
                const double crossingRoot = std::sqrt(result_.threshold);
                side.crossing =
                    current.value + (crossingRoot - currentRoot) / (root - currentRoot) * (point.value - current.value);
                side.end = ProfileSideEnd::Crossed;
                return side;
            }
            if (atLimit) {
                side.end = ProfileSideEnd::Limit;
                return side;
            }
            const double growth = root - currentRoot;
            step *= growth > 0 ? std::clamp(target / growth, 0.5, 2.0) : 2.0;
            step = std::min(step, std::abs(in.limit - point.value));
            previous = std::move(current);
            current = std::move(point);
            currentRoot = root;
        }
        side.end = ProfileSideEnd::Points;
        return side;
    }

private:
    // Every unknown's start: the neighbour's values, or extrapolated from the two last points
    // (the predictor of a natural continuation), within the bounds.
    std::vector<double> warmStart(std::size_t held, double value, const ProfilePoint& current,
                                  const ProfilePoint* previous) const
    {
        std::vector<double> start = current.parameters;
        if (previous && current.value != previous->value) {
            const double ratio = (value - current.value) / (current.value - previous->value);
            for (std::size_t k = 0; k < start.size(); ++k)
                start[k] += ratio * (current.parameters[k] - previous->parameters[k]);
        }
        const auto& unknowns = prepared_.unknowns();
        for (std::size_t k = 0; k < start.size(); ++k)
            start[k] = std::clamp(start[k], unknowns[k].lower, unknowns[k].upper);
        start[held] = value;
        return start;
    }

    ProfilePoint fitAt(std::size_t held, double value, const std::vector<double>& start, std::stop_token stop) const
    {
        const estimate::FitResult fit = prepared_.fit(start, HeldUnknown{held, value}, nullptr, stop);
        ProfilePoint point;
        point.value = value;
        point.parameters = objective_.unknownsOf(fit, held, value);
        point.objective = fit.cancelled() ? kNaN : objective_(fit, point.parameters);
        point.converged = fit.converged();
        point.message = fit.termination.message;
        for (const estimate::ParameterEstimate& e : fit.parameters)
            if (e.atBound)
                point.atBound.push_back(e.name);
        return point;
    }

    const PreparedFit& prepared_;
    const ProfileObjective& objective_;
    const ProfileResult& result_;
    const ProfileSettings& settings_;
};

ProfileVerdict verdictOf(const ParameterProfile& profile, double threshold)
{
    // Flat over at least two points where the others were free to compensate: structural, whatever
    // the bounds made of the rest (a crossing where they hold the others is theirs, not the data's).
    std::size_t freePoints = 0;
    for (const ProfileSide* side : {&profile.lower, &profile.upper})
        for (const ProfilePoint& p : side->points)
            freePoints += p.atBound.empty() ? 1 : 0;
    if (freePoints >= 2 && profile.largestFreeRise < kFlatFraction * threshold)
        return ProfileVerdict::StructurallyNonIdentifiable;
    const bool lowClosed = profile.lower.end == ProfileSideEnd::Crossed;
    const bool highClosed = profile.upper.end == ProfileSideEnd::Crossed;
    return lowClosed && highClosed ? ProfileVerdict::Identifiable : ProfileVerdict::PracticallyNonIdentifiable;
}

// How far a side may go: the range's end, else the bound, else (an unbounded parameter) ten times
// the estimate's size or twenty standard deviations, whichever is larger.
double sideLimit(const FitUnknown& unknown, double estimate, double sd, int direction,
                 const std::optional<std::array<double, 2>>& range)
{
    if (range)
        return direction < 0 ? std::max((*range)[0], unknown.lower) : std::min((*range)[1], unknown.upper);
    const double bound = direction < 0 ? unknown.lower : unknown.upper;
    if (std::isfinite(bound))
        return bound;
    double span = 10 * std::abs(estimate);
    if (std::isfinite(sd))
        span = std::max(span, 20 * sd);
    if (!(span > 0))
        span = 1;
    return estimate + direction * span;
}

// The methods whose cost is a likelihood of the measured outputs: all but the equation-error ones.
std::string methodsWithLikelihood()
{
    std::vector<std::string> names;
    for (const estimate::MethodTraits& traits : estimate::kMethodTraits)
        if (traits.objective != estimate::Objective::EquationError)
            names.push_back(estimate::methodName(traits.method));
    std::string text;
    for (std::size_t k = 0; k < names.size(); ++k)
        text += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
    return text;
}

// A side as the text it travels to process 0 in (parallel::distributedFor).
std::string sideText(const ProfileSide& side)
{
    nlohmann::json points = nlohmann::json::array();
    for (const ProfilePoint& p : side.points)
        points.push_back({{"value", parallel::exactNumber(p.value)},
                          {"objective", parallel::exactNumber(p.objective)},
                          {"parameters", parallel::exactNumbers(p.parameters)},
                          {"converged", p.converged},
                          {"message", p.message},
                          {"at_bound", p.atBound},
                          {"rank", p.rank}});
    nlohmann::json failures = nlohmann::json::array();
    for (const ProfileFailure& f : side.failures)
        failures.push_back({{"value", parallel::exactNumber(f.value)}, {"message", f.message}});
    nlohmann::json out = {{"points", std::move(points)},
                          {"failures", std::move(failures)},
                          {"end", static_cast<int>(side.end)},
                          {"limit", parallel::exactNumber(side.limit)},
                          {"message", side.message}};
    if (side.crossing)
        out["crossing"] = parallel::exactNumber(*side.crossing);
    return out.dump();
}

// The inverse; a side whose task threw (not a failed fit, which the side records itself) ends
// Failed with that message.
ProfileSide sideOf(const parallel::IndexResult& r)
{
    ProfileSide side;
    if (r.failed) {
        side.end = ProfileSideEnd::Failed;
        side.message = r.text;
        return side;
    }
    const nlohmann::json in = nlohmann::json::parse(r.text);
    for (const nlohmann::json& p : in.at("points")) {
        ProfilePoint point;
        point.value = parallel::exactNumber(p.at("value"));
        point.objective = parallel::exactNumber(p.at("objective"));
        point.parameters = parallel::exactNumbers(p.at("parameters"));
        point.converged = p.at("converged").get<bool>();
        point.message = p.at("message").get<std::string>();
        point.atBound = p.at("at_bound").get<std::vector<std::string>>();
        point.rank = p.at("rank").get<int>();
        side.points.push_back(std::move(point));
    }
    for (const nlohmann::json& f : in.at("failures"))
        side.failures.push_back({parallel::exactNumber(f.at("value")), f.at("message").get<std::string>()});
    side.end = static_cast<ProfileSideEnd>(in.at("end").get<int>());
    side.limit = parallel::exactNumber(in.at("limit"));
    side.message = in.at("message").get<std::string>();
    if (in.contains("crossing"))
        side.crossing = parallel::exactNumber(in.at("crossing"));
    return side;
}

}  // namespace

const core::FieldTable<ProfileSettings>& profileFields()
{
    using S = ProfileSettings;
    static const core::FieldTable<S> table{
        core::countField<S>(
            {.key = "points",
             .option = "points",
             .label = "points per side",
             .help = "the most re-fits on each side of a profile (the step adapts; a side ends earlier where the "
                     "profile crosses the threshold)"},
            [](S& s) -> std::size_t& { return s.points; }, 2),
        core::numberField<S>({.key = "confidence",
                              .option = "confidence",
                              .label = "confidence",
                              .help = "confidence of the likelihood-based interval"},
                             [](S& s) -> double& { return s.confidence; },
                             {core::NumberRule::Bound::Positive, "a number between 0 and 1 (0.95 for 95 %)"}),
        core::flagField<S>(
            {.key = "simultaneous",
             .option = "simultaneous",
             .label = "simultaneous intervals",
             .help = "intervals for all estimated parameters together: the threshold is the chi-squared quantile "
                     "with as many degrees of freedom as there are estimated parameters, instead of one"},
            [](S& s) -> bool& { return s.simultaneous; }),
    };
    return table;
}

void ProfileSettings::validate() const
{
    core::validateFields(profileFields(), *this);
    if (!(confidence < 1))
        throw core::SettingError("confidence", "confidence", core::settingText(confidence),
                                 "a number between 0 and 1 (0.95 for 95 %)");
}

double chiSquaredQuantile(double confidence, std::size_t degrees)
{
    return estimate::chiSquaredQuantile(confidence, static_cast<double>(degrees));
}

std::vector<ProfilePoint> ParameterProfile::points(const ProfilePoint& optimum) const
{
    std::vector<ProfilePoint> all(lower.points.rbegin(), lower.points.rend());
    all.push_back(optimum);
    all.back().value = estimate;
    all.insert(all.end(), upper.points.begin(), upper.points.end());
    return all;
}

ProfileResult ProfileLikelihood::run(const ProgressCallback& progress, std::stop_token stop) const
{
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        throw JobError(JobError::Kind::Settings, std::string("profile: ") + e.what());
    }
    if (estimate::traitsOf(fit.settings.method).objective == estimate::Objective::EquationError)
        throw JobError(JobError::Kind::Settings,
                       "profile: " + estimate::methodName(fit.settings.method) +
                           " minimises an equation error, which is no likelihood of the measured outputs; profile "
                           "with " +
                           methodsWithLikelihood());
    const PreparedFit prepared(fit);
    std::vector<std::size_t> chosen;
    for (const std::string& name : parameters) {
        const auto index = prepared.unknownIndex(name);
        if (!index)
            throw JobError(JobError::Kind::Settings,
                           "profile: '" + name + "' is not estimated by the fit (estimated: " +
                               data::nameList(prepared.unknownNames()) + ")");
        if (std::find(chosen.begin(), chosen.end(), *index) == chosen.end())
            chosen.push_back(*index);
    }
    if (parameters.empty())
        for (std::size_t u = 0; u < prepared.unknowns().size(); ++u)
            chosen.push_back(u);
    for (const auto& [name, range] : ranges) {
        const auto index = prepared.unknownIndex(name);
        if (!index || std::find(chosen.begin(), chosen.end(), *index) == chosen.end())
            throw JobError(JobError::Kind::Settings,
                           "profile: a range is given for '" + name + "', which is not profiled");
        const FitUnknown& u = prepared.unknowns()[*index];
        if (!(std::isfinite(range[0]) && std::isfinite(range[1]) && range[0] < range[1]))
            throw JobError(JobError::Kind::Settings,
                           "profile: the range of " + name + " must be two finite numbers LOW < HIGH");
        if (range[1] <= u.lower || range[0] >= u.upper)
            throw JobError(JobError::Kind::Settings,
                           "profile: the range [" + data::formatNumber(range[0], 6) + ", " +
                               data::formatNumber(range[1], 6) + "] of " + name + " lies outside its bounds [" +
                               data::formatNumber(u.lower, 6) + ", " + data::formatNumber(u.upper, 6) + "]");
    }

    ProfileResult result;
    result.method = estimate::methodName(prepared.settings().method);
    result.settings = settings;
    result.parameterNames = prepared.unknownNames();
    const parallel::ProcessGroup& group = processes ? *processes : parallel::singleProcess();
    result.ranks = group.size();
    result.fit = prepared.fit({}, std::nullopt, nullptr, stop);
    std::mutex mutex;
    std::size_t pointsDone = 1;
    const std::size_t sidesTotal = 2 * chosen.size();
    std::size_t sidesDone = 0;
    if (result.fit.cancelled()) {
        result.cancelled = true;
        return result;
    }
    const ProfileObjective objective(prepared, result.fit);
    result.residualVariance = objective.residualVariance();
    result.optimum.parameters = objective.unknownsOf(result.fit);
    result.optimum.objective = result.objectiveAtOptimum = objective(result.fit, result.optimum.parameters);
    result.optimum.converged = result.fit.converged();
    result.optimum.message = result.fit.termination.message;
    result.threshold =
        chiSquaredQuantile(settings.confidence, settings.simultaneous ? result.parameterNames.size() : 1);
    if (progress && group.isRoot())
        progress({.parameter = {},
                  .direction = 0,
                  .point = nullptr,
                  .pointsDone = 1,
                  .sidesDone = 0,
                  .sidesTotal = sidesTotal,
                  .objectiveAtOptimum = result.objectiveAtOptimum,
                  .threshold = result.threshold});

    std::vector<SideInput> sides;
    for (const std::size_t u : chosen) {
        const auto range = ranges.find(result.parameterNames[u]);
        if (range != ranges.end()) {
            const double estimate = result.optimum.parameters[u];
            if (!(range->second[0] <= estimate && estimate <= range->second[1]))
                throw JobError(JobError::Kind::Settings,
                               "profile: the range [" + data::formatNumber(range->second[0], 6) + ", " +
                                   data::formatNumber(range->second[1], 6) + "] of " + range->first +
                                   " does not contain the estimate " + data::formatNumber(estimate, 6) +
                                   ", where its profile starts");
        }
        for (const int direction : {-1, 1}) {
            SideInput in;
            in.unknown = u;
            in.direction = direction;
            in.limit = sideLimit(prepared.unknowns()[u], result.optimum.parameters[u], result.fit.parameters[u].sd,
                                 direction, range == ranges.end() ? std::nullopt : std::optional(range->second));
            sides.push_back(in);
        }
    }
    // Each side is a chain of warm starts, so the sides (not the points) are the tasks spread over
    // the threads and processes (parallel::distributedFor).
    const SideRunner runner(prepared, objective, result, settings);
    const auto report = [&](const SideInput& in, const ProfilePoint* point) {
        if (progress)
            progress({result.parameterNames[in.unknown], in.direction, point, pointsDone, sidesDone, sidesTotal,
                      result.objectiveAtOptimum, result.threshold});
    };
    const auto computeSide = [&](std::size_t s, std::size_t, std::stop_token sideStop) -> std::optional<std::string> {
        const SideInput& in = sides[s];
        ProfileSide side = runner.run(
            in,
            [&](const ProfilePoint* point) {
                if (!group.isRoot())
                    return;  // process 0 reports the other processes' points when they arrive
                const std::lock_guard lock(mutex);
                ++pointsDone;
                report(in, point);
            },
            sideStop);
        for (ProfilePoint& point : side.points)
            point.rank = group.rank();
        return sideText(side);
    };
    std::vector<ProfileSide> computed(sides.size());
    const auto results = parallel::distributedFor(
        group, sides.size(), threads, computeSide,
        [&](const parallel::IndexResult& r) {
            const std::lock_guard lock(mutex);  // the points of the sides still running report too
            const SideInput& in = sides[r.index];
            if (r.rank != group.rank()) {
                const ProfileSide side = sideOf(r);
                for (const ProfilePoint& point : side.points) {
                    ++pointsDone;
                    report(in, &point);
                }
            }
            ++sidesDone;
            report(in, nullptr);
        },
        stop);
    if (!group.isRoot())
        return result;
    for (std::size_t s = 0; s < sides.size(); ++s) {  // as a side stopped before it started
        computed[s].end = ProfileSideEnd::Cancelled;
        computed[s].limit = sides[s].limit;
    }
    for (const parallel::IndexResult& r : results)
        computed[r.index] = sideOf(r);

    result.lowerObjective = kNaN;
    double lowest = result.objectiveAtOptimum - kFlatFraction * result.threshold;
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        const std::size_t u = chosen[k];
        ParameterProfile profile;
        profile.name = result.parameterNames[u];
        profile.unit = result.fit.parameters[u].unit;
        profile.estimate = result.optimum.parameters[u];
        profile.sd = result.fit.parameters[u].sd;
        const double half = std::sqrt(result.threshold) * profile.sd;
        profile.waldInterval = {profile.estimate - half, profile.estimate + half};
        profile.lower = std::move(computed[2 * k]);
        profile.upper = std::move(computed[2 * k + 1]);
        for (const ProfileSide* side : {&profile.lower, &profile.upper})
            for (const ProfilePoint& p : side->points) {
                profile.largestRise = std::max(profile.largestRise, p.objective - result.objectiveAtOptimum);
                if (p.atBound.empty())
                    profile.largestFreeRise =
                        std::max(profile.largestFreeRise, p.objective - result.objectiveAtOptimum);
                if (p.objective < lowest) {
                    lowest = p.objective;
                    result.lowerObjective = p.objective;
                    result.lowerPoint = p.parameters;
                }
            }
        profile.low = profile.lower.crossing;
        profile.high = profile.upper.crossing;
        profile.verdict = verdictOf(profile, result.threshold);
        result.cancelled = result.cancelled || profile.lower.end == ProfileSideEnd::Cancelled ||
            profile.upper.end == ProfileSideEnd::Cancelled;
        result.profiles.push_back(std::move(profile));
    }
    return result;
}

}  // namespace sysid::job
