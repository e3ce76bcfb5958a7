#include "engine/project/ModelCandidateJson.h"

#include "engine/estimate/FitSettingFields.h"
#include "engine/project/JsonFile.h"
#include "engine/project/ProjectError.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResultJson.h"
#include "engine/project/SettingsJson.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace sysid::project {

namespace {

std::string readText(const std::string& path, const std::string& what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in || std::filesystem::is_directory(path))
        throw ProjectError(path, "",
                           "cannot read the " + what + (std::filesystem::exists(path) ? "" : " (no such file)"));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

bool comparisonSettingKey(const std::string& key)
{
    return key.starts_with("integrator.") || key.starts_with("intersample.") || key.starts_with("periodic.");
}

job::ModelCandidate candidateFromResultFile(const std::string& path, const std::string& modelFile)
{
    const nlohmann::json json = readJsonFile(path, "fit result");
    if (!json.is_object())
        throw ProjectError(path, "", "not a fit result (not a JSON object)");
    job::ModelCandidate candidate;
    candidate.name = path;
    try {
        candidate.result = resultFromJson(json);
    } catch (const std::exception& e) {
        throw ProjectError(path, "", std::string("not a fit result (") + e.what() + ")");
    }
    job::FitJob& fit = candidate.fit;
    const auto model = json.find("model");
    if (!modelFile.empty()) {
        fit.modelSource = modelFile;
        fit.modelText = readText(modelFile, "model");
    } else if (model != json.end() && model->is_object() && model->contains("text") && (*model)["text"].is_string()) {
        fit.modelSource = model->value("file", path);
        fit.modelText = (*model)["text"].get<std::string>();
    } else {
        throw ProjectError(path, "model",
                           "the result does not hold the model it was fitted with (written by an older sysid or "
                           "another program); give the model file");
    }
    const auto report = json.find("report");
    if (report == json.end() || !report->is_object())
        return candidate;  // an older result: output error with the default settings
    if (report->contains("method") && (*report)["method"].is_string()) {
        const std::string name = (*report)["method"].get<std::string>();
        const auto method = estimate::kEstimationMethods.parse(name);
        if (!method)
            throw ProjectError(path, "report.method", estimate::kEstimationMethods.mustBe("method", name));
        fit.settings.method = *method;
    }
    const nlohmann::json leaves = report->value("non_default_settings", nlohmann::json::object());
    if (!leaves.is_object())
        return candidate;
    nlohmann::json nested = nlohmann::json::object();
    for (const auto& [key, value] : leaves.items())
        if (comparisonSettingKey(key))
            detail::memberFor(nested, key) = value;
    const auto fields = core::selectFields(estimate::fitSettingFields(), [](const estimate::FitField& f) {
        return f.names.key == "intersample" || comparisonSettingKey(f.names.key);
    });
    try {
        readFields(fields, nested, fit.settings);
    } catch (const FieldJsonError& e) {
        throw ProjectError(path, "report.non_default_settings." + e.key, e.message);
    }
    return candidate;
}

job::ModelCandidate candidateFromProject(const Project& project, const std::string& name)
{
    if (!project.lastResult)
        throw ProjectError(name, "last_result", "the project has no result yet; fit it first");
    job::ModelCandidate candidate;
    candidate.name = name;
    try {
        candidate.result = resultFromJson(*project.lastResult);
    } catch (const std::exception& e) {
        throw ProjectError(name, "last_result", e.what());
    }
    candidate.fit = makeFitJob(project);
    candidate.fit.experiments.clear();
    return candidate;
}

}  // namespace sysid::project
