#include "engine/project/FitReport.h"

#include "engine/core/RunSummary.h"
#include "engine/data/Text.h"
#include "engine/project/Project.h"

#include <cmath>
#include <cstdio>
#include <map>

using nlohmann::json;

namespace sysid::project {

namespace {

// "a.b.c" -> leaf value of a JSON object tree.
void flatten(const json& value, const std::string& path, std::map<std::string, json>& out)
{
    if (value.is_object() && !value.empty()) {
        for (const auto& [key, item] : value.items())
            flatten(item, path.empty() ? key : path + "." + key, out);
        return;
    }
    out[path] = value;
}

std::map<std::string, json> settingsLeaves(const estimate::FitSettings& settings)
{
    Project project;
    project.settings = settings;
    std::map<std::string, json> leaves;
    flatten(projectToJson(project, "")["settings"], "", leaves);
    return leaves;
}

std::string text(const json& value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_number_float())
        return data::formatNumber(value.get<double>(), 10);
    return value.dump();
}

std::string cost(double value)
{
    if (!std::isfinite(value))
        return "unknown";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6e", value);
    return buffer;
}

std::string line(const std::string& label, const std::string& value)
{
    std::string padded = "  " + label;
    padded.resize(std::max<std::size_t>(padded.size() + 1, 24), ' ');
    return padded + value + "\n";
}

std::string names(const estimate::FitResult& result)
{
    std::string list;
    for (const auto& p : result.parameters)
        list += (list.empty() ? "" : ", ") + p.name;
    return list;
}

}  // namespace

json nonDefaultSettings(const estimate::FitSettings& settings)
{
    const auto defaults = settingsLeaves(estimate::FitSettings{});
    json differing = json::object();
    for (const auto& [key, value] : settingsLeaves(settings)) {
        const auto standard = defaults.find(key);
        if (standard == defaults.end() || standard->second != value)
            differing[key] = value;
    }
    return differing;
}

std::string fitReport(const estimate::FitResult& result)
{
    const estimate::FitSettings& s = result.settings;
    std::string method = estimate::methodName(s.method);
    if (!result.minimiser.empty())
        method += " by " + result.minimiser;
    if (s.sensitivity == estimate::SensitivityMethod::Structural)
        method += ", structural sensitivities";
    else
        method += ", integrator " + integrate::methodName(s.integrator.method);

    std::string differing;
    const json changed = nonDefaultSettings(s);
    for (const auto& [key, value] : changed.items())
        differing += (differing.empty() ? "" : ", ") + key + " = " + text(value);

    std::string report = "fit report\n";
    report += line("method", method);
    report += line("non-default settings", differing.empty() ? "none" : differing);
    report += line("unknowns",
                   std::to_string(result.parameters.size()) + " (" + names(result) + ") from " +
                       std::to_string(result.residualCount) + " residuals");
    report +=
        line("cost",
             (result.history.empty() ? std::string() : cost(result.history.front().cost) + " -> ") + cost(result.cost));
    report += line("iterations", std::to_string(result.iterations));
    report += line("evaluations",
                   std::to_string(result.evaluations) + " of the objective, " +
                       std::to_string(result.derivativeEvaluations) + " with derivatives");
    report += line("integration", core::integrationSummary(result.statistics));
    if (const auto newton = core::newtonSummary(result.statistics); !newton.empty())
        report += line("periodic solutions", newton);
    report += line("time", core::timeSummary(result.statistics));
    for (const estimate::NoiseEstimate& noise : result.noise)
        report += line("noise sd of " + noise.output,
                       data::formatNumber(noise.value, 6) + " +- " + data::formatNumber(noise.sd, 2) +
                           " (estimated with the parameters, " + std::to_string(noise.samples) + " samples)");
    if (std::isfinite(result.likelihood.minusTwoLog))
        report += line("-2 ln L", estimate::describe(result.likelihood));
    for (const estimate::OutputResidualAnalysis& output : result.residualAnalysis.outputs)
        report += line("residuals of " + output.output, estimate::verdict(output));
    report += line("termination", core::describe(result.termination));
    report.pop_back();  // the caller ends the last line
    return report;
}

json fitReportJson(const estimate::FitResult& result)
{
    return {{"method", estimate::methodName(result.settings.method)},
            {"minimiser", result.minimiser},
            {"non_default_settings", nonDefaultSettings(result.settings)},
            {"unknowns", result.parameters.size()},
            {"residuals", result.residualCount},
            {"iterations", result.iterations},
            {"evaluations", result.evaluations},
            {"derivative_evaluations", result.derivativeEvaluations},
            {"initial_cost",
             result.history.empty() || !std::isfinite(result.history.front().cost) ? json(nullptr)
                                                                                   : json(result.history.front().cost)},
            {"final_cost", std::isfinite(result.cost) ? json(result.cost) : json(nullptr)},
            {"text", fitReport(result)}};
}

}  // namespace sysid::project
