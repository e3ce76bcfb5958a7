// sysid fit: estimate a model's parameters from data, from a project file or from a model
// and CSV files given on the command line. Progress on stderr, RESULT.json written atomically.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/FitJobOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/PreprocessingOptions.h"
#include "app/cli/Processes.h"
#include "app/cli/StderrProgress.h"

#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "engine/data/Text.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/job/FitJob.h"
#include "engine/job/Multistart.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/FitReport.h"
#include "engine/project/MultistartJson.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ProjectValidation.h"
#include "engine/project/ResultJson.h"

#include <boost/program_options.hpp>

#include <cstdio>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

// central | smoothing-spline | savitzky-golay[:WINDOW:ORDER]
data::Preprocessing::Derivative parseDifferentiation(const std::string& text)
{
    data::Preprocessing::Derivative d;
    const auto colon = text.find(':');
    const std::string name = text.substr(0, colon);
    const auto method = data::kDerivativeMethods.parse(name);
    if (!method)
        throw UsageError(data::kDerivativeMethods.mustBe("--differentiation", text) +
                         " (savitzky-golay takes :WINDOW:ORDER)");
    d.method = *method;
    if (colon != std::string::npos) {
        const std::string rest = text.substr(colon + 1);
        const auto second = rest.find(':');
        if (d.method != data::DerivativeMethod::SavitzkyGolay || second == std::string::npos)
            throw UsageError("--differentiation: only savitzky-golay takes :WINDOW:ORDER, got '" + text + "'");
        d.window = static_cast<int>(parseNumber(rest.substr(0, second), "--differentiation window"));
        d.polynomialOrder = static_cast<int>(parseNumber(rest.substr(second + 1), "--differentiation order"));
    }
    try {
        d.validate();
    } catch (const core::SettingError& e) {
        throw UsageError(std::string("--differentiation: ") + e.what());
    }
    return d;
}

}  // namespace

