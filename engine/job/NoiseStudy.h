#pragma once

#include "engine/core/EnumTable.h"
#include "engine/data/Noise.h"
#include "engine/job/FitJob.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::parallel {
class ProcessGroup;
}

namespace sysid::job {

// What a study draws its realisations from. On data simulated with known parameter values, a
// Monte Carlo study adds noise to the clean record and reports the bias against those values; on
// measured data, whose truth is unknown and which are noisy already, a parametric bootstrap
// (Efron & Tibshirani 1993) simulates the model at the estimate, adds noise with the residuals'
// RMS, and reports the spread of the estimates around the estimate.
enum class StudyKind { Automatic, MonteCarlo, ParametricBootstrap };

inline constexpr core::EnumTable kStudyKinds{
    "study kind",
    std::to_array<core::EnumSpelling<StudyKind>>({
        {.value = StudyKind::Automatic,
         .name = "auto",
         .description = "Monte Carlo when the data sets carry the true values they were simulated with, else "
                        "the parametric bootstrap",
         .label = "Automatic (from the data sets)"},
        {.value = StudyKind::MonteCarlo,
         .name = "monte-carlo",
         .description = "noise of P % of each signal's RMS added to the (simulated) data; bias against the true "
                        "values",
         .label = "Monte Carlo against the true values"},
        {.value = StudyKind::ParametricBootstrap,
         .name = "bootstrap",
         .description = "the model simulated at the estimate plus Gaussian noise with the residuals' RMS per "
                        "output; spread around the estimate (Efron & Tibshirani 1993)",
         .label = "Parametric bootstrap (Efron & Tibshirani 1993) around the estimate"},
    }),
    true};

// Monte Carlo unless `kind` asks for the bootstrap, or is automatic and no true values are known.
StudyKind resolvedStudyKind(StudyKind kind, bool trueValuesKnown);

// How a study perturbs the data (Monte Carlo, seed note 004: noise of p % of each signal's RMS,
// uniform or Gaussian; bootstrap: see StudyKind). Stored in a project as its "study" member.
struct NoiseStudySettings {
    StudyKind kind = StudyKind::Automatic;
    std::size_t realisations = 100;
    double noisePercent = 5;
    data::NoiseDistribution distribution = data::NoiseDistribution::Uniform;
    std::uint64_t seed = 1;  // base seed; realisation r uses realisationSeed(seed, r)
    bool operator==(const NoiseStudySettings&) const = default;

    // Throws core::SettingError for a setting that breaks its rule in noiseStudyFields().
    void validate() const;
};

// Key in a project's "study" object, `sysid study` option, help and rule of each setting.
const core::FieldTable<NoiseStudySettings>& noiseStudyFields();

// The noise seed of realisation r. The stride is a prime larger than any data-set count, so
// the seeds FitJob derives per data set (seed + k) never collide between realisations.
std::uint64_t realisationSeed(std::uint64_t base, std::size_t realisation);

// One identification of one noise realisation.
struct RealisationResult {
    std::size_t index = 0;
    std::uint64_t seed = 0;
    bool failed = false;  // the fit could not run; `message` says why
    std::string message;  // the fit's stop reason, or the failure
    bool converged = false;
    std::size_t iterations = 0;
    double cost = 0;
    std::vector<double> estimates;  // NoiseStudyResult::parameterNames order; empty when failed
    int rank = 0;  // the process that computed it (0 in a single process)
};

// Location and spread of one parameter's estimates over the realisations that did not fail.
struct ParameterSummary {
    std::string name;
    std::size_t count = 0;  // estimates summarised
    double trueValue = 0;  // NaN when unknown
    double estimate = 0;  // the estimate a bootstrap resampled around; NaN in a Monte Carlo study
    double mean = 0, sd = 0;  // sd: sample standard deviation (n - 1); NaN for n < 2
    double standardError = 0;  // sd / sqrt(n)
    double bias = 0;  // mean - true; NaN when the true value is unknown
    double biasPercent = 0;  // 100 bias / |true|; NaN when unknown or true = 0
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
    double percentile2_5 = 0, percentile97_5 = 0;  // the 95 % percentile interval (Efron & Tibshirani 1993, 13.3)
    double lowerWhisker = 0, upperWhisker = 0;  // Tukey: extreme data within 1.5 IQR of the box
};

// Summary of a sample, its values that are not finite left out (NaN everywhere for an empty one). Quartiles interpolate
// linearly between order statistics (Hyndman & Fan 1996, definition 7, the default of R and NumPy).
ParameterSummary summarise(const std::string& name, std::vector<double> values, double trueValue);

struct NoiseStudyResult {
    NoiseStudySettings settings;
    StudyKind kind = StudyKind::MonteCarlo;  // what ran: never Automatic
    std::string method;  // estimation method name
    std::vector<std::string> parameterNames;  // estimated parameters, fit order
    std::vector<RealisationResult> realisations;  // finished ones (failed included), by index
    std::vector<ParameterSummary> summary;  // per parameter, parameterNames order
    std::size_t failed = 0;
    std::size_t notConverged = 0;  // included in the summary; their stop reasons are in `realisations`
    bool cancelled = false;  // stopped before every realisation finished
    int ranks = 1;  // processes the realisations were spread over
};

// A study of the fit repeated on N noisy records. Monte Carlo: realisation r fits `fit` with its
// preprocessing noise replaced by {noisePercent, distribution, realisationSeed(seed, r)}; the
// rest of the preprocessing (window, low-pass filter after the noise, ...) and the method and
// settings are the fit's. Parametric bootstrap: `fit` is run once, and realisation r fits
// bootstrapRealisation(fit, origin, realisationSeed(seed, r)) (noisePercent and distribution
// are not used).
struct NoiseStudy {
    FitJob fit;
    NoiseStudySettings settings;
    std::map<std::string, double> trueValues;  // parameter -> true value, for the bias
    unsigned threads = 0;  // per process; 0: std::thread::hardware_concurrency()
    // The processes the realisations are spread over (parallel::distributedFor); nullptr: this one.
    const parallel::ProcessGroup* processes = nullptr;

    // Called once per finished realisation, serialised (never two at once), on a worker
    // thread: the realisation, how many have finished, and N. Must not block for long. Over
    // several processes: on process 0 only, for the other processes' realisations when they arrive.
    using Progress = std::function<void(const RealisationResult&, std::size_t finished, std::size_t total)>;

    // Runs the realisations on `threads` threads of each process. Each realisation depends only on
    // its index, so the result does not depend on the thread or process count. On a process other
    // than 0 the result lists no realisations and no summary: process 0 has them all. A
    // realisation whose fit fails (or throws anything else) is
    // recorded with its message; `stop` ends the running fits and returns the realisations
    // finished before (`cancelled`). Throws JobError(Settings) for N = 0 or a noise percent
    // that is not finite and > 0, and JobError(Data) for a fit without data, before any fit runs;
    // a bootstrap throws the JobError of its first fit when that cannot run.
    NoiseStudyResult run(const Progress& progress = {}, std::stop_token stop = {}) const;
};

}  // namespace sysid::job
