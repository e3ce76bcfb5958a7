#include "app/cli/ParameterOverrides.h"

#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"

#include <charconv>
#include <cmath>

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

std::vector<double> parameterValues(const model::Model& model, const std::vector<std::string>& assignments)
{
    std::vector<double> values;
    for (const auto& p : model.parameters)
        values.push_back(p.value);
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

}  // namespace sysid::cli
