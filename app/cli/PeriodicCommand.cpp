// sysid periodic: the periodic steady state of a forced (or autonomous) model by shooting or
// time discretisation, with its Floquet multipliers, and optionally its continuation in a
// parameter (a frequency-response curve). ORBIT.json (or CSV) written atomically.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/Interrupt.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/Processes.h"
#include "app/cli/StderrProgress.h"

#include "engine/data/CsvReader.h"
#include "engine/data/Text.h"
#include "engine/job/PeriodicJob.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/PeriodicJson.h"

#include <boost/program_options.hpp>

#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Strings = std::vector<std::string>;

job::PeriodicSweep parseSweep(const po::variables_map& vm)
{
    const std::string item = vm["sweep"].as<std::string>();
    const auto [name, range] = splitAssignment(item, "--sweep", "NAME=FROM:TO");
    const auto colon = range.find(':');
    if (colon == std::string::npos)
        throw UsageError("--sweep expects NAME=FROM:TO, got '" + item + "'");
    job::PeriodicSweep sweep;
    sweep.parameter = name;
    sweep.from = parseNumber(range.substr(0, colon), "--sweep " + name + " (from)");
    sweep.to = parseNumber(range.substr(colon + 1), "--sweep " + name + " (to)");
    sweep.frequency = vm.count("frequency") > 0;
    if (vm.count("step"))
        sweep.step = vm["step"].as<double>();
    if (vm.count("max-points"))
        sweep.maxPoints = countOption(vm, "max-points", 0);
    if (vm.count("continuation")) {
        const std::string name = vm["continuation"].as<std::string>();
        const auto method = shooting::kContinuationMethods.parse(name);
        if (!method)
            throw UsageError(shooting::kContinuationMethods.mustBe("--continuation", name));
        sweep.method = *method;
    }
    if (vm.count("natural"))
        sweep.method = shooting::ContinuationMethod::Natural;
    if (vm.count("amplitude"))
        sweep.amplitudeState = vm["amplitude"].as<std::string>();
    try {
        sweep.validate();
    } catch (const core::SettingError& e) {
        const std::string option = e.key() == "step" ? "--step" : e.key() == "max_points" ? "--max-points" : "--sweep";
        throw UsageError(option + ": " + e.what());
    }
    return sweep;
}

std::string csvNumber(double v)
{
    return data::formatNumber(v, 17);
}

// The branch (with a sweep) or the orbit samples as CSV.
std::string toCsv(const job::PeriodicJob::Result& result, const std::string& sweepParameter)
{
    std::ostringstream out;
    if (result.branch) {
        out << sweepParameter << ",amplitude,period,stable,type\n";
        for (const auto& p : result.branch->points)
            out << csvNumber(p.parameter) << ',' << csvNumber(p.amplitude) << ',' << csvNumber(p.period) << ','
                << (p.stable ? 1 : 0) << ',' << shooting::describe(p.type) << '\n';
        return out.str();
    }
    const auto& s = result.solution;
    out << 't';
    for (const auto& n : result.stateNames)
        out << ',' << n;
    for (const auto& n : result.outputNames)
        out << ",output:" << n;
    out << '\n';
    for (std::size_t i = 0; i < s.times.size(); ++i) {
        const auto r = static_cast<Eigen::Index>(i);
        out << csvNumber(s.times[i]);
        for (Eigen::Index c = 0; c < s.states.cols(); ++c)
            out << ',' << csvNumber(s.states(r, c));
        for (Eigen::Index c = 0; c < s.outputs.cols(); ++c)
            out << ',' << csvNumber(s.outputs(r, c));
        out << '\n';
    }
    return out.str();
}

}  // namespace

