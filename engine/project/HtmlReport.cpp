#include "engine/project/HtmlReport.h"

#include "engine/core/RunSummary.h"
#include "engine/data/CsvReader.h"
#include "engine/data/Preprocessing.h"
#include "engine/estimate/FitSettingFields.h"
#include "engine/estimate/MethodTraits.h"
#include "engine/estimate/ResidualAnalysis.h"
#include "engine/estimate/UndeterminedDirections.h"
#include "engine/model/ModelBuilder.h"
#include "engine/project/FitReport.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <exception>
#include <filesystem>
#include <set>

namespace sysid::project {

namespace {

// How the report shows a number: "—" for NaN, "∞" for infinities, else `digits` significant digits.
std::string number(double value, int digits = 6)
{
    if (std::isnan(value))
        return "—";
    if (std::isinf(value))
        return value > 0 ? "∞" : "−∞";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

std::string tableCell(const std::string& text, const std::string& attributes = {})
{
    return "<td" + (attributes.empty() ? std::string() : " " + attributes) + ">" + text + "</td>";
}

std::string headerRow(const std::vector<std::string>& labels)
{
    std::string row = "<tr>";
    for (const auto& label : labels)
        row += "<th>" + htmlEscape(label) + "</th>";
    return row + "</tr>\n";
}

// A two-column table of label and value (values already HTML).
std::string keyValueTable(const std::vector<std::pair<std::string, std::string>>& rows)
{
    std::string table = "<table class=\"keys\" cellspacing=\"0\" cellpadding=\"3\">\n";
    for (const auto& [label, value] : rows)
        table += "<tr><th align=\"left\">" + htmlEscape(label) + "</th>" + tableCell(value) + "</tr>\n";
    return table + "</table>\n";
}

std::string section(const std::string& title)
{
    return "<h2>" + htmlEscape(title) + "</h2>\n";
}

// As ResultsPanel colours a correlation: blue at -1, white at 0, red at +1.
std::string correlationColour(double value)
{
    if (!std::isfinite(value))
        return "#c8c8c8";
    const double v = std::clamp(value, -1.0, 1.0);
    const int fade = static_cast<int>(std::lround(255.0 * (1.0 - std::abs(v))));
    char buffer[8];
    if (v < 0)
        std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", fade, fade, 255);
    else
        std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", 255, fade, fade);
    return buffer;
}

// What the report is of: the project file, else the model's.
std::string reportName(const Project& project, const ReportHeading& heading)
{
    if (!heading.projectFile.empty())
        return heading.projectFile;
    return project.modelSource.empty() ? std::string("unsaved project") : project.modelSource;
}

std::string headingPart(const Project& project, const ReportHeading& heading)
{
    std::string html = "<h1>Parameter identification report: " + htmlEscape(reportName(project, heading)) + "</h1>\n";
    std::vector<std::pair<std::string, std::string>> rows{
        {"Date", htmlEscape(heading.date)},
        {"Program", "sysid " + htmlEscape(heading.version)},
        {"Project file", htmlEscape(heading.projectFile.empty() ? "not saved" : heading.projectFile)},
    };
    if (!project.modelSource.empty())
        rows.push_back({"Model", htmlEscape(project.modelSource)});
    html += keyValueTable(rows);
    if (!heading.outOfDate.empty())
        html += "<p class=\"warning\"><b>Out of date:</b> " + htmlEscape(heading.outOfDate) +
            " this fit. The model, data and settings below are the project's now, not necessarily those the fit "
            "ran with; run the fit again for a current report.</p>\n";
    return html;
}

std::string modelPart(const Project& project)
{
    return section("1. Model") + "<pre class=\"model\">" + htmlEscape(project.modelText) + "</pre>\n";
}

std::string dataPart(const Project& project)
{
    std::string html = section("2. Data sets");
    if (project.data.empty())
        return html + "<p>The project has no data sets.</p>\n";
    html += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n" +
        headerRow({"Data set", "File", "Samples", "Time span", "Column mapping"});
    for (std::size_t k = 0; k < project.data.size(); ++k) {
        const Project::DataSet& set = project.data[k];
        std::string samples = "—";
        std::string span;
        try {
            const data::DataTable table = data::readCsv(set.path, csvOptions(set));
            samples = std::to_string(table.rowCount());
            const std::vector<double>& t = table.time();
            span = t.empty() ? std::string("—")
                             : htmlEscape(number(t.front()) + " … " + number(t.back()) + " s (column " +
                                          table.columnNames[table.timeColumn] + ")");
        } catch (const std::exception& e) {
            span = "<i>cannot be read: " + htmlEscape(e.what()) + "</i>";
        }
        std::string mapping;
        for (const auto& [name, column] : set.mapping)
            mapping += (mapping.empty() ? "" : "<br>") + htmlEscape(name + " ← " + column);
        if (mapping.empty())
            mapping = "by name";
        const std::string name = set.name.empty() ? "data set " + std::to_string(k + 1) : set.name;
        html += "<tr>" + tableCell(htmlEscape(name)) +
            tableCell(htmlEscape(std::filesystem::path(set.path).filename().string())) +
            tableCell(samples, "align=\"right\"") + tableCell(span) + tableCell(mapping) + "</tr>\n";
    }
    return html + "</table>\n";
}

std::string preprocessingPart(const Project& project, const estimate::FitSettings& settings)
{
    std::string html = section("3. Preprocessing");
    data::Preprocessing p;
    try {
        p = data::preprocessingFromJson(project.preprocessing);
    } catch (const std::exception& e) {
        return html + "<p>The project's preprocessing cannot be read: " + htmlEscape(e.what()) + "</p>\n";
    }
    std::vector<std::pair<std::string, std::string>> rows;
    rows.push_back({"Time window",
                    p.window ? htmlEscape(number(p.window->first) + " s … " + number(p.window->second) + " s" +
                                          (p.windowAfterFilter ? ", cut from the filtered record" : ""))
                             : "the whole record"});
    if (p.noise)
        rows.push_back({"Added noise",
                        htmlEscape(number(p.noise->percent) + " % of each column's RMS, " +
                                   std::string(data::noiseDistributionName(p.noise->distribution)) + ", seed " +
                                   std::to_string(p.noise->seed))});
    rows.push_back({"Low-pass filter",
                    p.lowPass ? htmlEscape("zero-phase Butterworth, order " + std::to_string(p.lowPass->order) +
                                           ", cutoff " + number(p.lowPass->cutoffHz) + " Hz, ends by " +
                                           std::string(data::kFilterEnds.label(p.lowPass->ends)))
                              : "none"});
    rows.push_back({"Decimation",
                    p.decimation > 1 ? "every " + std::to_string(p.decimation) + "th sample" : "none (every sample)"});
    if (estimate::takes(settings.method, estimate::MethodInput::Differentiation)) {
        std::string d(data::kDerivativeMethods.label(p.differentiation.method));
        if (p.differentiation.method == data::DerivativeMethod::SavitzkyGolay)
            d += ", window " + std::to_string(p.differentiation.window) + ", order " +
                std::to_string(p.differentiation.polynomialOrder);
        rows.push_back({"Velocities", htmlEscape(d)});
    }
    return html + keyValueTable(rows);
}

// The value of a setting as the report shows it: a scalar as its text, a map as NAME = VALUE
// pairs, an empty map as its default.
std::string settingValue(const estimate::FitField& field, const estimate::FitSettings& settings)
{
    auto& s = const_cast<estimate::FitSettings&>(settings);  // the accessors only read here
    std::string pairs;
    std::visit(
        [&](const auto& a) {
            using A = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<A, core::NumberMapAccess<estimate::FitSettings>>) {
                for (const auto& [name, value] : a.ref(s))
                    pairs += (pairs.empty() ? "" : ", ") + name + " = " + core::settingText(value);
            } else if constexpr (std::is_same_v<A, core::ChoiceMapAccess<estimate::FitSettings>>) {
                for (const auto& [name, value] : a.get(settings))
                    pairs += (pairs.empty() ? "" : ", ") + name + " = " + a.choices.name(value);
            } else {
                pairs = core::fieldText(field, settings);
            }
        },
        field.access);
    if (pairs.empty())
        return field.names.defaultText.empty() ? std::string("—") : std::string(field.names.defaultText);
    return pairs;
}

std::string estimatorPart(const estimate::FitResult& result)
{
    const estimate::FitSettings& s = result.settings;
    std::string html = section("4. Estimator");
    std::string method = estimate::methodName(s.method);
    if (!result.minimiser.empty())
        method += ", minimised by " + result.minimiser;
    html += "<p><b>Method:</b> " + htmlEscape(method) + "</p>\n";
    const nlohmann::json changed = nonDefaultSettings(s);
    html += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n" + headerRow({"Setting", "Key", "Value"});
    for (const estimate::FitField& field : estimate::fitSettingFields()) {
        if (field.need && !estimate::takes(s.method, *field.need))
            continue;
        const std::string& key = field.names.key;
        bool isChanged = changed.contains(key);
        for (const auto& [changedKey, value] : changed.items())
            isChanged = isChanged || changedKey.rfind(key + ".", 0) == 0;
        const std::string label(field.names.label.empty() ? std::string_view(key) : field.names.label);
        const std::string value = htmlEscape(settingValue(field, s));
        html += "<tr>" + tableCell(htmlEscape(label)) + tableCell("<code>" + htmlEscape(key) + "</code>") +
            tableCell(isChanged ? "<b>" + value + "</b> (changed)" : value) + "</tr>\n";
    }
    if (estimate::takes(s.method, estimate::MethodInput::Priors)) {
        std::string priors;
        for (const auto& [name, prior] : s.priors)
            priors += (priors.empty() ? "" : ", ") + name + ": mean " + number(prior.mean) + ", sd " + number(prior.sd);
        html += "<tr>" + tableCell("priors") + tableCell("<code>priors</code>") +
            tableCell(htmlEscape(priors.empty() ? "none" : priors)) + "</tr>\n";
    }
    return html + "</table>\n<p class=\"note\">Values in bold differ from the defaults.</p>\n";
}

std::string resultsPart(const Project& project, const estimate::FitResult& result)
{
    std::string html = section("5. Estimates");
    // The model's bounds and fixed parameters; a model that no longer parses still has its estimates.
    std::optional<model::Model> model;
    try {
        model = model::parseModel(project.modelText, project.modelSource.empty() ? "<model>" : project.modelSource);
    } catch (const std::exception&) {
    }
    const auto bounds = [&](const std::string& name) -> std::string {
        if (!model)
            return "—";
        const std::size_t i = model->parameterIndex(name);
        if (i == std::string::npos || i >= model->parameters.size())
            return "—";
        const model::Parameter& p = model->parameters[i];
        if (std::isinf(p.lower) && std::isinf(p.upper))
            return "none";
        return "[" + number(p.lower) + ", " + number(p.upper) + "]";
    };
    const std::map<std::string, double> truth = trueValues(project);
    std::vector<std::string> labels{"Parameter",    "Unit",          "Initial", "Estimate", "Std. dev.",
                                    "Rel. std (%)", "95 % interval", "Bounds",  "Note"};
    if (!truth.empty())
        labels.insert(labels.begin() + 8, "Rel. error vs true (%)");
    html += "<table width=\"100%\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n" + headerRow(labels);
    for (const estimate::ParameterEstimate& p : result.parameters) {
        const double relative = p.value != 0.0 ? 100.0 * p.sd / std::abs(p.value) : std::nan("");
        std::string row = "<tr>" + tableCell("<b>" + htmlEscape(p.name) + "</b>") + tableCell(htmlEscape(p.unit)) +
            tableCell(number(p.initial), "align=\"right\"") + tableCell(number(p.value), "align=\"right\"") +
            tableCell(number(p.sd, 3), "align=\"right\"") + tableCell(number(relative, 3), "align=\"right\"") +
            tableCell(htmlEscape("[" + number(p.lower95) + ", " + number(p.upper95) + "]")) +
            tableCell(htmlEscape(bounds(p.name)));
        if (!truth.empty()) {
            const auto it = truth.find(p.name);
            row += tableCell(it == truth.end() || it->second == 0.0
                                 ? "—"
                                 : number(100.0 * (p.value - it->second) / std::abs(it->second), 3),
                             "align=\"right\"");
        }
        row += tableCell(p.atBound ? "on a bound: its std assumes the bound is not active" : "") + "</tr>\n";
        html += row;
    }
    if (model) {
        std::set<std::string> estimated;
        for (const auto& p : result.parameters)
            estimated.insert(p.name);
        for (const model::Parameter& p : model->parameters) {
            if (estimated.count(p.name) || !p.fixed)
                continue;
            const auto value = project.parameterValues.find(p.name);
            std::string row = "<tr>" + tableCell(htmlEscape(p.name)) + tableCell(htmlEscape(p.unit)) + tableCell("") +
                tableCell(number(value == project.parameterValues.end() ? p.value : value->second), "align=\"right\"") +
                tableCell("") + tableCell("") + tableCell("") + tableCell(htmlEscape(bounds(p.name)));
            if (!truth.empty())
                row += tableCell("");
            html += row + tableCell("fixed") + "</tr>\n";
        }
    }
    html += "</table>\n";
    for (const estimate::ParameterCombination& combination : result.undetermined)
        html += "<p><b>Not determined:</b> " + htmlEscape(estimate::describe(combination)) + ".</p>\n";

    html += "<h3>Correlation of the estimates</h3>\n";
    const Eigen::MatrixXd& c = result.correlation;
    const auto n = static_cast<Eigen::Index>(result.parameters.size());
    if (n == 0 || c.rows() != n || c.cols() != n)
        return html + "<p>No correlation matrix: the fit estimated no parameters or its covariance is unknown.</p>\n";
    html += "<table class=\"correlation\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n<tr><th></th>";
    for (const auto& p : result.parameters)
        html += "<th>" + htmlEscape(p.name) + "</th>";
    html += "</tr>\n";
    for (Eigen::Index r = 0; r < n; ++r) {
        html += "<tr><th>" + htmlEscape(result.parameters[static_cast<std::size_t>(r)].name) + "</th>";
        for (Eigen::Index k = 0; k < n; ++k) {
            const double v = c(r, k);
            char text[16];
            std::snprintf(text, sizeof text, "%.3f", v);
            const bool dark = std::isfinite(v) && std::abs(v) > 0.7;
            html += tableCell((dark ? "<font color=\"#ffffff\">" : "<font color=\"#000000\">") +
                                  std::string(std::isfinite(v) ? text : "—") + "</font>",
                              "align=\"center\" bgcolor=\"" + correlationColour(v) + "\"");
        }
        html += "</tr>\n";
    }
    return html + "</table>\n<p class=\"note\">Blue: −1, white: 0, red: +1.</p>\n";
}

std::string statisticsPart(const estimate::FitResult& result)
{
    std::string html = section("6. How the fit ended");
    const core::Termination& t = result.termination;
    std::string why(core::terminationKinds.description(t.kind));
    if (t.criterion != core::TerminationCriterion::None)
        why += ": " + std::string(core::terminationCriteria.description(t.criterion));
    const std::string initial = result.history.empty() ? std::string() : number(result.history.front().cost) + " → ";
    std::vector<std::pair<std::string, std::string>> rows{
        {"Result", "<b>" + htmlEscape(std::string(core::terminationKinds.name(t.kind))) + "</b> — " + htmlEscape(why)},
        {"Stop reason", htmlEscape(t.message.empty() ? "—" : t.message)},
        {"Cost", htmlEscape(initial + number(result.cost))},
        {"Iterations", std::to_string(result.iterations)},
        {"Unknowns and residuals",
         std::to_string(result.parameters.size()) + " unknowns from " + std::to_string(result.residualCount) +
             " residuals"},
        {"Evaluations",
         std::to_string(result.evaluations) + " of the objective, " + std::to_string(result.derivativeEvaluations) +
             " with derivatives"},
        {"Integration", htmlEscape(core::integrationSummary(result.statistics))},
    };
    if (const auto newton = core::newtonSummary(result.statistics); !newton.empty())
        rows.emplace_back("Periodic solutions", htmlEscape(newton));
    rows.emplace_back("Time", htmlEscape(core::timeSummary(result.statistics)));
    rows.emplace_back("−2 ln L",
                      std::isfinite(result.likelihood.minusTwoLog) ? htmlEscape(estimate::describe(result.likelihood))
                                                                   : std::string("—"));
    html += keyValueTable(rows);
    html += "<h3>Residual RMS per output</h3>\n";
    if (result.residualRms.empty())
        return html + "<p>No residuals were computed.</p>\n";
    const bool estimatedNoise = !result.noise.empty();
    html += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n" +
        headerRow(estimatedNoise ? std::vector<std::string>{"Output", "Residual RMS", "Noise sd (estimated) ± sd",
                                                            "Residual analysis (99 % bounds, Ljung 1999)"}
                                 : std::vector<std::string>{"Output", "Residual RMS",
                                                            "Residual analysis (99 % bounds, Ljung 1999)"});
    for (std::size_t k = 0; k < result.residualRms.size(); ++k) {
        const std::string output =
            k < result.outputNames.size() ? result.outputNames[k] : "output " + std::to_string(k + 1);
        const double rms = result.residualRms[k];
        std::string analysis;
        for (const auto& a : result.residualAnalysis.outputs)
            if (a.output == output && a.samples > 0)
                analysis = estimate::verdict(a);
        std::string noise = "—";
        for (const auto& n : result.noise)
            if (n.output == output)
                noise = number(n.value) + " ± " + number(n.sd);
        html += "<tr>" + tableCell(htmlEscape(output)) +
            tableCell(std::isnan(rms) ? "not measured" : number(rms), "align=\"right\"") +
            (estimatedNoise ? tableCell(noise, "align=\"right\"") : std::string()) + tableCell(htmlEscape(analysis)) +
            "</tr>\n";
    }
    return html + "</table>\n";
}

std::string figuresPart(const std::vector<ReportFigure>& figures, bool validation, int& counter)
{
    std::string html;
    for (const ReportFigure& figure : figures) {
        if (figure.validation != validation)
            continue;
        ++counter;
        html += "<div class=\"figure\"><p align=\"center\"><img src=\"" + htmlEscape(figure.file) +
            "\" width=\"560\" alt=\"" + htmlEscape(figure.caption) +
            "\"></p>\n<p class=\"caption\" align=\"center\">"
            "<b>Figure " +
            std::to_string(counter) + ".</b> " + htmlEscape(figure.caption) + "</p></div>\n";
    }
    return html;
}

// A JSON number, or NaN for null and anything else (a hand-edited file).
double jsonNumber(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number() ? it->get<double>() : std::nan("");
}

std::string intervalText(const nlohmann::json& pair)
{
    if (!pair.is_array() || pair.size() != 2)
        return "—";
    const auto end = [](const nlohmann::json& v) {
        return v.is_number() ? number(v.get<double>()) : std::string("open");
    };
    return "[" + end(pair[0]) + ", " + end(pair[1]) + "]";
}

// The last profiles the graphical program computed (Raue et al. 2009), when they were computed
// around this result's estimates; else a note that they belong to another fit.
std::string profilePart(const Project& project, const estimate::FitResult& result, const std::string& sectionNumber)
{
    if (!project.lastProfileResult || !project.lastProfileResult->is_object())
        return {};
    const nlohmann::json& last = *project.lastProfileResult;
    const auto profiles = last.find("profiles");
    if (profiles == last.end() || !profiles->is_object() || profiles->empty())
        return {};
    std::string html = section(sectionNumber + ". Profile likelihood");
    // The profile's own optimum is fitted again, so it matches the result only to the fit's tolerance.
    const auto estimates = last.find("estimates");
    bool sameFit = estimates != last.end() && estimates->is_object();
    for (const auto& p : result.parameters) {
        if (!sameFit)
            break;
        const auto e = estimates->find(p.name);
        if (e == estimates->end() || !e->is_number()) {
            sameFit = false;
            break;
        }
        const double other = e->get<double>();
        const double spread = std::isfinite(p.sd) ? 1e-2 * p.sd : 0.0;
        sameFit = std::abs(other - p.value) <= 1e-3 * std::max(std::abs(other), std::abs(p.value)) + spread;
    }
    if (!sameFit)
        return html +
            "<p class=\"warning\">The profiles saved in the project were computed for another fit; "
            "compute them again for this one.</p>\n";
    const auto settings = last.find("settings");
    const double confidence =
        settings != last.end() && settings->is_object() ? jsonNumber(*settings, "confidence") : std::nan("");
    const bool simultaneous = settings != last.end() && settings->is_object() && settings->value("simultaneous", false);
    html += "<p>Each parameter stepped away from the optimum with the others fitted again (Raue et al. 2009). "
            "The likelihood-based " +
        number(100 * confidence, 3) + " % interval is where -2 log L stays within " +
        number(jsonNumber(last, "threshold"), 4) + " of the optimum" +
        (simultaneous ? " (simultaneous for all parameters)" : "") +
        "; the Wald interval is the covariance's for comparison.</p>\n";
    html += "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n" +
        headerRow({"Parameter", "Estimate", "Profile interval", "Wald interval", "Verdict"});
    for (const auto& [name, profile] : profiles->items()) {
        if (!profile.is_object())
            continue;
        const auto verdict = profile.find("verdict");
        html += "<tr>" + tableCell(htmlEscape(name)) + tableCell(number(jsonNumber(profile, "estimate"))) +
            tableCell(intervalText(profile.value("interval", nlohmann::json()))) +
            tableCell(intervalText(profile.value("wald_interval", nlohmann::json()))) +
            tableCell(verdict != profile.end() && verdict->is_string() ? htmlEscape(verdict->get<std::string>())
                                                                       : "—") +
            "</tr>\n";
    }
    return html + "</table>\n";
}

const char* kStyle = R"(<style>
body { font-family: sans-serif; font-size: 10pt; max-width: 60em; margin: 1em auto; color: #202020; }
h1 { font-size: 16pt; }
h2 { font-size: 13pt; margin-top: 1.5em; border-bottom: 1px solid #888888; }
h3 { font-size: 11pt; }
table { border-collapse: collapse; margin: 0.5em 0; }
th { background: #eeeeee; text-align: left; }
table.keys th { background: none; padding-right: 1.5em; }
pre.model { white-space: pre-wrap; font-family: monospace; font-size: 9pt; background: #f6f6f6; border: 1px solid #cccccc; padding: 6px; }
p.note { font-size: 9pt; color: #555555; }
p.caption { font-size: 9pt; }
p.warning { background: #fff3d6; color: #7a2e00; border: 1px solid #d55e00; padding: 4px; }
img { max-width: 100%; }
td, th { font-size: 9pt; }
</style>
)";

}  // namespace

std::string htmlEscape(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string reportDate()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &utc);
    return buffer;
}

std::string htmlReport(const Project& project, const estimate::FitResult& result, const ReportHeading& heading,
                       const std::vector<ReportFigure>& figures)
{
    const std::string title = "sysid report: " + reportName(project, heading);
    std::string html = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>" + htmlEscape(title) +
        "</title>\n" + kStyle + "</head>\n<body>\n";
    html += headingPart(project, heading);
    html += modelPart(project);
    html += dataPart(project);
    html += preprocessingPart(project, result.settings);
    html += estimatorPart(result);
    html += resultsPart(project, result);
    html += statisticsPart(result);
    int counter = 0;
    html += section("7. Figures");
    const std::string fitFigures = figuresPart(figures, false, counter);
    html += fitFigures.empty() ? "<p>No figures: they are drawn by the graphical program.</p>\n" : fitFigures;
    const std::string validation = figuresPart(figures, true, counter);
    if (!validation.empty())
        html += section("8. Validation") +
            "<p>The model with the estimates, simulated against data not used in the fit.</p>\n" + validation;
    html += profilePart(project, result, validation.empty() ? "8" : "9");
    return html + "</body>\n</html>\n";
}

}  // namespace sysid::project
