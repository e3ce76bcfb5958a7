// sysid fit: estimate a model's parameters from data, from a project file or from a model
// and CSV files given on the command line. Progress on stderr, RESULT.json written atomically.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/StderrProgress.h"

#include "engine/data/CsvReader.h"
#include "engine/data/DataError.h"
#include "engine/job/FitJob.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/FitReport.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResultJson.h"

#include <boost/program_options.hpp>

#include <cstdio>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Strings = std::vector<std::string>;

// Applies the options given on the command line to settings (a project's or the defaults).
void applySettings(const po::variables_map& vm, estimate::FitSettings& settings)
{
    if (const auto method = estimationMethodOption(vm))
        settings.method = *method;
    if (vm.count("gain")) {
        if (settings.method != estimate::EstimationMethod::SteepestDescent)
            throw UsageError("--gain is for --method steepest-descent");
        const double gain = parseNumber(vm["gain"].as<std::string>(), "--gain");
        if (!(gain > 0) || !std::isfinite(gain))
            throw UsageError("--gain: the steepest-descent gain K must be a finite number > 0");
        settings.steepestDescentGain = gain;
    }
    if (vm.count("sensitivity")) {
        const std::string name = vm["sensitivity"].as<std::string>();
        const auto method = estimate::parseSensitivityMethod(name);
        if (!method)
            throw UsageError("--sensitivity must be forward or structural, not '" + name + "'");
        if (*method == estimate::SensitivityMethod::Structural && !estimate::acceptsSensitivityMethod(settings.method))
            throw UsageError("--sensitivity structural is for --method output-error, bayes or steepest-descent, not " +
                             estimate::methodName(settings.method));
        settings.sensitivity = *method;
    }
    if (vm.count("formula")) {
        const std::string name = vm["formula"].as<std::string>();
        const auto formula = estimate::parseEquationErrorFormula(name);
        if (!formula)
            throw UsageError(
                "--formula must be heun, rk4 (single-step) or trapezoid, simpson, newton-cotes-6 (multistep), "
                "not '" +
                name + "'");
        if (!estimate::isEquationError(settings.method))
            throw UsageError("--formula is for --method single-step or multistep");
        if (estimate::isOneStep(*formula) != (settings.method == estimate::EstimationMethod::SingleStep))
            throw UsageError("--formula " + name + " is not a " + estimate::methodName(settings.method) + " formula");
        (estimate::isOneStep(*formula) ? settings.equationError.oneStep : settings.equationError.multistep) = *formula;
    }
    for (const auto& [state, w] : positiveWeights(vm, "state-weight", "STATE=WEIGHT"))
        settings.equationError.stateWeights[state] = w;
    if (vm.count("no-simulation"))
        settings.equationError.simulateFit = false;
    if (vm.count("intervals")) {
        if (settings.method == estimate::EstimationMethod::PeriodicResponse)
            settings.periodic.intervals = countOption(vm, "intervals", 1);
        else
            settings.shootingIntervals = countOption(vm, "intervals", 1);
    }
    if (vm.count("period")) {
        const double period = parseNumber(vm["period"].as<std::string>(), "--period");
        if (!(period > 0))
            throw UsageError("--period: the forcing period must be > 0");
        settings.periodic.period = period;
        settings.periodic.frequencyParameter.clear();
    }
    if (vm.count("frequency-parameter")) {
        if (vm.count("period"))
            throw UsageError("give either --period or --frequency-parameter, not both");
        settings.periodic.frequencyParameter = vm["frequency-parameter"].as<std::string>();
    }
    if (vm.count("periods"))
        settings.periodic.periods = countOption(vm, "periods", 1);
    if (vm.count("nodes"))
        settings.periodic.nodes = countOption(vm, "nodes", 4);
    if (vm.count("periodic-solver")) {
        const std::string name = vm["periodic-solver"].as<std::string>();
        const auto solver = estimate::parsePeriodicSolver(name);
        if (!solver)
            throw UsageError("--periodic-solver must be shooting or discretisation, not '" + name + "'");
        settings.periodic.solver = *solver;
    }
    if (vm.count("max-iterations"))
        settings.maxIterations = countOption(vm, "max-iterations", 0);
    for (const auto& [output, w] : positiveWeights(vm, "weight", "OUTPUT=WEIGHT"))
        settings.outputWeights[output] = w;
    for (const auto& [name, prior] : priorOptions(vm))
        settings.priors[name] = prior;
    applyIntegratorOptions(vm, "integrator", settings.integrator);
}

