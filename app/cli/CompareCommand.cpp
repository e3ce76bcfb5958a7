// sysid compare: a fitted model simulated on a record and measured against it (RMS error, normalised
// RMS error, fit percentage), from a fit result or a project's last result; several fitted models
// side by side on one record, with their weighted cost and information criteria.
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"
#include "app/cli/FieldOptions.h"
#include "app/cli/ParameterOverrides.h"

#include "engine/data/CsvReader.h"
#include "engine/data/Text.h"
#include "engine/job/Comparison.h"
#include "engine/job/ModelComparison.h"
#include "engine/project/AtomicFile.h"
#include "engine/project/ComparisonJson.h"
#include "engine/project/ModelCandidateJson.h"
#include "engine/project/ModelComparisonJson.h"
#include "engine/project/ProjectError.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ProjectValidation.h"
#include "engine/project/ResultJson.h"
#include "engine/project/SettingsJson.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
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
    if (s.initialState.size() == 0)
        out << "the model's periodic steady state (no initial state)\n" << std::right;
    else
        out << "initial state: " << states << "\n" << std::right;
}

// A RESULT.json as a model to compare; its errors as the user's, naming --model where it helps.
job::ModelCandidate resultCandidate(const std::string& path, const std::string& modelFile)
{
    try {
        return project::candidateFromResultFile(path, modelFile);
    } catch (const project::ProjectError& e) {
        throw UserError(std::string(e.what()) + (e.key == "model" ? " with --model MODEL" : ""));
    }
}

std::string padded(const std::string& text, std::size_t width)
{
    return text.size() + 1 >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

void printModelTable(std::ostream& out, const job::ModelComparison& c)
{
    out << "models compared on " << c.record << "\n";
    std::size_t nameWidth = 7;
    for (const auto& m : c.models)
        nameWidth = std::max(nameWidth, m.name.size() + 2);
    out << padded("model", nameWidth) << padded("method", 19) << padded("k", 4) << padded("N", 7) << padded("cost", 13)
        << padded("AIC", 13) << padded("AICc", 13) << padded("BIC", 13) << padded("dAIC", 11);
    for (const auto& o : c.outputs)
        out << padded(o + " rmse", 13) << padded(o + " fit %", 10);
    out << "\n";
    const auto best = c.best();
    for (const auto& m : c.models) {
        out << padded(m.name, nameWidth) << padded(m.method, 19) << padded(std::to_string(m.parameters), 4);
        if (!m.comparison) {
            out << "failed: " << m.error << "\n";
            continue;
        }
        const double delta = best ? m.criteria.aic - c.models[*best].criteria.aic : NAN;
        out << padded(std::to_string(m.residuals), 7) << padded(cellText(m.cost, 6), 13)
            << padded(cellText(m.criteria.aic, 6), 13) << padded(cellText(m.criteria.aicc, 6), 13)
            << padded(cellText(m.criteria.bic, 6), 13) << padded(cellText(delta, 4), 11);
        for (const auto& o : c.outputs) {
            const auto& s = m.comparison->simulation;
            const auto j = static_cast<std::size_t>(std::find(s.outputNames.begin(), s.outputNames.end(), o) -
                                                    s.outputNames.begin());
            const bool has = j < s.outputNames.size() && j < s.outputMeasured.size() && s.outputMeasured[j];
            out << padded(has ? cellText(m.comparison->agreement[j].rmse, 5) : "-", 13)
                << padded(has ? cellText(m.comparison->agreement[j].fitPercent, 4) : "-", 10);
        }
        out << "\n";
    }
    if (best)
        out << "lowest AIC: " << c.models[*best].name << "\n";
    if (!c.note.empty())
        out << "note: " << c.note << "\n";
    out << project::informationCriteriaFormulas() << "\n";
}

// Several results side by side on one record: --data, or the first fitted data set of the first
// project among them.
template <class Fields>
int compareSeveral(const Strings& inputs, const po::variables_map& vm, const Fields& fields, const std::string& output,
                   const std::string& extension)
{
    std::vector<job::ModelCandidate> candidates;
    std::optional<job::ExperimentData> record;
    std::optional<std::map<std::string, std::string>> projectMapping;
    for (const std::string& input : inputs) {
        if (isProjectFile(input)) {
            const project::Project project = project::loadProject(input);
            try {
                candidates.push_back(project::candidateFromProject(project, input));
            } catch (const project::ProjectError& e) {
                throw UserError(std::string(e.what()) + " (sysid fit " + input + ", or Fit in the application)");
            }
            const auto fitted = project::estimationDataSets(project);
            if (!fitted.empty() && !projectMapping)
                projectMapping = project.data[fitted.front()].mapping;
            if (!record && !vm.count("data") && !fitted.empty())
                record = project::experimentData(project, fitted.front());
        } else {
            candidates.push_back(resultCandidate(input, ""));
        }
        applyFieldOptions(vm, fields, candidates.back().fit.settings);
    }
    if (vm.count("data")) {
        record.emplace();
        record->name = vm["data"].as<std::string>();
        record->table = data::readCsv(record->name, csvOptions(vm));
        record->mapping = columnMapping(vm, "OUTPUT=COLUMN");
        if (!vm.count("map") && projectMapping)
            record->mapping = *projectMapping;
    } else if (!record) {
        throw UsageError("missing --data DATA.csv: the record to compare the models on (a project among them "
                         "would give its first fitted data set)");
    }
    const job::ModelComparison comparison = job::compareModels(candidates, *record);
    std::ostream& table = output == "-" ? std::cerr : std::cout;
    printModelTable(table, comparison);
    for (const auto& m : comparison.models)
        if (!m.comparison)
            std::cerr << "sysid compare: " << m.name << ": " << m.error << "\n";
    if (!output.empty()) {
        if (extension == ".csv")
            project::writeFileAtomically(output, project::modelComparisonCsv(comparison));
        else
            writeResult(output, project::modelComparisonToJson(comparison).dump(2) + "\n");
    }
    const bool anyFailed = std::any_of(comparison.models.begin(), comparison.models.end(),
                                       [](const job::ModelScore& m) { return !m.comparison; });
    return anyFailed ? UserErrorExit : Success;
}

}  // namespace

