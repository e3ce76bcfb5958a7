#include "app/cli/FitJobOptions.h"

#include "app/cli/CommonOptions.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"
#include "app/cli/PreprocessingOptions.h"

#include "engine/estimate/MethodTraits.h"
#include "engine/project/ProjectJob.h"

#include <utility>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Strings = std::vector<std::string>;

// Applies the options given on the command line to settings (a project's or the defaults).
// With `refuse`, an option of a setting the method does not take is a UsageError.
void applySettings(const po::variables_map& vm, estimate::FitSettings& settings, bool refuse)
{
    if (const auto method = estimationMethodOption(vm))
        settings.method = *method;
    const auto takes = [&](estimate::MethodInput input, const char* option) {
        if (refuse && !estimate::takes(settings.method, input))
            throw UsageError(estimate::notTakenMessage(option, {input}, settings.method));
    };
    // --period (> 0 here: a fixed period, so the frequency parameter is dropped) and
    // --frequency-parameter are two ways to one setting; the table's rule for the period allows 0.
    if (vm.count("period")) {
        const double period = parseNumber(vm["period"].as<std::string>(), "--period");
        if (!(period > 0))
            throw UsageError("--period: the forcing period must be > 0");
        if (vm.count("frequency-parameter"))
            throw UsageError("give either --period or --frequency-parameter, not both");
        takes(estimate::MethodInput::PeriodicResponse, "--period");
        settings.periodic.period = period;
        settings.periodic.frequencyParameter.clear();
    }
    if (vm.count("frequency-parameter")) {
        takes(estimate::MethodInput::PeriodicResponse, "--frequency-parameter");
        settings.periodic.frequencyParameter = vm["frequency-parameter"].as<std::string>();
    }
    for (const auto& [name, prior] : priorOptions(vm))
        settings.priors[name] = prior;
    if (vm.count("prior"))
        takes(estimate::MethodInput::Priors, "--prior");
    applyFieldOptions(vm, estimate::fitSettingFields(), settings, fitOptionPolicy(settings, refuse));
}

}  // namespace

void addFitJobOptions(po::options_description& options, const NamedOptions& named)
{
    // clang-format off
    NamedOptionsInit(options, named)
        ("data", po::value<Strings>()->composing(), "CSV file of one experiment (repeatable; MODEL form)")
        ("time", po::value<std::string>(), "name of the time column (default: t, time or the first; MODEL form)")
        ("map", po::value<Strings>()->composing(), "NAME=COLUMN: read a model output or input from another column "
                                                   "(repeatable; MODEL form)")
        ("method", po::value<std::string>(), estimationMethodHelp("the estimation method (default output-error)").c_str())
        ("period", po::value<std::string>(), "T: forcing period of every experiment (periodic-response)")
        ("frequency-parameter", po::value<std::string>(),
         "NAME: forcing period 2*pi/NAME, NAME fixed per experiment (periodic-response)")
        ("set", po::value<Strings>()->composing(), "NAME=VALUE: starting value of a parameter (repeatable)")
        ("prior", po::value<Strings>()->composing(), ("NAME=MEAN,SD: Gaussian prior of a parameter (" +
                                                      estimate::methodsTaking(estimate::MethodInput::Priors, ", ") +
                                                      "; repeatable)").c_str());
    // clang-format on
    addCsvFormatOptions(options, named);
    addPreprocessingOptions(options, named);
    const estimate::FitSettings defaults;
    addFieldOptions(options, named, nullptr, estimate::fitSettingFields(), fitOptionPolicy(defaults));
}

LoadedFit loadFitJob(const po::variables_map& vm, const std::string& input, const std::function<void()>& checkOutput)
{
    LoadedFit loaded;
    job::FitJob& fit = loaded.job;
    if (isProjectFile(input)) {
        refuseModelFormOptions(vm, input);
        estimate::FitSettings settings;  // checked before anything is read
        applySettings(vm, settings, vm.count("method") > 0);
        checkOutput();
        project::Project project = project::loadProject(input);
        applySettings(vm, project.settings, true);
        for (const auto& [name, value] : namedValues(vm, "set"))
            project.parameterValues[name] = value;
        fit = project::makeFitJob(project);
        loaded.trueValues = project::trueValues(project);
        loaded.project = std::move(project);
    } else {
        if (!vm.count("data"))
            throw UsageError("missing --data DATA.csv (a MODEL needs data; or give a PROJECT.sysid)");
        checkOutput();
        applySettings(vm, fit.settings, true);
        fit.parameterValues = namedValues(vm, "set");
        const auto mapping = columnMapping(vm);
        fit.modelText = readModelText(input);
        fit.modelSource = input;
        fit.experiments = dataExperiments(vm, mapping);
    }
    applyPreprocessingOptions(vm, fit.preprocessing);
    return loaded;
}

}  // namespace sysid::cli