// central | smoothing-spline | savitzky-golay[:WINDOW:ORDER]
data::Preprocessing::Derivative parseDifferentiation(const std::string& text)
{
    data::Preprocessing::Derivative d;
    const auto colon = text.find(':');
    const std::string name = text.substr(0, colon);
    const auto method = data::parseDerivativeMethod(name);
    if (!method)
        throw UsageError("--differentiation must be central, smoothing-spline or savitzky-golay[:WINDOW:ORDER], not '" +
                         text + "'");
    d.method = *method;
    if (colon != std::string::npos) {
        const std::string rest = text.substr(colon + 1);
        const auto second = rest.find(':');
        if (d.method != data::DerivativeMethod::SavitzkyGolay || second == std::string::npos)
            throw UsageError("--differentiation: only savitzky-golay takes :WINDOW:ORDER, got '" + text + "'");
        d.window = static_cast<int>(parseNumber(rest.substr(0, second), "--differentiation window"));
        d.polynomialOrder = static_cast<int>(parseNumber(rest.substr(second + 1), "--differentiation order"));
    }
    data::Preprocessing check;
    check.differentiation = d;
    try {
        data::validatePreprocessing(check);
    } catch (const std::exception& e) {
        throw UsageError(std::string("--differentiation: ") + e.what());
    }
    return d;
}

}  // namespace

