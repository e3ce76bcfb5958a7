// sysid optimal: optimal estimation (seed 001) of states, inputs and parameters from one
// measured record, from a model and a CSV file or from a project. Progress on stderr,
// RESULT.json (and optionally the residual traces as CSV) written atomically.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/StageOptions.h"
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

// Applies the options given on the command line to settings (a project's or the defaults):
// the settings' field table (OptimalEstimationSettings), the priors, the guesses and the schedule.
// Their rules name the option that broke them.
void applyOptimalSettings(const po::variables_map& vm, estimate::OptimalEstimationSettings& settings)
{
    for (const auto& [name, prior] : namedPairs(vm, "initial", "NAME=VALUE,WEIGHT", "value", "weight"))
        settings.initialPrior[name] = prior;
    for (const auto& item : repeated(vm, "guess")) {
        const auto [name, expression] = splitAssignment(item, "--guess", "STATE=EXPRESSION");
        settings.guessExpressions[name] = expression;
    }
    // The older spelling of stage 1's method and steps.
    if (vm.count("first-stage")) {
        const auto name = vm["first-stage"].as<std::string>();
        const auto method = integrate::kIntegrationMethods.parse(name);
        if (!method || !estimate::isFirstStageMethod(*method))
            throw UsageError(
                integrate::kIntegrationMethods.mustBe("--first-stage", name, estimate::isFirstStageMethod));
        settings.stages.front().integrator.method = *method;
    }
    if (vm.count("first-stage-steps"))
        settings.stages.front().stepsPerInterval = countOption(vm, "first-stage-steps", 1);
    applyStageOptions(vm, settings.stages);
    FieldOptionPolicy<core::NoNeed> policy;
    policy.otherOptions = {{"initial_prior", "initial"}, {"initial_guess", "guess"}};
    applyFieldOptions(vm, estimate::optimalEstimationSettingFields(), settings, policy);
}

// The trajectories of settings.guessFrom: a result file, or the project's last result.
void readStartTrajectory(estimate::OptimalEstimationSettings& settings, const project::Project* project,
                         const std::string& input)
{
    if (settings.guessFrom.empty())
        return;
    if (settings.guessFrom == estimate::kLastOptimalResult) {
        if (!project)
            throw UsageError(std::string("--guess-from ") + estimate::kLastOptimalResult +
                             " needs a PROJECT.sysid (a MODEL has no stored result): give a RESULT.json");
        if (!project->lastOptimalResult)
            throw UserError(input +
                            ": the project holds no optimal-estimation result to start from (run it in "
                            "the GUI and save the project, or give --guess-from RESULT.json)");
        try {
            settings.startFrom = estimate::startTrajectoryFrom(
                project::optimalResultFromJson(*project->lastOptimalResult), input + " (last result)");
        } catch (const std::invalid_argument& e) {
            throw UserError(input + ": last_optimal_result." + e.what());
        }
        return;
    }
    try {
        settings.startFrom = project::loadStartTrajectory(settings.guessFrom);
    } catch (const std::invalid_argument& e) {
        throw UserError(e.what());
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
    const NamedOptions named(args);
    po::options_description options(
        "sysid optimal MODEL --data DATA.csv [options] -o RESULT.json [--residuals RESIDUALS.csv]\n"
        "sysid optimal PROJECT.sysid [options] [-o RESULT.json]\n"
        "Optimal estimation (Rutten 1993): states, inputs and parameters minimising the weighted model and\n"
        "measurement residuals, by multiple shooting. A PROJECT gives its first data set and its\n"
        "\"optimal_estimation\" settings; options given here override them. Before the run it prints the\n"
        "stiffness along the starting guess (kappa = min Re of the local Jacobian's eigenvalues) and the\n"
        "shooting points kappa*dt >= -2 takes. Exit 1 when it does not converge.");
    // clang-format off
    NamedOptionsInit(options, named, "input")
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project or the .model file")
        ("data", po::value<std::string>(), "CSV file of the record (MODEL form)")
        ("time", po::value<std::string>(), "name of the time column (default: t, time or the first; MODEL form)")
        ("map", po::value<Strings>()->composing(), "NAME=COLUMN: read a model output or input from another column "
                                                   "(repeatable; MODEL form)");
    addFieldOptions(options, named, nullptr, estimate::optimalEstimationSettingFields());
    NamedOptionsInit(options, named, "input")
        ("initial", po::value<Strings>()->composing(),
         "NAME=VALUE,WEIGHT: prior q_a and weight W_a >= 0 on an augmented state at the start (repeatable)")
        ("guess", po::value<Strings>()->composing(),
         "STATE=EXPRESSION: starting guess of an augmented state as an expression of t, the measured signals (outputs "
         "and inputs by name) and the parameters, e.g. s2=s4/3 (repeatable)");
    addStageOptions(options, named);
    NamedOptionsInit(options, named, "input")
        ("diagnose", "only print the stiffness along the starting guess (and write it to -o as JSON); do not solve")
        ("set", po::value<Strings>()->composing(), "NAME=VALUE: starting value of a parameter (repeatable)")
        ("quiet,q", "no progress lines on stderr")
        ("output,o", po::value<std::string>(), "RESULT.json (- for standard output; PROJECT form default: standard output)")
        ("residuals", po::value<std::string>(), "RESIDUALS.csv: t and the residual traces xi and eps");
    po::options_description hidden;
    hidden.add_options()
        ("first-stage", po::value<std::string>(), "the method of stage 1 (older spelling of --stage 1:integrator=M)")
        ("first-stage-steps", po::value<long long>(), "the steps of stage 1 (older spelling of --stage 1:steps=N)");
    // clang-format on
    addCsvFormatOptions(options, named);
    const auto parsed = parseArguments(args, options, "input", &hidden);
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const std::string input = inputArgument(vm);
    const bool isProject = isProjectFile(input);
    const bool quiet = vm.count("quiet") > 0;

    const bool diagnoseOnly = vm.count("diagnose") > 0;
    job::OptimalEstimationJob estimate;
    {
        estimate::OptimalEstimationSettings settings;  // arguments are checked before anything is read
        applyOptimalSettings(vm, settings);
        namedValues(vm, "set");
    }
    if (!isProject && !vm.count("output") && !diagnoseOnly)
        throw UsageError("missing -o RESULT.json (- for standard output)");
    const std::string out = vm.count("output") ? vm["output"].as<std::string>() : "-";
    checkOutputPlace(out, "-o");
    if (diagnoseOnly && vm.count("residuals"))
        throw UsageError("--residuals: --diagnose does not solve, so there are no residuals");
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
        applyOptimalSettings(vm, estimate.settings);
        readStartTrajectory(estimate.settings, &project, input);
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
        applyOptimalSettings(vm, estimate.settings);
        readStartTrajectory(estimate.settings, nullptr, input);
    }

    if (diagnoseOnly) {
        StderrProgress progress(true);
        const estimate::StiffnessDiagnostics d = estimate.diagnose(progress);
        std::cout << "stiffness along the starting guess: " << estimate::describeStiffness(d) << '\n';
        if (vm.count("output"))
            writeResult(out, nlohmann::json{{"stiffness", {{"at_guess", project::stiffnessToJson(d)}}}}.dump(2) + "\n");
        return Success;
    }
    StderrProgress progress(quiet, false);  // the job logs each Newton iteration with its timings
    const estimate::OptimalEstimationResult result = estimate.run(progress, interruptToken());
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
