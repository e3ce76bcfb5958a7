// sysid profile: the profile likelihood of a fit's parameters (Raue et al. 2009): each stepped away
// from the optimum with the others re-fitted, the likelihood-based interval where the profile crosses
// the chi-squared threshold, and whether the data determine the parameter at all. A table on stdout,
// one line per re-fit on stderr, everything as JSON with -o.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/FitJobOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/Processes.h"

#include "engine/data/Text.h"
#include "engine/job/ProfileLikelihood.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/ProfileJson.h"

#include <boost/program_options.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Strings = std::vector<std::string>;

// LOW:HIGH
std::array<double, 2> parseRange(const std::string& text, const std::string& option)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        throw UsageError(option + " expects LOW:HIGH, got '" + text + "'");
    const std::array<double, 2> range{parseNumber(text.substr(0, colon), option + " (low)"),
                                      parseNumber(text.substr(colon + 1), option + " (high)")};
    if (!(range[0] < range[1]))
        throw UsageError(option + ": LOW must be below HIGH, got '" + text + "'");
    return range;
}

std::string cell(const std::optional<double>& v)
{
    if (!v || !std::isfinite(*v))
        return "open";
    return data::formatNumber(*v, 6);
}

void printTable(const job::ProfileResult& r, std::ostream& out)
{
    out << "profile likelihood by " << r.method << ": " << data::formatNumber(100 * r.settings.confidence)
        << " % intervals where -2 log L rises by " << data::formatNumber(r.threshold, 4)
        << (r.settings.simultaneous ? " (simultaneous)" : "") << (r.cancelled ? " (cancelled)" : "") << "\n";
    std::size_t width = 9;
    for (const auto& p : r.profiles)
        width = std::max(width, p.name.size());
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %12s %12s %12s %12s %12s  %s\n", static_cast<int>(width), "parameter",
                  "estimate", "low", "high", "Wald low", "Wald high", "verdict");
    out << line;
    for (const auto& p : r.profiles) {
        std::snprintf(line, sizeof line, "%-*s %12s %12s %12s %12s %12s  %s\n", static_cast<int>(width), p.name.c_str(),
                      data::formatNumber(p.estimate, 6).c_str(), cell(p.low).c_str(), cell(p.high).c_str(),
                      cell(p.waldInterval[0]).c_str(), cell(p.waldInterval[1]).c_str(),
                      job::verdictName(p.verdict).c_str());
        out << line;
    }
    if (std::isfinite(r.lowerObjective))
        out << "a profile met a lower objective (" << data::formatNumber(r.lowerObjective - r.objectiveAtOptimum, 4)
            << " against the optimum): the fit had not found the minimum; fit again from there (\"lower_optimum\" "
               "in the JSON)\n";
}

}  // namespace

