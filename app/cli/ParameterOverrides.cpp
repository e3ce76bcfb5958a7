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
