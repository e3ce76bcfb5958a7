#include "engine/job/NoiseStudy.h"

#include "engine/core/MemoryBudget.h"
#include "engine/core/NotANumber.h"
#include "engine/job/ParametricBootstrap.h"
#include "engine/parallel/DistributedFor.h"
#include "engine/parallel/ExactJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stop_token>
#include <type_traits>

namespace sysid::job {

namespace {

using core::kNaN;

// Keeps the parameter names a realisation's fit announces; the other events are not needed.
class NameSink final : public ProgressSink {
public:
    void started(const std::vector<std::string>& parameterNames) override { names = parameterNames; }
    void iteration(const estimate::IterationRecord&) override {}
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
    void log(const std::string&) override {}
    void finished(JobStatus, const std::string&) override {}

    std::vector<std::string> names;
};

// Hyndman & Fan, "Sample quantiles in statistical packages", Am. Stat. 50 (1996), definition 7.
double quantile(const std::vector<double>& sorted, double p)
{
    const double h = (static_cast<double>(sorted.size()) - 1.0) * p;
    const auto below = static_cast<std::size_t>(std::floor(h));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (h - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

// A realisation as the text it travels in between processes; the fit's parameter names ride along
// with every one that did not fail, so process 0 learns them whichever process fitted first.
std::string realisationText(const RealisationResult& r, const std::vector<std::string>& names)
{
    nlohmann::json out = {{"failed", r.failed},
                          {"message", r.message},
                          {"converged", r.converged},
                          {"iterations", r.iterations},
                          {"cost", parallel::exactNumber(r.cost)},
                          {"estimates", parallel::exactNumbers(r.estimates)}};
    if (!names.empty())
        out["names"] = names;
    return out.dump();
}

// The inverse, for the realisation with r's index; a task that threw is a failed realisation with
// its message. Fills `names` when asked and the text has them.
RealisationResult realisationOf(const parallel::IndexResult& r, std::uint64_t baseSeed, std::vector<std::string>* names)
{
    RealisationResult out;
    out.index = r.index;
    out.seed = realisationSeed(baseSeed, r.index);
    out.rank = r.rank;
    if (r.failed) {
        out.failed = true;
        out.message = r.text;
        return out;
    }
    const nlohmann::json in = nlohmann::json::parse(r.text);
    out.failed = in.at("failed").get<bool>();
    out.message = in.at("message").get<std::string>();
    out.converged = in.at("converged").get<bool>();
    out.iterations = in.at("iterations").get<std::size_t>();
    out.cost = parallel::exactNumber(in.at("cost"));
    out.estimates = parallel::exactNumbers(in.at("estimates"));
    if (names && in.contains("names"))
        *names = in.at("names").get<std::vector<std::string>>();
    return out;
}

}  // namespace

const core::FieldTable<NoiseStudySettings>& noiseStudyFields()
{
    using S = NoiseStudySettings;
    static_assert(std::is_same_v<std::uint64_t, std::size_t>, "the seed is read as a whole number");
    static const core::FieldTable<S> table = [] {
        // Written only when chosen, so a project that never chose keeps its "study" object.
        auto kind = core::choiceField<S>(
            {.key = "kind",
             .option = "kind",
             .label = "study",
             .help = "what the realisations are drawn from",
             .defaultText = "auto"},
            [](S& s) -> StudyKind& { return s.kind; }, core::choicesOf(kStudyKinds));
        kind.present = [](const S& s) { return s.kind != StudyKind::Automatic; };
        return core::FieldTable<S>{
            kind,
            core::countField<S>(
                {.key = "realisations",
                 .option = "realisations",
                 .label = "realisations",
                 .help = "number of noise realisations"},
                [](S& s) -> std::size_t& { return s.realisations; }, 1),
            core::numberField<S>(
                {.key = "noise_percent",
                 .option = "noise",
                 .label = "noise",
                 .help = "P: noise amplitude in % of each signal's RMS"},
                [](S& s) -> double& { return s.noisePercent; },
                {core::NumberRule::Bound::Positive, "a finite number > 0 (percent of the signal RMS)"}),
            core::choiceField<S>(
                {.key = "distribution",
                 .option = "distribution",
                 .label = "noise distribution",
                 .help = "the noise's distribution"},
                [](S& s) -> data::NoiseDistribution& { return s.distribution; },
                core::choicesOf(data::kNoiseDistributions)),
            core::countField<S>(
                {.key = "seed",
                 .option = "seed",
                 .label = "seed",
                 .help = "base seed; realisation r uses seed + 1000003 r"},
                [](S& s) -> std::size_t& { return s.seed; }, 0),
        };
    }();
    return table;
}

void NoiseStudySettings::validate() const
{
    core::validateFields(noiseStudyFields(), *this);
}

StudyKind resolvedStudyKind(StudyKind kind, bool trueValuesKnown)
{
    if (kind == StudyKind::Automatic)
        return trueValuesKnown ? StudyKind::MonteCarlo : StudyKind::ParametricBootstrap;
    return kind;
}

std::uint64_t realisationSeed(std::uint64_t base, std::size_t realisation)
{
    return base + static_cast<std::uint64_t>(realisation) * 1000003u;
}

ParameterSummary summarise(const std::string& name, std::vector<double> values, double trueValue)
{
    // NaN would break the ordering the quartiles need; a fit never returns it, but be safe.
    std::erase_if(values, [](double v) { return !std::isfinite(v); });
    ParameterSummary s;
    s.name = name;
    s.count = values.size();
    s.trueValue = trueValue;
    if (values.empty()) {
        s.mean = s.sd = s.standardError = s.bias = s.biasPercent = kNaN;
        s.min = s.q1 = s.median = s.q3 = s.max = s.lowerWhisker = s.upperWhisker = kNaN;
        s.percentile2_5 = s.percentile97_5 = kNaN;
        return s;
    }
    std::sort(values.begin(), values.end());
    const auto n = static_cast<double>(values.size());
    double sum = 0;
    for (const double v : values)
        sum += v;
    s.mean = sum / n;
    // Two passes: the deviations from the mean, not sum(x^2) - n mean^2, which cancels when the
    // spread is small against the value (a well determined parameter).
    double squares = 0;
    for (const double v : values)
        squares += (v - s.mean) * (v - s.mean);
    s.sd = values.size() > 1 ? std::sqrt(squares / (n - 1)) : kNaN;
    s.standardError = s.sd / std::sqrt(n);
    s.bias = std::isfinite(trueValue) ? s.mean - trueValue : kNaN;
    s.biasPercent = std::isfinite(trueValue) && trueValue != 0 ? 100.0 * s.bias / std::abs(trueValue) : kNaN;
    s.min = values.front();
    s.max = values.back();
    s.q1 = quantile(values, 0.25);
    s.median = quantile(values, 0.5);
    s.q3 = quantile(values, 0.75);
    s.percentile2_5 = quantile(values, 0.025);
    s.percentile97_5 = quantile(values, 0.975);
    // Tukey, "Exploratory Data Analysis" (1977), ch. 2: whiskers reach the most extreme data
    // inside the inner fences Q1 - 1.5 IQR and Q3 + 1.5 IQR.
    const double iqr = s.q3 - s.q1;
    const double lowFence = s.q1 - 1.5 * iqr;
    const double highFence = s.q3 + 1.5 * iqr;
    s.lowerWhisker = *std::lower_bound(values.begin(), values.end(), lowFence);
    s.upperWhisker = *(std::upper_bound(values.begin(), values.end(), highFence) - 1);
    return s;
}

NoiseStudyResult NoiseStudy::run(const Progress& progress, std::stop_token stop) const
{
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        throw JobError(JobError::Kind::Settings, std::string("study: ") + e.what());
    }
    if (fit.experiments.empty())
        throw JobError(JobError::Kind::Data, "study: no data to add noise to: give the project at least one data set");

    const std::size_t total = settings.realisations;
    // What the finished realisations will hold (their estimates and messages), checked before the
    // first fit; the storage itself grows only as realisations finish.
    if (const std::string problem =
            core::memoryProblem(static_cast<double>(total) * (static_cast<double>(sizeof(RealisationResult)) + 256.0),
                                "keeping the results of " + std::to_string(total) + " realisations");
        !problem.empty())
        throw JobError(JobError::Kind::Settings, "study: " + problem + "; use fewer realisations");
    const StudyKind kind = resolvedStudyKind(settings.kind, !trueValues.empty());
    std::optional<BootstrapOrigin> origin;
    if (kind == StudyKind::ParametricBootstrap) {
        try {
            origin = bootstrapOrigin(fit, stop);
        } catch (const JobError&) {
            if (!stop.stop_requested())
                throw;
            NoiseStudyResult none;
            none.settings = settings;
            none.kind = kind;
            none.method = estimate::methodName(fit.settings.method);
            none.cancelled = true;
            none.ranks = processes ? processes->size() : 1;
            return none;
        }
    }

    const parallel::ProcessGroup& group = processes ? *processes : parallel::singleProcess();
    // One realisation, as the text it travels to process 0 in (parallel::distributedFor).
    auto realise = [&](std::size_t r, std::size_t, std::stop_token fitStop) -> std::optional<std::string> {
        FitJob job = origin ? bootstrapRealisation(fit, *origin, realisationSeed(settings.seed, r)) : fit;
        if (!origin)
            job.preprocessing.noise = data::Preprocessing::AddedNoise{settings.noisePercent, settings.distribution,
                                                                      realisationSeed(settings.seed, r)};
        RealisationResult out;
        out.index = r;
        out.seed = realisationSeed(settings.seed, r);
        NameSink sink;
        try {
            const estimate::FitResult result = job.run(sink, fitStop);
            if (result.cancelled())
                return std::nullopt;
            out.converged = result.converged();
            out.iterations = result.iterations;
            out.cost = result.cost;
            out.message = result.termination.message;
            for (const auto& p : result.parameters)
                out.estimates.push_back(p.value);
        } catch (const JobError& e) {
            if (fitStop.stop_requested())
                return std::nullopt;  // a fit broken off by the stop is not a failure of the data
            out.failed = true;
            out.message = e.what();
        }
        return realisationText(out, out.failed ? std::vector<std::string>{} : sink.names);
    };
    std::size_t finished = 0;
    const auto results = parallel::distributedFor(
        group, total, threads, realise,
        [&](const parallel::IndexResult& r) {
            ++finished;
            if (progress)
                progress(realisationOf(r, settings.seed, nullptr), finished, total);
        },
        stop);

    NoiseStudyResult study;
    study.settings = settings;
    study.kind = kind;
    study.method = estimate::methodName(fit.settings.method);
    study.ranks = group.size();
    if (!group.isRoot())
        return study;
    std::vector<std::string> names;
    for (const parallel::IndexResult& r : results) {
        RealisationResult realisation = realisationOf(r, settings.seed, names.empty() ? &names : nullptr);
        study.failed += realisation.failed ? 1 : 0;
        study.notConverged += !realisation.failed && !realisation.converged ? 1 : 0;
        study.realisations.push_back(std::move(realisation));
    }
    if (names.empty() && origin)
        for (const auto& e : origin->estimate.parameters)
            names.push_back(e.name);
    study.parameterNames = names;
    study.cancelled = study.realisations.size() < total;
    for (std::size_t p = 0; p < names.size(); ++p) {
        std::vector<double> values;
        for (const auto& r : study.realisations)
            if (!r.failed && p < r.estimates.size())
                values.push_back(r.estimates[p]);
        const auto truth = trueValues.find(names[p]);
        // A bootstrap has no truth to measure a bias against: its reference is the estimate.
        const double trueValue = origin || truth == trueValues.end() ? kNaN : truth->second;
        study.summary.push_back(summarise(names[p], std::move(values), trueValue));
        study.summary.back().estimate = kNaN;
        if (origin)
            for (const auto& e : origin->estimate.parameters)
                if (e.name == names[p])
                    study.summary.back().estimate = e.value;
    }
    return study;
}

}  // namespace sysid::job
