// sysid optimal: optimal estimation (seed 001) of states, inputs and parameters from one
// measured record, from a model and a CSV file or from a project. Progress on stderr,
// RESULT.json (and optionally the residual traces as CSV) written atomically.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/StderrProgress.h"

#include "engine/data/CsvReader.h"
#include "engine/data/Text.h"
#include "engine/job/OptimalEstimationJob.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/OptimalEstimationJson.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"

#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Strings = std::vector<std::string>;

// Applies the options given on the command line to settings (a project's or the defaults);
// OptimalEstimationSettings::validate's rules name the option that broke them.
void applyOptimalSettings(const po::variables_map& vm, estimate::OptimalEstimationSettings& settings)
{
    for (const auto& [name, weight] : namedValues(vm, "state-weight", "NAME=W"))
        settings.stateWeights[name] = weight;
    for (const auto& [name, weight] : namedValues(vm, "measurement-weight", "NAME=V"))
        settings.measurementWeights[name] = weight;
    for (const auto& [name, prior] : namedPairs(vm, "initial", "NAME=VALUE,WEIGHT", "value", "weight"))
        settings.initialPrior[name] = prior;
    if (vm.count("points"))
        settings.shootingPoints = countOption(vm, "points", 0);
    if (vm.count("first-stage")) {
        const auto name = vm["first-stage"].as<std::string>();
        const auto method = integrate::kIntegrationMethods.parse(name);
        if (!method)
            throw UsageError(
                integrate::kIntegrationMethods.mustBe("--first-stage", name, estimate::isFirstStageMethod));
        settings.firstStageMethod = *method;
    }
    if (vm.count("first-stage-steps"))
        settings.firstStageSteps = countOption(vm, "first-stage-steps", 0);
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        static const std::pair<const char*, const char*> options[] = {
            {"state_weights.", "--state-weight "},   {"measurement_weights.", "--measurement-weight "},
            {"initial_prior.", "--initial "},        {"shooting_points", "--points"},
            {"first_stage.method", "--first-stage"}, {"first_stage.steps_per_interval", "--first-stage-steps"}};
        for (const auto& [key, option] : options)
            if (e.key().starts_with(key)) {
                std::string entry = e.key().substr(std::string_view(key).size());
                entry = entry.substr(0, entry.find('.'));
                throw UsageError(option + entry + ": " + e.expectation());
            }
        throw UsageError(e.what());
    }
}

// t, then one column per residual ("xi:x", "eps:y", ...), one row per sample.
std::string residualCsv(const estimate::OptimalEstimationResult& r)
{
    std::string text = "t";
    for (const auto& name : r.residualNames)
        text += "," + name;
    text += '\n';
    for (Eigen::Index k = 0; k < r.residuals.rows(); ++k) {
        text += data::formatNumber(r.times[static_cast<std::size_t>(k)], 17);
        for (Eigen::Index c = 0; c < r.residuals.cols(); ++c)
            text += "," + data::formatNumber(r.residuals(k, c), 17);
        text += '\n';
    }
    return text;
}

}  // namespace

