#include "app/cli/ParameterOverrides.h"

#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"

#include "engine/project/JsonFile.h"
#include "engine/project/ProjectError.h"
#include "engine/project/ResultJson.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sysid::cli {

double parseNumber(const std::string& text, const std::string& option)
{
    double value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        throw UsageError(option + ": '" + text + "' is not a finite number");
    return value;
}

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

estimate::FitResult readFitResult(const std::string& path, const std::string& option)
{
    nlohmann::json json;
    try {
        json = project::readJsonFile(path, "fit result");
    } catch (const project::ProjectError& e) {
        throw UserError(option + ": " + e.what());
    }
    try {
        return project::resultFromJson(json);
    } catch (const std::exception& e) {
        throw UserError(option + " " + path + ": not a fit result (" + e.what() + ")");
    }
}

}  // namespace sysid::cli