int runFit(const Arguments& args)
{
    po::options_description options(
        "sysid fit PROJECT.sysid [-o RESULT.json] [--quiet] [options]\n"
        "sysid fit MODEL --data DATA.csv [--data MORE.csv]... [options] -o RESULT.json\n"
        "A PROJECT (.sysid) names its data and settings; options given here override its settings");
    // clang-format off
    options.add_options()
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "the .sysid project or the .model file")
        ("data", po::value<Strings>()->composing(), "CSV file of one experiment (repeatable; MODEL form)")
        ("time", po::value<std::string>(), "name of the time column (default: t, time or the first; MODEL form)")
        ("map", po::value<Strings>()->composing(), "NAME=COLUMN: read a model output or input from another column "
                                                   "(repeatable; MODEL form)")
        ("method", po::value<std::string>(),
         "output-error (default) | multiple-shooting | bayes | periodic-response | single-step | multistep | "
         "steepest-descent")
        ("gain", po::value<std::string>(),
         "K: steepest-descent gain, theta <- theta - K int sum (model - measured) dmodel/dtheta dt = theta - (K/2) dJ/dtheta, "
         "J = int sum (measured - model)^2 dt (default 0.02, seed 003 eq. 4.22)")
        ("sensitivity", po::value<std::string>(),
         "forward (default): the parameter-sensitivity equations (Meissinger) | structural: the structural-sensitivity "
         "method, one sensitivity model propagated by the matrix exponential, for models linear in the states with "
         "constant coefficients (output-error, bayes, steepest-descent; seed 003 sec. 3.4)")
        ("formula", po::value<std::string>(),
         "single-step: heun (default) | rk4; multistep: newton-cotes-6 (default) | simpson | trapezoid")
        ("state-weight", po::value<Strings>()->composing(),
         "STATE=W: weight of a state's equation error (single-step, multistep; default: seed 004's 1/T^2 for a "
         "coordinate with a velocity state, else 1)")
        ("differentiation", po::value<std::string>(),
         "central | smoothing-spline | savitzky-golay[:WINDOW:ORDER]: how unmeasured velocities are obtained "
         "(single-step, multistep)")
        ("refine", "after single-step or multistep, run output error from its estimate")
        ("no-simulation", "single-step, multistep: do not simulate the fitted model (no output residuals)")
        ("intervals", po::value<long long>(), "shooting intervals per experiment (multiple-shooting, default 10; "
                                              "periodic-response, default 1)")
        ("period", po::value<std::string>(), "T: forcing period of every experiment (periodic-response)")
        ("frequency-parameter", po::value<std::string>(),
         "NAME: forcing period 2*pi/NAME, NAME fixed per experiment (periodic-response)")
        ("periods", po::value<long long>(), "n: the response is n*T-periodic (periodic-response; default 1)")
        ("periodic-solver", po::value<std::string>(), "shooting (default) | discretisation (periodic-response)")
        ("nodes", po::value<long long>(), "discretisation nodes per period (periodic-response; default 200)")
        ("set", po::value<Strings>()->composing(), "NAME=VALUE: starting value of a parameter (repeatable)")
        ("prior", po::value<Strings>()->composing(), "NAME=MEAN,SD: Gaussian prior of a parameter (bayes; repeatable)")
        ("max-iterations", po::value<long long>(), "at most this many iterations (default 100)")
        ("weight", po::value<Strings>()->composing(),
         "OUTPUT=W: weight of an output's squared residuals (default 1/sigma^2, sigma estimated from the data)")
        ("quiet,q", "no progress lines on stderr")
        ("report", "print the full report of the fit on stderr (method, settings that differ from the defaults, "
                   "iterations, evaluations, seconds per phase, integration statistics, why it stopped), also "
                   "with --quiet; RESULT.json holds it as \"report\" in any case")
        ("output,o", po::value<std::string>(), "RESULT.json (- for standard output; PROJECT form default: standard output)");
    // clang-format on
    addIntegratorOptions(options, "integrator");
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    if (!vm.count("input"))
        throw UsageError("missing the PROJECT.sysid or MODEL file");
    const std::string input = vm["input"].as<std::string>();
    const bool isProject = std::filesystem::path(input).extension() == ".sysid";
    const bool quiet = vm.count("quiet") > 0;

    job::FitJob fit;
    std::map<std::string, double> trueValues;
    if (isProject) {
        refuseModelFormOptions(vm, input);
        estimate::FitSettings settings;  // checked before anything is read
        applySettings(vm, settings);
        checkOutputPlace(vm.count("output") ? vm["output"].as<std::string>() : "-");
        project::Project project = project::loadProject(input);
        applySettings(vm, project.settings);
        for (const auto& [name, value] : namedValues(vm, "set"))
            project.parameterValues[name] = value;
        fit = project::makeFitJob(project);
        trueValues = project::trueValues(project);
    } else {
        if (!vm.count("data"))
            throw UsageError("missing --data DATA.csv (a MODEL needs data; or give a PROJECT.sysid)");
        if (!vm.count("output"))
            throw UsageError("missing -o RESULT.json (- for standard output)");
        applySettings(vm, fit.settings);
        fit.parameterValues = namedValues(vm, "set");
        const auto mapping = columnMapping(vm);
        checkOutputPlace(vm["output"].as<std::string>());
        fit.modelText = readModelText(input);
        fit.modelSource = input;
        fit.experiments = dataExperiments(vm, mapping);
    }

    if (vm.count("differentiation"))
        fit.preprocessing.differentiation = parseDifferentiation(vm["differentiation"].as<std::string>());
    if (vm.count("refine") && !estimate::isEquationError(fit.settings.method))
        throw UsageError("--refine follows an equation-error fit: use it with --method single-step or multistep");

    StderrProgress progress(quiet);
    auto report = [&](const estimate::FitResult& r) {
        if (vm.count("report"))
            std::cerr << project::fitReport(r) << '\n' << std::flush;
    };
    estimate::FitResult result = fit.run(progress);
    report(result);
    nlohmann::json resultJson = project::resultToJson(result, trueValues);
    if (vm.count("refine") && !result.cancelled()) {
        progress.log("refining by output error from the " + estimate::methodName(fit.settings.method) + " estimate");
        const estimate::FitResult refined = job::refinedByOutputError(fit, result).run(progress);
        report(refined);
        nlohmann::json refinedJson = project::resultToJson(refined, trueValues);
        refinedJson["equation_error_estimate"] = std::move(resultJson);
        resultJson = std::move(refinedJson);
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
