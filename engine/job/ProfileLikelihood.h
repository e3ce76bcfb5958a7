#pragma once

#include "engine/core/EnumTable.h"
#include "engine/core/SettingField.h"
#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::parallel {
class ProcessGroup;
}

namespace sysid::job {

// What a parameter's profile says about it (Raue et al. 2009, "Structural and practical
// identifiability analysis ... by exploiting the profile likelihood").
enum class ProfileVerdict {
    Identifiable,  // the profile crosses the threshold on both sides: a finite interval
    PracticallyNonIdentifiable,  // it rises, but stays below the threshold on one or both sides
    // It is flat wherever the re-fitted parameters are off their bounds: they make up for any value.
    StructurallyNonIdentifiable,
};

inline constexpr core::EnumTable kProfileVerdicts{
    "verdict",
    std::to_array<core::EnumSpelling<ProfileVerdict>>({
        {.value = ProfileVerdict::Identifiable,
         .name = "identifiable",
         .description = "the profile crosses the threshold on both sides: the interval is finite",
         .label = "identifiable"},
        {.value = ProfileVerdict::PracticallyNonIdentifiable,
         .name = "practically non-identifiable",
         .description = "the profile rises but stays below the threshold on at least one side within the range "
                        "or the bounds: the data do not bound it there",
         .label = "practically non-identifiable"},
        {.value = ProfileVerdict::StructurallyNonIdentifiable,
         .name = "structurally non-identifiable",
         .description = "the profile is flat: the other parameters compensate any value, so no data of this kind "
                        "can determine it; fix it or one of those it trades with",
         .label = "structurally non-identifiable"},
    })};

// Why one side of a profile ended.
enum class ProfileSideEnd {
    Crossed,  // the objective rose above the threshold: the interval ends inside
    Limit,  // it reached the end of the range or a bound below the threshold
    Points,  // it took the most points a side may take below the threshold
    Failed,  // the fits failed even with the smallest step
    Cancelled,  // stopped by the user
};

inline constexpr core::EnumTable kProfileSideEnds{
    "end of a profile side",
    std::to_array<core::EnumSpelling<ProfileSideEnd>>({
        {.value = ProfileSideEnd::Crossed, .name = "crossed", .description = "the profile crossed the threshold"},
        {.value = ProfileSideEnd::Limit,
         .name = "limit",
         .description = "the end of the range or a bound was reached below the threshold"},
        {.value = ProfileSideEnd::Points,
         .name = "points",
         .description = "the most points a side may take were used below the threshold"},
        {.value = ProfileSideEnd::Failed, .name = "failed", .description = "the fits failed"},
        {.value = ProfileSideEnd::Cancelled, .name = "cancelled", .description = "cancelled"},
    })};

// How profiles are computed (the `sysid profile` options and the GUI's profiles view).
struct ProfileSettings {
    std::size_t points = 20;  // most points per side of a profile
    double confidence = 0.95;  // of the likelihood-based interval
    // Intervals that hold for all estimated parameters together: the threshold is the chi^2
    // quantile with as many degrees of freedom as there are unknowns, instead of one.
    bool simultaneous = false;
    bool operator==(const ProfileSettings&) const = default;

    // Throws core::SettingError for a setting that breaks its rule in profileFields().
    void validate() const;
};

// Key in a project's "profile" object, `sysid profile` option, help and rule of each setting.
const core::FieldTable<ProfileSettings>& profileFields();

// One re-fit of a profile: the stepped parameter held at `value`, the others fitted.
struct ProfilePoint {
    double value = 0;
    // -2 log-likelihood up to a constant (see ProfileResult::optimum); NaN when the fit failed.
    double objective = 0;
    std::vector<double> parameters;  // every unknown, ProfileResult::parameterNames order
    bool converged = false;
    std::string message;  // the fit's stop reason
    std::vector<std::string> atBound;  // the re-fitted unknowns that ended on a bound
    int rank = 0;  // the process that computed it (0 without MPI)
};

// A re-fit that failed (the model could not be integrated, the fit threw): the step is halved and
// tried again, so a failure ends a side only at the smallest step.
struct ProfileFailure {
    double value = 0;
    std::string message;
};

struct ProfileSide {
    std::vector<ProfilePoint> points;  // outward from the optimum
    std::vector<ProfileFailure> failures;  // in the order they happened
    ProfileSideEnd end = ProfileSideEnd::Limit;
    std::optional<double> crossing;  // where the profile crosses the threshold (Crossed)
    double limit = 0;  // how far this side could go: the range's end or the bound
    std::string message;  // the failure, for Failed
};

struct ParameterProfile {
    std::string name;
    std::string unit;
    double estimate = 0;
    double sd = 0;  // of the fit (Fisher information); +inf when the data cannot determine it
    // Wald interval estimate -+ sqrt(threshold) sd, with the threshold of the profile, so that the two
    // intervals compare like for like (they are equal for a model linear in its parameters).
    std::array<double, 2> waldInterval{};
    ProfileSide lower, upper;
    std::optional<double> low, high;  // the likelihood-based interval; none where the side is open
    ProfileVerdict verdict = ProfileVerdict::Identifiable;
    double largestRise = 0;  // the largest objective - optimum over the points
    // The same over the points where no re-fitted unknown sits on a bound: where one does, the
    // bound, not the data, may be what stops the others making up for the stepped parameter.
    double largestFreeRise = 0;

