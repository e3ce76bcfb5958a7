#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"

#include "engine/data/CsvReader.h"
#include "engine/data/CsvWriter.h"
#include "engine/data/Noise.h"
#include "engine/data/Text.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/NativeCode.h"
#include "engine/integrate/ConstraintDrift.h"
#include "engine/integrate/IntersampleChoice.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/SyntheticData.h"
#include "engine/model/ModelBuilder.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

// The model's parameter values with, first, the estimates of a fit result (when `estimates` is
// given; `estimatesFile` names it in messages) and then "--set NAME=VALUE" arguments. A malformed
// argument is a UsageError; an unknown parameter name, or an estimate the model does not have, a
// UserError. Initial values of a fit's later records ("x(0)#2") are not the model's: left out.
std::vector<double> parameterValues(const model::Model& model, const std::vector<std::string>& assignments,
                                    const estimate::FitResult* estimates, const std::string& estimatesFile)
{
    std::vector<double> values;
    for (const auto& p : model.parameters)
        values.push_back(p.value);
    if (estimates)
        for (const estimate::ParameterEstimate& e : estimates->parameters) {
            if (e.name.find('#') != std::string::npos)
                continue;
            const std::size_t index = model.parameterIndex(e.name);
            if (index == std::string::npos)
                throw UserError(estimatesFile + ": the fit estimated '" + e.name + "', which the model " +
                                model.source + " does not have (a result of another model?)");
            values[index] = e.value;
        }
    for (const auto& a : assignments) {
        const auto [name, text] = splitAssignment(a, "--set", "NAME=VALUE");
        const std::size_t index = model.parameterIndex(name);
        if (index == std::string::npos) {
            std::string known;
            for (const auto& p : model.parameters)
                known += (known.empty() ? "" : ", ") + p.name;
            throw UserError("--set " + a + ": the model " + model.source + " has no parameter '" + name +
                            "' (parameters: " + (known.empty() ? "none" : known) + ")");
        }
        values[index] = parseNumber(text, "--set " + name);
    }
    return values;
}

}  // namespace

