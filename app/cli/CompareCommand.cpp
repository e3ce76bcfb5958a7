// sysid compare: a fitted model simulated on a record and measured against it (RMS error, normalised
// RMS error, fit percentage), from a fit result or a project's last result.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"

#include "engine/data/CsvReader.h"
#include "engine/data/Text.h"
#include "engine/job/Comparison.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/ComparisonJson.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ProjectValidation.h"
#include "engine/project/ResultJson.h"
#include "engine/project/SettingsJson.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace po = boost::program_options;

namespace sysid::cli {

namespace {

using Strings = std::vector<std::string>;

// result | estimate[:SECONDS] | model
job::InitialValues parseInitialValues(const std::string& text)
{
    const auto colon = text.find(':');
    const auto source = job::kInitialValueSources.parse(text.substr(0, colon));
    if (!source)
        throw UsageError(job::kInitialValueSources.mustBe("--initial", text) + " (estimate takes :SECONDS)");
    job::InitialValues initial{*source};
    if (colon != std::string::npos) {
        if (*source != job::InitialValueSource::Estimate)
            throw UsageError("--initial: only estimate takes :SECONDS, got '" + text + "'");
        initial.estimateSeconds = parseNumber(text.substr(colon + 1), "--initial estimate:SECONDS");
        if (!(initial.estimateSeconds > 0))
            throw UsageError("--initial estimate:SECONDS: the seconds must be > 0, got '" + text + "'");
    }
    return initial;
}

// The model text a fit result carries (`sysid fit` writes it as "model": {"file", "text"}).
std::optional<std::pair<std::string, std::string>> resultModel(const std::string& path)
{
    std::ifstream in(path);
    nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
    const auto model = json.is_object() ? json.find("model") : json.end();
    if (!json.is_object() || model == json.end() || !model->is_object() || !model->contains("text") ||
        !(*model)["text"].is_string())
        return std::nullopt;
    return std::pair{model->value("file", path), (*model)["text"].get<std::string>()};
}

// The fit's own integrator and intersample settings, from its report's "non_default_settings"
// (dotted keys, as the project's "settings" spell them); absent ones keep their defaults.
template <class Fields>
void readFittedSettings(const std::string& path, const Fields& fields, estimate::FitSettings& settings)
{
    std::ifstream in(path);
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
    if (!json.is_object() || !json.contains("report") || !json["report"].is_object())
        return;
    const nlohmann::json leaves = json["report"].value("non_default_settings", nlohmann::json::object());
    if (!leaves.is_object())
        return;
    nlohmann::json nested = nlohmann::json::object();
    for (const auto& [key, value] : leaves.items())
        if (key.starts_with("integrator.") || key.starts_with("intersample."))
            project::detail::memberFor(nested, key) = value;
    try {
        project::readFields(fields, nested, settings);
    } catch (const project::FieldJsonError& e) {
        throw UserError(path + ": report.non_default_settings." + e.key + ": " + e.message);
    }
}

std::map<std::string, double> estimatesOf(const estimate::FitResult& result)
{
    std::map<std::string, double> estimates;
    for (const auto& p : result.parameters)
        estimates[p.name] = p.value;
    return estimates;
}

std::string cellText(double value, int digits)
{
    return std::isfinite(value) ? data::formatNumber(value, digits) : std::string("-");
}

void printTable(std::ostream& out, const std::string& name, const job::Comparison& comparison,
                job::InitialValues initial)
{
    const job::ValidationSimulation& s = comparison.simulation;
    out << "compared with " << name << " (initial values: " << job::kInitialValueSources.name(initial.source);
    if (initial.source == job::InitialValueSource::Estimate && initial.estimateSeconds > 0)
        out << " from the first " << data::formatNumber(initial.estimateSeconds) << " s";
    out << ")\n";
    std::size_t width = std::string("output").size() + 2;
    for (const auto& o : s.outputNames)
        width = std::max(width, o.size() + 2);
    out << std::left << std::setw(static_cast<int>(width)) << "output" << std::setw(14) << "rmse" << std::setw(12)
        << "nrmse"
        << "fit %\n";
    for (std::size_t j = 0; j < s.outputNames.size(); ++j) {
        if (j >= s.outputMeasured.size() || !s.outputMeasured[j])
            continue;
        const job::OutputAgreement& a = comparison.agreement[j];
        out << std::setw(static_cast<int>(width)) << s.outputNames[j] << std::setw(14) << cellText(a.rmse, 6)
            << std::setw(12) << cellText(a.nrmse, 4) << cellText(a.fitPercent, 4) << "\n";
    }
    std::string states;
    for (std::size_t i = 0; i < s.stateNames.size() && static_cast<Eigen::Index>(i) < s.initialState.size(); ++i)
        states += (states.empty() ? "" : ", ") + s.stateNames[i] + " = " +
            data::formatNumber(s.initialState(static_cast<Eigen::Index>(i)));
    out << "initial state: " << states << "\n" << std::right;
}

}  // namespace

int runCompare(const Arguments& args)
{
    po::options_description options(
        "sysid compare RESULT.json|PROJECT.sysid [--data DATA.csv] [--map OUTPUT=COLUMN]... "
        "[--initial result|estimate[:S]|model] [-o OUT.json|OUT.csv]\n"
        "The model at a fit's estimate simulated on a record and compared with it, per measured output: rmse "
        "(root mean square\nof measured - simulated), nrmse (rmse / standard deviation of the measured output) and "
        "fit % (100 (1 - |y - yhat| / |y - mean(y)|),\nLjung 1999). From RESULT.json of `sysid fit` (its model, or "
        "--model, and its integrator and intersample settings); from a PROJECT its model and last result, on\n--data "
        "or else on its validation data sets");
    // clang-format off
    options.add_options()
        ("help,h", "show this help")
        ("input", po::value<std::string>(), "RESULT.json of `sysid fit`, or a .sysid project with a result")
        ("data", po::value<std::string>(), "CSV file of the record to compare with (a project: default its "
                                           "validation data sets)")
        ("model", po::value<std::string>(), "MODEL file of the fit (a RESULT.json that does not hold its model)")
        ("time", po::value<std::string>(), "name of the time column (default: t, time or the first)")
        ("map", po::value<Strings>()->composing(), "OUTPUT=COLUMN: read a model output or input from another column "
                                                   "(repeatable; a project's --data: default the first fitted data "
                                                   "set's mapping)")
        ("initial", po::value<std::string>(),
         (job::kInitialValueSources.choices() + " (estimate:SECONDS: from the record's first seconds): where the "
          "estimated initial values come from (default: result; estimate when the fit estimated them per data set). " +
          job::kInitialValueSources.help()).c_str())
        ("output,o", po::value<std::string>(), "OUT.json (the measures and the initial state) or OUT.csv (t, each "
                                               "output measured and simulated); - for JSON on standard output");
    // clang-format on
    addCsvFormatOptions(options);
    const auto fields = core::selectFields(estimate::fitSettingFields(), [](const estimate::FitField& f) {
        return f.names.key == "intersample" || f.names.key.starts_with("integrator.");
    });
    addFieldOptions(options, nullptr, fields);
    const auto parsed = parseArguments(args, options, "input");
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const std::string input = inputArgument(vm, "missing the RESULT.json or PROJECT.sysid file");
    const bool isProject = isProjectFile(input);
    const std::string output = vm.count("output") ? vm["output"].as<std::string>() : "";
    const std::string extension = std::filesystem::path(output).extension().string();
    if (!output.empty() && output != "-" && extension != ".json" && extension != ".csv")
        throw UsageError("-o: the file must end in .json or .csv, not '" + output + "'");
    if (!output.empty())
        checkOutputPlace(output);
    if (isProject && vm.count("model"))
        throw UsageError("--model is for a RESULT.json; the project " + input + " holds its model");
    {
        estimate::FitSettings checked;  // option errors come before anything is read
        applyFieldOptions(vm, fields, checked);
    }
    const bool initialGiven = vm.count("initial") > 0;
    const job::InitialValues given =
        initialGiven ? parseInitialValues(vm["initial"].as<std::string>()) : job::InitialValues{};

    job::FitJob fit;
    estimate::FitResult result;
    std::optional<project::Project> project;
    if (isProject) {
        project = project::loadProject(input);
        if (!project->lastResult)
            throw UserError(input + ": the project has no result yet; fit it first (sysid fit " + input +
                            ", or Fit in the application)");
        try {
            result = project::resultFromJson(*project->lastResult);
        } catch (const std::exception& e) {
            throw UserError(input + ": " + e.what());
        }
        fit = project::makeFitJob(*project);
        fit.experiments.clear();
    } else {
        result = readFitResult(input, "RESULT.json");
        if (vm.count("model")) {
            fit.modelSource = vm["model"].as<std::string>();
            fit.modelText = readModelText(fit.modelSource);
        } else if (const auto model = resultModel(input)) {
            std::tie(fit.modelSource, fit.modelText) = *model;
        } else {
            throw UserError(input +
                            ": the result does not hold the model it was fitted with (written by an older "
                            "sysid or another program); give it with --model MODEL");
        }
        readFittedSettings(input, fields, fit.settings);
    }
    applyFieldOptions(vm, fields, fit.settings);
    const std::map<std::string, double> estimates = estimatesOf(result);

    std::vector<project::DataSetComparison> comparisons;
    job::InitialValues initial;
    if (vm.count("data")) {
        initial = initialGiven ? given : job::defaultInitialValues(result);
        job::ExperimentData record;
        record.name = vm["data"].as<std::string>();
        record.table = data::readCsv(record.name, csvOptions(vm));
        record.mapping = columnMapping(vm, "OUTPUT=COLUMN");
        if (project && !vm.count("map"))
            if (const auto fitted = project::estimationDataSets(*project); !fitted.empty())
                record.mapping = project->data[fitted.front()].mapping;
        project::DataSetComparison c;
        c.name = record.name;
        c.comparison = job::compareWithRecord(fit, record, 0, estimates, initial);
        comparisons.push_back(std::move(c));
    } else if (project) {
        for (const char* option : {"time", "map", "separator", "decimal-point", "header-line", "skip-rows"})
            if (vm.count(option))
                throw UsageError(std::string("--") + option + " reads --data; the project " + input +
                                 " names how its data sets are read");
        if (project::validationDataSets(*project).empty())
            throw UserError(input +
                            ": the project has no validation data set (an included data set with the role "
                            "\"validation\"); give --data DATA.csv to compare with a record");
        initial = initialGiven ? given : job::defaultInitialValues(result);
        comparisons = project::compareValidationDataSets(*project, fit, estimates, initial);
    } else {
        throw UsageError("missing --data DATA.csv: the record to compare the fit with");
    }

    if (extension == ".csv" && comparisons.size() > 1)
        throw UsageError("-o " + output + ": a CSV file holds one record, and the project has " +
                         std::to_string(comparisons.size()) + " validation data sets; give --data or write JSON");
    std::ostream& table = output == "-" ? std::cerr : std::cout;
    bool failed = false;
    for (const auto& c : comparisons) {
        if (c.comparison) {
            printTable(table, c.name, *c.comparison, initial);
        } else {
            std::cerr << "sysid compare: " << c.name << ": " << c.error << "\n";
            failed = true;
        }
    }
    if (failed && comparisons.size() == 1)
        return UserErrorExit;
    if (output.empty())
        return failed ? UserErrorExit : Success;
    if (extension == ".csv") {
        project::writeFileAtomically(output, project::comparisonCsv(*comparisons.front().comparison));
    } else {
        nlohmann::json json;
        if (vm.count("data")) {
            json = project::comparisonToJson(*comparisons.front().comparison);
            json["data"] = comparisons.front().name;
        } else {
            json["validation"] = project::validationToJson(comparisons);
        }
        json["initial_values"] = std::string(job::kInitialValueSources.name(initial.source));
        writeResult(output, json.dump(2) + "\n");
    }
    return failed ? UserErrorExit : Success;
}

}  // namespace sysid::cli
