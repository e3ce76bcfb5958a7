// sysid study: N noisy copies of a project's data, each identified — a Monte Carlo study against
// the true values of simulated data (seed note 004), or a parametric bootstrap around the estimate
// on measured data (Efron & Tibshirani 1993); the spread of the estimates as a table on stdout,
// one progress line per realisation on stderr, everything as JSON or CSV with -o.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/Processes.h"

#include "engine/data/Text.h"
#include "engine/job/NoiseStudy.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/StudyJson.h"

#include <boost/program_options.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

// -n for --realisations.
const std::map<std::string, std::string> kStudyOptionNames{{"realisations", "realisations,n"}};

std::string cell(double v, const char* spec = "%12.6g")
{
    if (!std::isfinite(v))
        return std::string(12 - 1, ' ') + "-";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, spec, v);
    return buffer;
}

void printTable(const job::NoiseStudyResult& r, std::ostream& out)
{
    const bool bootstrap = r.kind == job::StudyKind::ParametricBootstrap;
    out << job::kStudyKinds.label(r.kind) << "\n"
        << r.realisations.size() << " of " << r.settings.realisations << " realisations"
        << (r.cancelled ? " (cancelled)" : "") << ", " << r.failed << " failed, " << r.notConverged
        << " not converged; " << r.method << ", ";
    if (bootstrap)
        out << "Gaussian noise with the residual RMS of each output";
    else
        out << "noise " << data::formatNumber(r.settings.noisePercent) << " % RMS "
            << data::noiseDistributionName(r.settings.distribution);
    out << ", seed " << r.settings.seed << "\n";
    std::size_t width = 9;
    for (const auto& s : r.summary)
        width = std::max(width, s.name.size());
    char header[256];
    if (bootstrap)
        std::snprintf(header, sizeof header, "%-*s %12s %12s %12s %12s %12s\n", static_cast<int>(width), "parameter",
                      "estimate", "mean", "sd", "2.5 %", "97.5 %");
    else
        std::snprintf(header, sizeof header, "%-*s %12s %12s %12s %12s %12s\n", static_cast<int>(width), "parameter",
                      "true", "mean", "sd", "bias", "bias %");
    out << header;
    for (const auto& s : r.summary) {
        std::string name = s.name;
        name.resize(width, ' ');
        out << name << ' ' << cell(bootstrap ? s.estimate : s.trueValue) << ' ' << cell(s.mean) << ' ' << cell(s.sd)
            << ' ';
        if (bootstrap)
            out << cell(s.percentile2_5) << ' ' << cell(s.percentile97_5) << "\n";
        else
            out << cell(s.bias) << ' ' << cell(s.biasPercent, "%12.3g") << "\n";
    }
}

}  // namespace

int runStudy(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options(
        "sysid study PROJECT.sysid [--kind auto|monte-carlo|bootstrap] [--realisations N] [--noise P]\n"
        "            [--distribution uniform|gaussian] [--seed S] [--threads K] [--method M] [-o "
        "RESULT.json|RESULT.csv]\n"
        "Fits the project N times to noisy copies of its data. Monte Carlo (data simulated with known true\n"
        "values): new noise of P % of each signal's RMS is added before the filters, and mean, sd and bias\n"
        "against the true values are printed. Parametric bootstrap (Efron & Tibshirani 1993; measured data):\n"
        "the model simulated at the estimate plus Gaussian noise with each output's residual RMS; mean, sd\n"
        "and the 95 % percentile interval around the estimate are printed. --kind auto (the default) picks\n"
        "Monte Carlo when the data sets carry true values. Options override the project's \"study\" settings");
    // clang-format off
    NamedOptionsInit(options, named, "input")
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project")
        ("threads", po::value<long long>(), "worker threads (default: all cores; under mpirun, per process: the node's cores shared among its processes)")
        ("method", po::value<std::string>(), estimationMethodHelp("estimation method (default: the project's)").c_str())
        ("quiet,q", "no progress lines on stderr")
        ("output,o", po::value<std::string>(), "RESULT.json or RESULT.csv (one row per realisation); - for JSON on "
                                               "standard output instead of the table");
    // clang-format on
    addFieldOptions(options, named, nullptr, job::noiseStudyFields(), {}, kStudyOptionNames);
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const std::string input = inputArgument(vm, "missing the PROJECT.sysid file");
    if (!isProjectFile(input))
        throw UsageError("a study runs a project: give a PROJECT.sysid file, not '" + input + "'");

    job::NoiseStudySettings checked;  // option errors come before the project is read
    applyFieldOptions(vm, job::noiseStudyFields(), checked, {}, kStudyOptionNames);
    const std::optional<estimate::EstimationMethod> method = estimationMethodOption(vm);
    const unsigned threads = threadsOption(vm);
    std::string output;
    bool csv = false;
    if (vm.count("output")) {
        output = vm["output"].as<std::string>();
        const std::string extension = std::filesystem::path(output).extension().string();
        if (output != "-" && extension != ".json" && extension != ".csv")
            throw UsageError("-o: the result file must end in .json or .csv, not '" + output + "'");
        csv = extension == ".csv";
        checkOutputPlace(output);
    }
    const bool quiet = vm.count("quiet") > 0;

    const project::Project project = project::loadProject(input);
    job::NoiseStudy study;
    study.fit = project::makeFitJob(project);
    if (method)
        study.fit.settings.method = *method;
    study.settings = project.study.value_or(job::NoiseStudySettings{});
    applyFieldOptions(vm, job::noiseStudyFields(), study.settings, {}, kStudyOptionNames);
    study.trueValues = project::trueValues(project);
    study.threads = threads;
    study.processes = &processes();

    if (!quiet)
        std::cerr << "study: "
                  << job::kStudyKinds.label(job::resolvedStudyKind(study.settings.kind, !study.trueValues.empty()))
                  << ": " << study.settings.realisations << " realisations of " << input << " by "
                  << estimate::methodName(study.fit.settings.method) << onProcesses() << "\n"
                  << std::flush;
    const job::NoiseStudyResult result = study.run(
        [&](const job::RealisationResult& r, std::size_t done, std::size_t total) {
            if (quiet)
                return;
            std::string line = "realisation " + std::to_string(r.index + 1) + " (" + std::to_string(done) + "/" +
                std::to_string(total) + "): ";
            line += r.failed ? "failed: " + r.message
                             : (r.converged ? "converged" : "not converged (" + r.message + ")") + std::string(", ") +
                    std::to_string(r.iterations) + " iterations";
            std::cerr << line << '\n' << std::flush;
        },
        interruptToken());
    if (!processes().isRoot())
        return Success;  // rank 0 has every realisation and writes the result

    if (result.failed == result.realisations.size() && !result.realisations.empty())
        throw UserError("every realisation failed; the first: " + result.realisations.front().message);

    if (output == "-") {
        std::cout << project::studyResultToJson(result).dump(2) << "\n" << std::flush;
        return Success;
    }
    printTable(result, std::cout);
    std::cout << std::flush;
    if (!output.empty())
        project::writeFileAtomically(
            output, csv ? project::studyResultToCsv(result) : project::studyResultToJson(result).dump(2) + "\n");
    return Success;
}

}  // namespace sysid::cli