    // The points from the lowest value to the highest, the optimum included.
    std::vector<ProfilePoint> points(const ProfilePoint& optimum) const;
};

struct ProfileResult {
    std::string method;
    ProfileSettings settings;
    std::vector<std::string> parameterNames;  // every unknown of the fit, FitResult order
    estimate::FitResult fit;  // the optimum the profiles start from
    ProfilePoint optimum;  // the fit's estimate (every unknown); ParameterProfile::points sets its value
    // -2 log L at the optimum up to a constant: sum w r^2 / s^2 + sum ((theta - mean)/sd)^2 over the
    // priors, with s^2 = sum w r^2 / (m - p) the residual variance at the optimum (the scale the fit's
    // covariance uses; for data weighted by their true noise variances s^2 is about 1).
    double objectiveAtOptimum = 0;
    double residualVariance = 0;  // s^2 (1 with priors and for maximum likelihood: see ProfileObjective)
    double threshold = 0;  // chi^2 quantile: the interval is where the objective <= optimum + threshold
    std::vector<ParameterProfile> profiles;  // in the order asked for
    // The lowest objective a profile met, when below the optimum by more than 1e-3 of the threshold:
    // the fit had not found the minimum; fit again from that point. NaN when none was lower.
    double lowerObjective = 0;
    std::vector<double> lowerPoint;  // every unknown there
    int ranks = 1;  // processes that computed the profiles
    bool cancelled = false;
};

// Profile likelihood of some of a fit's parameters (Venzon & Moolgavkar 1988; Raue et al. 2009):
// each is stepped away from the optimum in both directions with the others re-fitted at each
// step, warm-started from the neighbour (extrapolated from the two last points). The step adapts
// so that sqrt(objective - optimum) grows by about a tenth of sqrt(threshold) per step: a profile
// linear in that square root (a model linear in its parameters) gets evenly spaced points, and
// where the curve is flat the step doubles. The interval ends where the curve crosses
// optimum + threshold, found by linear interpolation in that square root (exact for a linear model).
struct ProfileLikelihood {
    FitJob fit;
    std::vector<std::string> parameters;  // the unknowns to profile; empty: every one
    std::map<std::string, std::array<double, 2>> ranges;  // per parameter: [low, high] within its bounds
    ProfileSettings settings;
    unsigned threads = 0;  // per process; 0: std::thread::hardware_concurrency()
    // The processes the sides are spread over (parallel::distributedFor); nullptr: this one. Every
    // process fits the optimum itself (the same fit everywhere), then computes its share of the
    // sides: each side is a chain of warm starts, so a side, not a point, is the unit of work.
    const parallel::ProcessGroup* processes = nullptr;

    struct Progress {
        std::string parameter;
        int direction = 0;  // -1 down, +1 up
        const ProfilePoint* point = nullptr;  // the point just computed (nullptr: the optimum's fit ended)
        std::size_t pointsDone = 0;  // fits finished, the optimum's included
        std::size_t sidesDone = 0, sidesTotal = 0;
        double objectiveAtOptimum = 0;  // ProfileResult's, for drawing the points as they come
        double threshold = 0;
    };
    // Called after each fit, serialised (never two at once), on a worker thread. Must not block long.
    // Over several processes: on process 0 only, for the other processes' points when their side
    // arrives.
    using ProgressCallback = std::function<void(const Progress&)>;

    // Throws JobError: Settings for settings that break their rules, a method without a likelihood
    // (the equation-error methods), a parameter the fit does not estimate or a range outside its
    // bounds; Model, Data, Fit as FitJob::run when the optimum cannot be fitted. A step whose fit
    // fails is retried with half the step; `stop` ends the running fits and returns the points
    // computed so far (`cancelled`). The result does not depend on the thread or process count; on
    // a process other than 0 it holds the optimum but no profiles (process 0 has them all).
    ProfileResult run(const ProgressCallback& progress = {}, std::stop_token stop = {}) const;
};

// chi^2 quantile of the given confidence with `degrees` degrees of freedom (3.84 for 0.95 and 1).
double chiSquaredQuantile(double confidence, std::size_t degrees);

// "identifiable", "practically non-identifiable", "structurally non-identifiable".
inline std::string verdictName(ProfileVerdict verdict)
{
    return std::string(kProfileVerdicts.name(verdict));
}

}  // namespace sysid::job