int runOptimal(const Arguments& args)
{
    po::options_description options(
        "sysid optimal MODEL --data DATA.csv [options] -o RESULT.json [--residuals RESIDUALS.csv]\n"
        "sysid optimal PROJECT.sysid [options] [-o RESULT.json]\n"
        "Optimal estimation (Rutten 1993): states, inputs and parameters minimising the weighted model and\n"
        "measurement residuals, by multiple shooting. A PROJECT gives its first data set and its\n"
        "\"optimal_estimation\" settings; options given here override them. Exit 1 when it does not converge.");
    // clang-format off
    options.add_options()
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project or the .model file")
        ("data", po::value<std::string>(), "CSV file of the record (MODEL form)")
        ("time", po::value<std::string>(), "name of the time column (default: t, time or the first; MODEL form)")
        ("map", po::value<Strings>()->composing(), "NAME=COLUMN: read a model output or input from another column "
                                                   "(repeatable; MODEL form)")
        ("state-weight", po::value<Strings>()->composing(),
         "NAME=W: weight W > 0 of the model residual xi of an augmented state (x, x', or a parameter; default 1)")
        ("measurement-weight", po::value<Strings>()->composing(),
         "NAME=V: weight V >= 0 of a residual eps (an output, an input or eom:COORDINATE; default 1)")
        ("initial", po::value<Strings>()->composing(),
         "NAME=VALUE,WEIGHT: prior q_a and weight W_a >= 0 on an augmented state at the start (repeatable)")
        ("points", po::value<long long>(), "shooting points on the data's time span (default 101)")
        ("first-stage", po::value<std::string>(),
         ("method of the loose first stage: " + integrate::kIntegrationMethods.choices(" | ", estimate::isFirstStageMethod) +
          " (default euler, Rutten 1993 sec. 5.4; the implicit schemes for stiff problems)").c_str())
        ("first-stage-steps", po::value<long long>(),
         "fixed steps per shooting interval in the first stage (default 1); a stiff problem needs "
         "h*lambda >= -2 for euler")
        ("set", po::value<Strings>()->composing(), "NAME=VALUE: starting value of a parameter (repeatable)")
        ("quiet,q", "no progress lines on stderr")
        ("output,o", po::value<std::string>(), "RESULT.json (- for standard output; PROJECT form default: standard output)")
        ("residuals", po::value<std::string>(), "RESIDUALS.csv: t and the residual traces xi and eps");
    // clang-format on
    addCsvFormatOptions(options);
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const std::string input = inputArgument(vm);
    const bool isProject = isProjectFile(input);
    const bool quiet = vm.count("quiet") > 0;

    job::OptimalEstimationJob estimate;
    {
        estimate::OptimalEstimationSettings settings;  // arguments are checked before anything is read
        applyOptimalSettings(vm, settings);
        namedValues(vm, "set");
    }
    if (!isProject && !vm.count("output"))
        throw UsageError("missing -o RESULT.json (- for standard output)");
    const std::string out = vm.count("output") ? vm["output"].as<std::string>() : "-";
    checkOutputPlace(out, "-o");
    if (vm.count("residuals")) {
        if (vm["residuals"].as<std::string>() == "-")
            throw UsageError("--residuals needs a file name");
        checkOutputPlace(vm["residuals"].as<std::string>(), "--residuals");
    }

    if (isProject) {
        refuseModelFormOptions(vm, input);
        project::Project project = project::loadProject(input);
        const std::vector<std::size_t> fitted = project::estimationDataSets(project);
        if (fitted.empty())
            throw UserError(input + ": the project has no data set to estimate from" +
                            (project.data.empty() ? "" : " (every one is excluded or kept for validation)"));
        project.data = {project.data[fitted.front()]};  // optimal estimation uses one record: the first fitted
        for (const auto& [name, value] : namedValues(vm, "set"))
            project.parameterValues[name] = value;
        job::FitJob fit = project::makeFitJob(project);
        estimate.modelText = fit.modelText;
        estimate.modelSource = fit.modelSource;
        estimate.experiment = fit.experiments.front();
        estimate.preprocessing = fit.preprocessing;
        estimate.parameterValues = fit.parameterValues;
        if (project.optimalEstimation)
            estimate.settings = *project.optimalEstimation;
    } else {
        if (!vm.count("data"))
            throw UsageError("missing --data DATA.csv (a MODEL needs data; or give a PROJECT.sysid)");
        estimate.modelText = readModelText(input);
        estimate.modelSource = input;
        estimate.parameterValues = namedValues(vm, "set");
        const std::string path = vm["data"].as<std::string>();
        estimate.experiment.name = path;
        estimate.experiment.table = data::readCsv(path, csvOptions(vm));
        estimate.experiment.mapping = columnMapping(vm);
    }
    applyOptimalSettings(vm, estimate.settings);

    StderrProgress progress(quiet, false);  // the job logs each Newton iteration with its timings
    const estimate::OptimalEstimationResult result = estimate.run(progress);
    writeResult(out, project::optimalResultToJson(result).dump(2) + "\n");
    if (vm.count("residuals"))
        project::writeFileAtomically(vm["residuals"].as<std::string>(), residualCsv(result));
    if (!result.converged()) {
        std::cerr << "sysid optimal: did not converge: " << result.termination.message << '\n';
        return UserErrorExit;
    }
    return Success;
}

}  // namespace sysid::cli