int runProfile(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options(
        "sysid profile PROJECT.sysid|MODEL [--data DATA.csv]... [--parameter NAME]... [--range [NAME=]LOW:HIGH]...\n"
        "              [--points N] [--confidence C] [--simultaneous] [--threads K] [options] [-o PROFILE.json]\n"
        "The profile likelihood (Raue et al. 2009) of the fit's parameters: each one is stepped away from the\n"
        "optimum in both directions, with adaptive steps, and the other parameters are fitted again at each step,\n"
        "starting from the neighbouring step. The objective is -2 log-likelihood up to a constant (the weighted\n"
        "squared residuals over the residual variance at the optimum; with priors the weighted squared residuals\n"
        "plus the prior terms; for ml its own -2 ln L). A re-fit that fails is tried again with half the step. The\n"
        "interval is where it stays below the optimum + the chi-squared quantile (3.84 for 95 %; with\n"
        "--simultaneous, with as many degrees of freedom as parameters). A parameter whose profile stays below\n"
        "it on a side within the range or its bounds is practically non-identifiable; one whose profile is\n"
        "flat is structurally non-identifiable. Fit options as for `sysid fit`; options override a project's\n"
        "\"profile\" settings");
    // clang-format off
    NamedOptionsInit(options, named, "input")
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project or the .model file")
        ("parameter", po::value<Strings>()->composing(), "NAME: an estimated parameter to profile (repeatable; "
                                                         "default: every estimated parameter)")
        ("range", po::value<Strings>()->composing(), "[NAME=]LOW:HIGH: how far the profile of NAME may go (default: "
                                                     "its bounds; without NAME: of the one --parameter)")
        ("threads", po::value<long long>(), "worker threads (default: all cores; under mpirun, per process: the node's cores shared among its processes)")
        ("quiet,q", "no progress lines on stderr")
        ("output,o", po::value<std::string>(), "PROFILE.json (- for JSON on standard output instead of the table)");
    // clang-format on
    addFieldOptions(options, named, nullptr, job::profileFields());
    addFitJobOptions(options, named);
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const std::string input = inputArgument(vm);

    // The options are checked before anything is read, and applied over a project's "profile" after.
    job::ProfileLikelihood profile;
    const auto applyOptions = [&](job::ProfileSettings& settings) {
        applyFieldOptions(vm, job::profileFields(), settings);
        try {
            settings.validate();
        } catch (const core::SettingError& e) {
            throw UsageError("--" + e.key() + ": " + e.expectation());
        }
    };
    applyOptions(profile.settings);
    profile.parameters = repeated(vm, "parameter");
    for (const std::string& item : repeated(vm, "range")) {
        if (item.find('=') == std::string::npos) {
            if (profile.parameters.size() != 1)
                throw UsageError("--range " + item +
                                 ": say whose range it is (--range NAME=LOW:HIGH), or profile "
                                 "one --parameter");
            profile.ranges[profile.parameters.front()] = parseRange(item, "--range");
        } else {
            const auto [name, range] = splitAssignment(item, "--range", "NAME=LOW:HIGH");
            profile.ranges[name] = parseRange(range, "--range " + name);
        }
    }
    profile.threads = threadsOption(vm);
    profile.processes = &processes();
    const std::string output = vm.count("output") ? vm["output"].as<std::string>() : std::string();
    if (!output.empty() && output != "-" && std::filesystem::path(output).extension() != ".json")
        throw UsageError("-o: the profile file must end in .json, not '" + output + "'");
    LoadedFit loaded = loadFitJob(vm, input, [&] {
        if (!output.empty())
            checkOutputPlace(output);
    });
    profile.fit = std::move(loaded.job);
    if (loaded.project && loaded.project->profile) {
        profile.settings = loaded.project->profile->settings;
        applyOptions(profile.settings);
        if (profile.parameters.empty())
            profile.parameters = loaded.project->profile->parameters;
    }
    const bool quiet = vm.count("quiet") > 0;

    if (!quiet)
        std::cerr << "profile: fitting " << input << " by " << estimate::methodName(profile.fit.settings.method)
                  << " for the optimum" << onProcesses() << "\n"
                  << std::flush;
    const job::ProfileResult result = profile.run(
        [&](const job::ProfileLikelihood::Progress& p) {
            if (quiet)
                return;
            if (p.parameter.empty()) {
                std::cerr << "profile: optimum found; stepping " << p.sidesTotal / 2 << " parameter(s) both ways\n";
            } else if (p.point) {
                std::cerr << "profile " << p.parameter << (p.direction < 0 ? " down" : " up") << ": "
                          << data::formatNumber(p.point->value, 6) << (p.point->converged ? "" : " (not converged)")
                          << ", objective " << data::formatNumber(p.point->objective, 8) << "\n";
            } else if (p.sidesDone > 0 && p.pointsDone > 0) {
                return;  // a side ended, or a step was redone
            }
            std::cerr << std::flush;
        },
        interruptToken());
    if (!processes().isRoot())
        return Success;  // rank 0 has every profile and writes the result

    const std::string json = project::profileResultToJson(result).dump(2) + "\n";
    if (output == "-") {
        std::cout << json << std::flush;
        return Success;
    }
    printTable(result, std::cout);
    std::cout << std::flush;
    if (!output.empty())
        project::writeFileAtomically(output, json);
    return Success;
}

}  // namespace sysid::cli
