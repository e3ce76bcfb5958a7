#include "engine/project/ResultJson.h"

#include "engine/project/FitReport.h"
#include "engine/project/JsonNumbers.h"
#include "engine/project/ResidualAnalysisJson.h"
#include "engine/project/RunSummaryJson.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <numeric>

using nlohmann::json;

namespace sysid::project {

estimate::FitResult resultFromJson(const json& in)
{
    try {
        estimate::FitResult result;
        std::vector<std::string> names;
        for (const auto& [name, p] : in.at("parameters").items()) {
            estimate::ParameterEstimate e;
            e.name = name;
            e.value = numberOrNaN(p.at("value"));
            e.sd = numberOrNaN(p.at("std"));
            e.initial = numberOrNaN(p.value("initial", json(nullptr)));
            e.lower95 = numberOrNaN(p.value("lower95", json(nullptr)));
            e.upper95 = numberOrNaN(p.value("upper95", json(nullptr)));
            e.unit = p.value("unit", std::string());
            result.parameters.push_back(e);
            names.push_back(name);
        }
        result.cost = numberOrNaN(in.at("cost"));
        result.iterations = in.at("iterations").get<std::size_t>();
        if (const auto t = in.find("termination"); t != in.end()) {
            result.termination = terminationFromJson(*t);
        } else {  // written before the termination was recorded
            const std::string reason = in.at("stop_reason").get<std::string>();
            result.termination = in.value("cancelled", false) ? core::Termination::cancel(reason)
                : in.at("converged").get<bool>()
                ? core::Termination::convergence(core::TerminationCriterion::None, reason)
                : core::Termination::failure(core::TerminationCriterion::None, reason);
        }
        if (const auto s = in.find("statistics"); s != in.end())
            result.statistics = statisticsFromJson(*s);
        const json rmsByOutput = in.value("residual_rms", json::object());
        for (const auto& [output, rms] : rmsByOutput.items()) {
            result.outputNames.push_back(output);
            result.residualRms.push_back(numberOrNaN(rms));
        }
        result.residualAnalysis = residualAnalysisFromJson(in.value("residual_analysis", json::object()));
        const json noiseByOutput = in.value("noise_sd", json::object());
        for (const auto& [output, noise] : noiseByOutput.items())
            result.noise.push_back({output, numberOrNaN(noise.at("value")), numberOrNaN(noise.at("std")),
                                    noise.value("samples", std::size_t{0}), noise.value("unit", std::string())});
        if (const auto l = in.find("likelihood"); l != in.end()) {
            result.likelihood.minusTwoLog = numberOrNaN(l->at("minus_two_log_likelihood"));
            result.likelihood.samples = l->at("samples").get<std::size_t>();
            result.likelihood.noiseVariances = l->at("noise_variances").get<std::size_t>();
            result.likelihood.parameters = l->at("parameters").get<std::size_t>();
        }
        const json correlation = in.value("correlation", json::array());
        const auto n = static_cast<Eigen::Index>(names.size());
        if (correlation.size() == names.size()) {
            result.correlation.resize(n, n);
            for (Eigen::Index i = 0; i < n; ++i)
                for (Eigen::Index k = 0; k < n; ++k)
                    result.correlation(i, k) =
                        numberOrNaN(correlation.at(static_cast<std::size_t>(i)).at(static_cast<std::size_t>(k)));
        }
        for (const auto& direction : in.value("unidentifiable_directions", json::array())) {
            estimate::ParameterCombination combination;
            for (const auto& [name, change] : direction.items())
                combination.components.emplace_back(name, numberOrNaN(change));
            result.undetermined.push_back(std::move(combination));
        }
        const json history = in.value("history", json::array());
        for (const auto& h : history) {
            estimate::IterationRecord record;
            record.iteration = h.at("iteration").get<std::size_t>();
            record.cost = numberOrNaN(h.at("cost"));
            for (const auto& name : names)
                record.parameters.push_back(numberOrNaN(h.at("parameters").value(name, json(nullptr))));
            result.history.push_back(std::move(record));
        }
        return result;
    } catch (const json::exception& e) {
        throw std::invalid_argument(std::string("the stored result is damaged: ") + e.what());
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("the stored result is damaged: ") + e.what());
    }
}