int runCompare(const Arguments& args)
{
    const NamedOptions named(args);
    po::options_description options(
        "sysid compare RESULT.json|PROJECT.sysid [--data DATA.csv] [--map OUTPUT=COLUMN]... "
        "[--initial result|estimate[:S]|model] [-o OUT.json|OUT.csv]\n"
        "sysid compare RESULT.json|PROJECT.sysid MORE.json|MORE.sysid... [--data DATA.csv] [-o OUT.json|OUT.csv]\n"
        "The model at a fit's estimate simulated on a record and compared with it, per measured output: rmse "
        "(root mean square\nof measured - simulated), nrmse (rmse / standard deviation of the measured output) and "
        "fit % (100 (1 - |y - yhat| / |y - mean(y)|),\nLjung 1999). From RESULT.json of `sysid fit` (its model, or "
        "--model, its method and its integrator, intersample and periodic\nsettings; a periodic-response fit is "
        "compared by its periodic steady state); from a PROJECT its model and last result, on --data\n"
        "or else on its validation data sets.\n"
        "Several RESULT.json / PROJECT.sysid: the fitted models side by side on one record (--data, else the first "
        "project's first fitted\ndata set): per model k estimated parameters, N residuals, the cost J = 1/2 sum "
        "w (y - yhat)^2 with w = 1/sigma^2 from the record's noise\nestimate, AIC = 2J + 2k, AICc, BIC = 2J + k ln N "
        "and rmse / fit % per output; -o OUT.json or OUT.csv (one row per model)");
    // clang-format off
    NamedOptionsInit(options, named, "input")
        ("help,h", "show this help")
        ("input", po::value<Strings>(), "RESULT.json of `sysid fit`, or a .sysid project with a result; several: "
                                        "the models side by side on one record")
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
    addCsvFormatOptions(options, named);
    const auto fields = core::selectFields(estimate::fitSettingFields(), [](const estimate::FitField& f) {
        return f.names.key == "intersample" || f.names.key.starts_with("integrator.");
    });
    addFieldOptions(options, named, nullptr, fields);
    const auto parsed = parseArguments(args, options, "input", nullptr, -1);
    if (!parsed)
        return Success;
    const po::variables_map& vm = *parsed;
    const Strings inputs = vm.count("input") ? vm["input"].as<Strings>() : Strings{};
    if (inputs.empty())
        throw UsageError("missing the RESULT.json or PROJECT.sysid file");
    const std::string& input = inputs.front();
    const bool isProject = isProjectFile(input);
    const std::string output = vm.count("output") ? vm["output"].as<std::string>() : "";
    const std::string extension = std::filesystem::path(output).extension().string();
    if (!output.empty() && output != "-" && extension != ".json" && extension != ".csv")
        throw UsageError("-o: the file must end in .json or .csv, not '" + output + "'");
    if (!output.empty())
        checkOutputPlace(output);
    if (inputs.size() > 1) {
        for (const char* single : {"model", "initial"})
            if (vm.count(single))
                throw UsageError(std::string("--") + single +
                                 " is for one result; several results each hold their model and start from their "
                                 "own initial values");
        return compareSeveral(inputs, vm, fields, output, extension);
    }
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
        job::ModelCandidate candidate = resultCandidate(input, vm.count("model") ? vm["model"].as<std::string>() : "");
        fit = std::move(candidate.fit);
        result = std::move(candidate.result);
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
