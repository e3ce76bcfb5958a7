#include "app/cli/CommonOptions.h"

#include "app/cli/ParameterOverrides.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace sysid::cli {

std::optional<po::variables_map> parseArguments(const Arguments& args, const po::options_description& options,
                                                const char* positional)
{
    po::positional_options_description positions;
    positions.add(positional, 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(options).positional(positions).run(), vm);
    if (vm.count("help")) {
        std::cout << options;
        return std::nullopt;
    }
    return vm;
}

void addIntegratorOptions(po::options_description& options, const char* methodOption)
{
    // clang-format off
    options.add_options()
        (methodOption, po::value<std::string>(), "integrator (default: dopri5; sparse-implicit for models with fields): dopri5 | rosenbrock4 | rk4 | euler | sparse-implicit (large stiff models, PDEs) | "
         "implicit-euler | crank-nicolson (fixed-step implicit schemes of seed 003: no step limit; Crank-Nicolson is "
         "order 2 but not L-stable, so with a large step the stiff modes of a PDE oscillate). euler on a PDE model "
         "refuses a step above its stability limit dx^2/(2 max alpha)")
        ("rtol", po::value<double>(), "relative tolerance (adaptive methods; default 1e-8)")
        ("atol", po::value<double>(), "absolute tolerance (adaptive methods; default 1e-10)")
        ("max-step", po::value<double>(),
         "largest step (adaptive) or the step (rk4, euler, implicit-euler, crank-nicolson); 0 = no limit / one step per "
         "sample (default 0)")
        ("max-steps", po::value<long long>(), "give up an integration after this many steps (default 1000000)");
    // clang-format on
}

std::vector<std::string> repeated(const po::variables_map& vm, const char* name)
{
    return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

std::pair<std::string, std::string> splitAssignment(const std::string& item, const std::string& option,
                                                    const char* form)
{
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        throw UsageError(option + " expects " + form + ", got '" + item + "'");
    return {item.substr(0, eq), item.substr(eq + 1)};
}

std::size_t countOption(const po::variables_map& vm, const char* name, long long least)
{
    const long long value = vm[name].as<long long>();
    if (value < least)
        throw UsageError(std::string("--") + name + " must be at least " + std::to_string(least));
    return static_cast<std::size_t>(value);
}

void applyIntegratorOptions(const po::variables_map& vm, const char* methodOption,
                            integrate::IntegratorSettings& settings)
{
    if (vm.count(methodOption)) {
        const std::string name = vm[methodOption].as<std::string>();
        const auto method = integrate::parseIntegrationMethod(name);
        if (!method)
            throw UsageError(
                std::string("--") + methodOption +
                " must be dopri5, rosenbrock4, rk4, euler, sparse-implicit, implicit-euler or crank-nicolson, not '" +
                name + "'");
        settings.method = *method;
        settings.methodChosen = true;
    }
    if (vm.count("rtol"))
        settings.relativeTolerance = vm["rtol"].as<double>();
    if (vm.count("atol"))
        settings.absoluteTolerance = vm["atol"].as<double>();
    if (vm.count("max-step"))
        settings.maxStep = vm["max-step"].as<double>();
    if (vm.count("max-steps"))
        settings.maxSteps = countOption(vm, "max-steps", 1);
    if (!(settings.relativeTolerance > 0) || !(settings.absoluteTolerance > 0) || !(settings.maxStep >= 0))
        throw UsageError("--rtol and --atol must be positive and --max-step not negative");
}

std::map<std::string, double> namedValues(const po::variables_map& vm, const char* name)
{
    const std::string option = std::string("--") + name;
    std::map<std::string, double> values;
    for (const auto& item : repeated(vm, name)) {
        const auto [key, text] = splitAssignment(item, option, "NAME=VALUE");
        values[key] = parseNumber(text, option + " " + key);
    }
    return values;
}

std::map<std::string, double> positiveWeights(const po::variables_map& vm, const char* name, const char* form)
{
    const std::string option = std::string("--") + name;
    std::map<std::string, double> weights;
    for (const auto& item : repeated(vm, name)) {
        const auto [key, text] = splitAssignment(item, option, form);
        const double w = parseNumber(text, option + " " + key);
        if (!(w > 0))
            throw UsageError(option + " " + key + ": the weight must be > 0");
        weights[key] = w;
    }
    return weights;
}

std::optional<estimate::EstimationMethod> estimationMethodOption(const po::variables_map& vm)
{
    if (!vm.count("method"))
        return std::nullopt;
    const std::string name = vm["method"].as<std::string>();
    const auto method = estimate::parseEstimationMethod(name);
    if (!method)
        throw UsageError("--method must be output-error, multiple-shooting, bayes, periodic-response, single-step, "
                         "multistep or steepest-descent, not '" +
                         name + "'");
    return method;
}

std::map<std::string, estimate::Prior> priorOptions(const po::variables_map& vm)
{
    std::map<std::string, estimate::Prior> priors;
    for (const auto& item : repeated(vm, "prior")) {
        const auto [name, text] = splitAssignment(item, "--prior", "NAME=MEAN,SD");
        const auto comma = text.find(',');
        if (comma == std::string::npos)
            throw UsageError("--prior expects NAME=MEAN,SD, got '" + item + "'");
        const double mean = parseNumber(text.substr(0, comma), "--prior " + name + " (mean)");
        const double sd = parseNumber(text.substr(comma + 1), "--prior " + name + " (sd)");
        if (!(sd > 0))
            throw UsageError("--prior " + name + ": the standard deviation must be > 0");
        priors[name] = estimate::Prior{mean, sd};
    }
    return priors;
}

std::map<std::string, std::string> columnMapping(const po::variables_map& vm, const char* form)
{
    std::map<std::string, std::string> mapping;
    for (const auto& item : repeated(vm, "map")) {
        const auto [name, column] = splitAssignment(item, "--map", form);
        mapping[name] = column;
    }
    return mapping;
}

data::CsvOptions csvOptions(const po::variables_map& vm)
{
    data::CsvOptions csv;
    if (vm.count("time"))
        csv.timeColumn = vm["time"].as<std::string>();
    return csv;
}

std::vector<job::ExperimentData> dataExperiments(const po::variables_map& vm,
                                                 const std::map<std::string, std::string>& mapping)
{
    const data::CsvOptions csv = csvOptions(vm);
    std::vector<job::ExperimentData> experiments;
    for (const auto& path : repeated(vm, "data")) {
        job::ExperimentData experiment;
        experiment.name = path;
        experiment.table = data::readCsv(path, csv);
        experiment.mapping = mapping;
        experiments.push_back(std::move(experiment));
    }
    return experiments;
}

void refuseModelFormOptions(const po::variables_map& vm, const std::string& project)
{
    for (const char* modelOnly : {"data", "time", "map"})
        if (vm.count(modelOnly))
            throw UsageError(std::string("--") + modelOnly + " is for the MODEL form; the project " + project +
                             " names its data");
}

std::string readModelText(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw UserError(path + ": is a directory, not a model file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw UserError(path + ": cannot open the model file (missing or unreadable)");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void checkOutputPlace(const std::string& path, const char* option)
{
    if (path == "-")
        return;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw UserError(path + ": is a directory; " + option + " needs a file name");
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
        throw UserError(path + ": the folder " + parent.string() + " does not exist");
}

}  // namespace sysid::cli