int runPeriodic(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options(
        "sysid periodic MODEL --period T [--shooting-intervals N] [--set p=v]... -o ORBIT.json\n"
        "sysid periodic MODEL --sweep NAME=FROM:TO [--frequency] [options] -o BRANCH.json|.csv\n"
        "sysid periodic MODEL --input FORCE.csv --period T [options] -o ORBIT.json\n"
        "T is the forcing period (for an autonomous model, one without t, the first guess of its period).\n"
        "With --frequency, NAME is the forcing's angular frequency and T = 2*pi/NAME (no --period needed).\n"
        "A model with measured inputs is driven by their record over one period T (or over whole periods,\n"
        "averaged sample by sample), extended periodically; --intersample INPUT=spline for smooth records");
    // clang-format off
    NamedOptionsInit(options, named, "model")
        ("help,h", "show this help")
        ("model", po::value<std::string>(), "the .model file")
        ("set", po::value<Strings>()->composing(), "NAME=VALUE: a parameter value (repeatable)")
        ("guess", po::value<Strings>()->composing(), "STATE=VALUE: starting guess of x(t0) (repeatable; "
                                                     "other states start at the model's x(0))")
        ("sweep", po::value<std::string>(), "NAME=FROM:TO: continue the solution in parameter NAME")
        ("frequency", "with --sweep: NAME is the forcing's angular frequency (T = 2*pi/NAME)")
        ("step", po::value<double>(), "with --sweep: first continuation step (default 0.02)")
        ("max-points", po::value<long long>(), "with --sweep: at most this many branch points (default 200)")
        ("continuation", po::value<std::string>(),
         ("with --sweep: " + shooting::kContinuationMethods.choices() + " (default pseudo-arclength). " +
          shooting::kContinuationMethods.help()).c_str())
        ("amplitude", po::value<std::string>(), "with --sweep: the state whose (max-min)/2 is the amplitude (default the first)")
        ("input", po::value<std::string>(), "CSV of the model's measured inputs over one forcing period, or whole "
                                            "periods sampled at a whole fraction of it (averaged)")
        ("time", po::value<std::string>(), "name of the time column in the input file (default: t, time or the first)")
        ("map", po::value<Strings>()->composing(), "INPUT=COLUMN: read an input from another column")
        ("quiet,q", "no progress lines on stderr")
        ("output,o", po::value<std::string>(), "ORBIT.json, or .csv for the orbit samples / the branch (- for standard output)");
    // clang-format on
    addCsvFormatOptions(options, named);
    addFieldOptions(options, named, nullptr, job::periodicJobFields());
    po::options_description hidden;
    hidden.add_options()("natural", "the older spelling of --continuation natural");
    const auto parsed = parseArguments(args, options, "model", &hidden);
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    if (!vm.count("model"))
        throw UsageError("missing the MODEL file");
    if (!vm.count("output"))
        throw UsageError("missing -o ORBIT.json (- for standard output)");
    for (const char* sweepOnly : {"frequency", "step", "max-points", "continuation", "natural", "amplitude"})
        if (vm.count(sweepOnly) && !vm.count("sweep"))
            throw UsageError(std::string("--") + sweepOnly + " belongs to --sweep");

    job::PeriodicJob job;
    const std::string path = vm["model"].as<std::string>();
    if (!vm.count("period") && !(vm.count("sweep") && vm.count("frequency")))
        throw UsageError("missing --period T (or --sweep NAME=FROM:TO --frequency)");
    if (vm.count("sweep"))
        job.sweep = parseSweep(vm);
    applyFieldOptions(vm, job::periodicJobFields(), job);
    job.parameterValues = namedValues(vm, "set");
    job.guess = namedValues(vm, "guess");
    const std::string out = vm["output"].as<std::string>();
    checkOutputPlace(out);
    job.modelText = readModelText(path);
    job.modelSource = path;
    if (vm.count("input")) {
        job.inputRecord = data::readCsv(vm["input"].as<std::string>(), csvOptions(vm));
        job.inputColumns = columnMapping(vm, "INPUT=COLUMN");
    } else {
        for (const char* inputOnly : {"time", "map", "input-periods"})
            if (vm.count(inputOnly))
                throw UsageError(std::string("--") + inputOnly + " belongs to --input FORCE.csv");
    }

    StderrProgress progress(vm.count("quiet") > 0);
    const job::PeriodicJob::Result result = job.run(progress, interruptToken());
    const std::string sweepParameter = job.sweep ? job.sweep->parameter : std::string();
    const bool csv = out.size() > 4 && out.substr(out.size() - 4) == ".csv";
    if (csv) {
        writeResult(out, toCsv(result, sweepParameter));
    } else {
        const nlohmann::json json = project::periodicResultToJson(result, sweepParameter);
        writeResult(out, json.dump(2) + "\n");
        // Written: the process ends here rather than free the JSON tree, the result and the options
        // on the way back to main (a sixth of the work after the orbit's solve; Processes.h).
        if (result.solution.converged())
            finishProcess(interrupted() ? InterruptedExit : Success);
    }
    if (!result.solution.converged())
        throw UserError(path + ": no periodic solution found: " + result.solution.newton.termination.message);
    return Success;
}

}  // namespace sysid::cli