int runFit(const Arguments& args)
{
    const data::Preprocessing::Derivative derivative;
    const NamedOptions named(args);
    po::options_description options(
        "sysid fit PROJECT.sysid [-o RESULT.json] [--quiet] [options]\n"
        "sysid fit MODEL --data DATA.csv [--data MORE.csv]... [options] -o RESULT.json\n"
        "A PROJECT (.sysid) names its data and settings; options given here override its settings");
    // clang-format off
    NamedOptionsInit(options, named, "input")
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project or the .model file")
        ("differentiation", po::value<std::string>(),
         ("how unmeasured velocities are obtained (single-step, multistep): " + data::kDerivativeMethods.choices() +
          "; savitzky-golay:WINDOW:ORDER sets its window and polynomial order (default: central; savitzky-golay " +
          std::to_string(derivative.window) + ":" + std::to_string(derivative.polynomialOrder) + "). " +
          data::kDerivativeMethods.help()).c_str())
        ("refine", "after single-step or multistep, run output error from its estimate")
        ("threads", po::value<long long>(), "worker threads of a --multistart (default: all cores)")
        ("quiet,q", "no progress lines on stderr")
        ("report", "print the full report of the fit on stderr (method, settings that differ from the defaults, "
                   "iterations, evaluations, seconds per phase, integration statistics, whether each output's "
                   "residuals are white and uncorrelated with the inputs, why it stopped), also "
                   "with --quiet; RESULT.json holds it as \"report\" in any case")
        ("output,o", po::value<std::string>(), "RESULT.json (- for standard output; PROJECT form default: standard output)");
    // clang-format on
    addFieldOptions(options, named, nullptr, job::multistartFields());
    addFitJobOptions(options, named);
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    if (!vm.count("input"))
        throw UsageError("missing the PROJECT.sysid or MODEL file");
    const std::string input = vm["input"].as<std::string>();
    const bool quiet = vm.count("quiet") > 0;

    LoadedFit loaded = loadFitJob(vm, input, [&] {
        if (!isProjectFile(input) && !vm.count("output"))
            throw UsageError("missing -o RESULT.json (- for standard output)");
        checkOutputPlace(vm.count("output") ? vm["output"].as<std::string>() : "-");
    });
    job::FitJob& fit = loaded.job;
    const std::map<std::string, double>& trueValues = loaded.trueValues;
    const auto refuse = [&](estimate::MethodInput input, const char* option) {
        if (!estimate::takes(fit.settings.method, input))
            throw UsageError(estimate::notTakenMessage(option, {input}, fit.settings.method));
    };
    if (vm.count("differentiation")) {
        fit.preprocessing.differentiation = parseDifferentiation(vm["differentiation"].as<std::string>());
        refuse(estimate::MethodInput::Differentiation, "--differentiation");
    }
    if (vm.count("refine") && !estimate::takes(fit.settings.method, estimate::MethodInput::Refinement))
        throw UsageError("--refine follows an equation-error fit: use it with --method " +
                         estimate::methodsTaking(estimate::MethodInput::Refinement));

    const bool multistart = vm.count("multistart") > 0;
    if (!multistart)
        for (const char* option : {"seed", "minimum-tolerance", "threads"})
            if (vm.count(option))
                throw UsageError(std::string("--") + option + " applies to a multistart: add --multistart N");
    if (multistart && vm.count("refine"))
        throw UsageError("--refine and --multistart do not go together: run the multistart with --method output-error");
    // Under MPI only a multistart is spread over the processes; a single fit is process 0's alone.
    if (!multistart && !processes().isRoot())
        return Success;

    StderrProgress progress(quiet);
    auto report = [&](const estimate::FitResult& r) {
        if (vm.count("report"))
            std::cerr << project::fitReport(r) << '\n' << std::flush;
    };
    std::optional<job::MultistartResult> starts;
    estimate::FitResult result;
    if (multistart) {
        job::Multistart job;
        job.fit = fit;
        if (loaded.project && loaded.project->multistart)
            job.settings = *loaded.project->multistart;
        applyFieldOptions(vm, job::multistartFields(), job.settings);
        job.threads = threadsOption(vm);
        job.processes = &processes();
        if (!quiet)
            std::cerr << "multistart: " << job.settings.starts << " fits by "
                      << estimate::methodName(fit.settings.method) << " from starts drawn within the bounds (seed "
                      << job.settings.seed << ")" << onProcesses() << "\n"
                      << std::flush;
        starts = job.run(
            [&](const job::Multistart::Progress& p) {
                if (quiet || !p.start)
                    return;
                const job::MultistartStart& s = *p.start;
                std::cerr << "start " << s.index << " (" << p.done << "/" << p.total << "): "
                          << (std::isfinite(s.cost) ? "cost " + data::formatNumber(s.cost, 8) : std::string("failed"))
                          << ", " << core::terminationKinds.name(s.kind) << (s.stopReason.empty() ? "" : ": ")
                          << s.stopReason << "\n"
                          << std::flush;
            },
            interruptToken());
        if (!processes().isRoot())
            return Success;
        if (!starts->best)
            throw job::JobError(
                job::JobError::Kind::Fit,
                "every start of the multistart failed; the first: " +
                    (starts->starts.empty() ? std::string("cancelled") : starts->starts.front().stopReason));
        result = starts->fit;
        if (!quiet)
            std::cerr << "multistart: " << starts->minima.size() << " distinct minim"
                      << (starts->minima.size() == 1 ? "um" : "a") << ", " << starts->failed << " failed start(s); "
                      << "the lowest cost " << data::formatNumber(result.cost, 8) << " (start " << *starts->best
                      << ") reached by " << data::formatNumber(100 * starts->fractionBest, 3) << " % of the starts\n"
                      << std::flush;
    } else {
        result = fit.run(progress, interruptToken());
    }
    report(result);
    std::map<std::string, double> estimates;  // of the fit whose result is written
    for (const auto& p : result.parameters)
        estimates[p.name] = p.value;
    nlohmann::json resultJson = project::resultToJson(result, trueValues);
    if (starts)
        resultJson["multistart"] = project::multistartToJson(*starts);
    if (vm.count("refine") && !result.cancelled()) {
        progress.log("refining by output error from the " + estimate::methodName(fit.settings.method) + " estimate");
        const estimate::FitResult refined = job::refinedByOutputError(fit, result).run(progress, interruptToken());
        report(refined);
        for (const auto& p : refined.parameters)
            estimates[p.name] = p.value;
        nlohmann::json refinedJson = project::resultToJson(refined, trueValues);
        refinedJson["equation_error_estimate"] = std::move(resultJson);
        resultJson = std::move(refinedJson);
    }
    // The model the estimates belong to, so that `sysid compare RESULT.json` can simulate it.
    resultJson["model"] = {{"file", fit.modelSource}, {"text", fit.modelText}};
    // The model at the estimate on each validation data set, its initial values as `sysid compare`
    // takes them by default.
    if (loaded.project && !project::validationDataSets(*loaded.project).empty() && !result.cancelled()) {
        const auto comparisons =
            project::compareValidationDataSets(*loaded.project, fit, estimates, job::defaultInitialValues(result));
        if (!quiet || vm.count("report"))
            std::cerr << project::validationReport(comparisons) << std::flush;
        resultJson["validation"] = project::validationToJson(comparisons);
    }
    const std::string text = resultJson.dump(2) + "\n";
    const std::string out = vm.count("output") ? vm["output"].as<std::string>() : "-";
    if (out == "-")
        std::cout << text << std::flush;
    else
        project::writeFileAtomically(out, text);
    return Success;
}

}  // namespace sysid::cli