json resultToJson(const estimate::FitResult& result, const std::map<std::string, double>& trueValues)
{
    json out;
    json parameters = json::object();
    for (const auto& p : result.parameters) {
        parameters[p.name] = {{"value", finiteOrNull(p.value)},     {"std", finiteOrNull(p.sd)},
                              {"initial", finiteOrNull(p.initial)}, {"lower95", finiteOrNull(p.lower95)},
                              {"upper95", finiteOrNull(p.upper95)}, {"unit", p.unit}};
        if (const auto truth = trueValues.find(p.name); truth != trueValues.end()) {
            parameters[p.name]["true"] = finiteOrNull(truth->second);
            parameters[p.name]["relative_error"] = finiteOrNull((p.value - truth->second) / std::abs(truth->second));
        }
    }
    out["parameters"] = std::move(parameters);
    out["cost"] = finiteOrNull(result.cost);
    out["iterations"] = result.iterations;
    out["termination"] = terminationToJson(result.termination);
    // Older readers (and users' scripts) read these three, derived from the termination.
    out["converged"] = result.converged();
    out["stop_reason"] = result.termination.message;
    out["cancelled"] = result.cancelled();
    out["statistics"] = statisticsToJson(result.statistics);
    out["report"] = fitReportJson(result);

    json rms = json::object();
    for (std::size_t j = 0; j < result.outputNames.size(); ++j)
        rms[result.outputNames[j]] =
            j < result.residualRms.size() ? finiteOrNull(result.residualRms[j]) : json(nullptr);
    out["residual_rms"] = std::move(rms);
    out["residual_analysis"] = residualAnalysisToJson(result.residualAnalysis);
    if (!result.noise.empty()) {
        json noise = json::object();
        for (const auto& n : result.noise)
            noise[n.output] = {{"value", finiteOrNull(n.value)},
                               {"std", finiteOrNull(n.sd)},
                               {"samples", n.samples},
                               {"unit", n.unit}};
        out["noise_sd"] = std::move(noise);
    }
    if (result.likelihood.samples > 0)
        out["likelihood"] = {{"minus_two_log_likelihood", finiteOrNull(result.likelihood.minusTwoLog)},
                             {"samples", result.likelihood.samples},
                             {"noise_variances", result.likelihood.noiseVariances},
                             {"parameters", result.likelihood.parameters}};

    // The rows follow the order in which "parameters" is written: by name.
    std::vector<std::size_t> order(result.parameters.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return result.parameters[a].name < result.parameters[b].name; });
    json correlation = json::array();
    const auto n = static_cast<Eigen::Index>(order.size());
    const bool haveMatrix = result.correlation.rows() == n && result.correlation.cols() == n;
    for (const std::size_t i : order) {
        json row = json::array();
        for (const std::size_t j : order)
            row.push_back(haveMatrix ? finiteOrNull(result.correlation(static_cast<Eigen::Index>(i),
                                                                       static_cast<Eigen::Index>(j)))
                                     : json(nullptr));
        correlation.push_back(std::move(row));
    }
    out["correlation"] = std::move(correlation);
    // Relative changes of the parameters that leave the fit unchanged, one object per direction.
    json directions = json::array();
    for (const auto& combination : result.undetermined) {
        json changes = json::object();
        for (const auto& [name, change] : combination.components)
            changes[name] = finiteOrNull(change);
        directions.push_back(std::move(changes));
    }
    out["unidentifiable_directions"] = std::move(directions);

    json history = json::array();
    for (const auto& record : result.history) {
        json values = json::object();
        for (std::size_t k = 0; k < record.parameters.size() && k < result.parameters.size(); ++k)
            values[result.parameters[k].name] = finiteOrNull(record.parameters[k]);
        history.push_back(
            {{"iteration", record.iteration}, {"cost", finiteOrNull(record.cost)}, {"parameters", std::move(values)}});
    }
    out["history"] = std::move(history);
    return out;
}

}  // namespace sysid::project