int runSimulate(const Arguments& given)
{
    // The names fit and study use for the same things; the older ones are still read.
    const std::map<std::string, std::string> older{
        {"method", "integrator"}, {"noise-rms", "noise"}, {"noise-dist", "distribution"}};
    const Arguments args = withCurrentSpellings(given, older);
    // Messages name an option as the user spelled it.
    const auto spelled = [&](const std::string& current) {
        for (const auto& [old, now] : older)
            if (now == current)
                for (const auto& arg : given)
                    if (arg == "--" + old || arg.rfind("--" + old + "=", 0) == 0)
                        return "--" + old;
        return "--" + current;
    };
    const NamedOptions named(args);
    po::options_description options(
        "sysid simulate MODEL --t-end T --dt DT [--parameters RESULT.json] [--set p=v]... [--input DATA.csv] "
        "[--noise PCT --seed N] -o OUT.csv");
    // clang-format off
    NamedOptionsInit(options, named, "model")
        ("help,h", "show this help")
        ("model", po::value<std::string>(), "the .model file")
        ("t-end", po::value<double>(), "end time (required)")
        ("dt", po::value<double>(), "output sample interval (required)")
        ("t-start", po::value<double>()->default_value(0.0), "start time; the model's initial values apply here")
        ("set", po::value<std::vector<std::string>>()->composing(), "NAME=VALUE: override a parameter (repeatable)")
        ("parameters", po::value<std::string>(),
         "RESULT.json: the estimates of a fit (sysid fit -o RESULT.json) as the parameter values; --set overrides them")
        ("input", po::value<std::string>(), "CSV file with a column for each model input")
        ("time", po::value<std::string>(), "name of the time column in the input file (default: t, time or the first)")
        ("map", po::value<std::vector<std::string>>()->composing(), "INPUT=COLUMN: read an input from another column")
        ("intersample", po::value<std::vector<std::string>>()->composing(),
         ("INPUT=BEHAVIOUR: how an input behaves between its samples: " + integrate::intersampleTable.choices() +
          " (default: as the model declares it, e.g. input u hold, else linear). " +
          integrate::intersampleTable.help()).c_str())
        ("noise", po::value<double>(), "add noise of PCT % of each output's RMS")
        ("distribution", po::value<std::string>()->default_value("uniform"),
         (data::kNoiseDistributions.choices() + " (PCT for p). " + data::kNoiseDistributions.help()).c_str())
        ("seed", po::value<unsigned long long>()->default_value(0), "random seed for the noise")
        ("output,o", po::value<std::string>(), "output CSV file (- for standard output)");
    // clang-format on
    addCsvFormatOptions(options, named);
    addFieldOptions(options, named, nullptr, integrate::integratorSettingFields());
    const auto parsed = parseArguments(args, options, "model");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    for (const char* required : {"model", "t-end", "dt", "output"})
        if (!vm.count(required))
            throw UsageError(std::string("missing ") +
                             (std::string(required) == "model"        ? "the MODEL file"
                                  : std::string(required) == "output" ? "-o OUT.csv"
                                                                      : "--" + std::string(required)));
    checkOutputPlace(vm["output"].as<std::string>());
    const double t0 = vm["t-start"].as<double>();
    const double tEnd = vm["t-end"].as<double>();
    const double dt = vm["dt"].as<double>();
    if (!(dt > 0))
        throw UsageError("--dt must be positive");
    if (!(tEnd > t0))
        throw UsageError("--t-end must be greater than --t-start");
    integrate::IntegratorSettings settings;
    applyFieldOptions(vm, integrate::integratorSettingFields(), settings);
    const auto distribution = data::kNoiseDistributions.parse(vm["distribution"].as<std::string>());
    if (!distribution)
        throw UsageError(
            data::kNoiseDistributions.mustBe(spelled("distribution"), vm["distribution"].as<std::string>()));
    if (vm.count("noise") && !(vm["noise"].as<double>() >= 0))
        throw UsageError(spelled("noise") + " must be a percentage >= 0");
    std::map<std::string, integrate::Intersample> intersample;
    for (const auto& item : repeated(vm, "intersample")) {
        const auto [input, name] = splitAssignment(item, "--intersample", "INPUT=BEHAVIOUR");
        const auto behaviour = integrate::intersampleTable.parse(name);
        if (!behaviour)
            throw UsageError(integrate::intersampleTable.mustBe("--intersample " + input, name));
        intersample[input] = *behaviour;
    }

    const model::Model m = model::loadModel(vm["model"].as<std::string>());
    integrate::resolveMethod(settings, m);
    std::optional<estimate::FitResult> estimates;
    if (vm.count("parameters"))
        estimates = readFitResult(vm["parameters"].as<std::string>(), "--parameters");
    const auto values = parameterValues(m, repeated(vm, "set"), estimates ? &*estimates : nullptr,
                                        vm.count("parameters") ? vm["parameters"].as<std::string>() : std::string());
    const auto source = eval::compileModel(m, {.secondDerivatives = false});  // no sensitivities
    eval::requestNativeCode(source, settings.modelCode);
    eval::CompiledModel compiled(source);
    compiled.setParameters(values);

    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(t0, tEnd, dt);
    integrate::InputSignals inputs;
    if (!m.inputs.empty()) {
        if (!vm.count("input"))
            throw UserError("the model " + m.source + " has input(s) " + m.inputs.front().name +
                            (m.inputs.size() > 1 ? ", ..." : "") + "; give their data with --input DATA.csv");
        const data::DataTable table = data::readCsv(vm["input"].as<std::string>(), csvOptions(vm));
        std::vector<std::string> names;
        for (const auto& u : m.inputs)
            names.push_back(u.name);
        for (const auto& [input, behaviour] : intersample)
            if (std::find(names.begin(), names.end(), input) == names.end())
                throw UsageError("--intersample " + input + ": the model has no input '" + input + "'");
        inputs =
            integrate::InputSignals::fromTable(names, table, columnMapping(vm, "INPUT=COLUMN"),
                                               integrate::intersampleChoices(m.declaredIntersample(), intersample));
        const auto& time = table.time();
        if (time.front() > t0 || time.back() < request.times.back())
            throw UserError(table.source + ": the input data cover t = " + data::formatNumber(time.front(), 10) +
                            " to " + data::formatNumber(time.back(), 10) + ", but the simulation runs from " +
                            data::formatNumber(t0, 10) + " to " + data::formatNumber(request.times.back(), 10));
        request.inputs = &inputs;
    } else if (vm.count("input")) {
        std::cerr << "sysid simulate: note: the model has no inputs; " << vm["input"].as<std::string>()
                  << " is not used\n";
    }

    request.stop = interruptToken();
    const integrate::Trajectory trajectory = integrate::simulate(compiled, request, settings);
    if (const std::string drift = integrate::describeDrift(integrate::constraintDrift(trajectory)); !drift.empty())
        std::cerr << "sysid simulate: " << drift << "\n";

    std::optional<job::OutputNoise> noise;
    if (vm.count("noise"))
        noise = job::OutputNoise{vm["noise"].as<double>(), *distribution, vm["seed"].as<unsigned long long>()};
    const job::SyntheticData record = job::syntheticData(trajectory, compiled.source().outputNames, noise);
    const std::string out = vm["output"].as<std::string>();
    if (out == "-")
        data::writeCsv(std::cout, record.header, record.columns);
    else
        data::writeCsvFile(out, record.header, record.columns);
    return Success;
}

}  // namespace sysid::cli
