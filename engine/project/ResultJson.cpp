#include "engine/project/ResultJson.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using nlohmann::json;

namespace sysid::project {

namespace {

json finite(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

}  // namespace

json resultToJson(const estimate::FitResult& result)
{
    json out;
    json parameters = json::object();
    for (const auto& p : result.parameters)
        parameters[p.name] = {{"value", finite(p.value)},
                              {"std", finite(p.sd)},
                              {"initial", finite(p.initial)},
                              {"lower95", finite(p.lower95)},
                              {"upper95", finite(p.upper95)}};
    out["parameters"] = std::move(parameters);
    out["cost"] = finite(result.cost);
    out["iterations"] = result.iterations;
    out["converged"] = result.converged;
    out["stop_reason"] = result.stopReason;
    out["cancelled"] = result.cancelled;

    json rms = json::object();
    for (std::size_t j = 0; j < result.outputNames.size(); ++j)
        rms[result.outputNames[j]] = j < result.residualRms.size() ? finite(result.residualRms[j]) : json(nullptr);
    out["residual_rms"] = std::move(rms);

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
            row.push_back(haveMatrix ? finite(result.correlation(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)))
                                     : json(nullptr));
        correlation.push_back(std::move(row));
    }
    out["correlation"] = std::move(correlation);

    json history = json::array();
    for (const auto& record : result.history) {
        json values = json::object();
        for (std::size_t k = 0; k < record.parameters.size() && k < result.parameters.size(); ++k)
            values[result.parameters[k].name] = finite(record.parameters[k]);
        history.push_back({{"iteration", record.iteration}, {"cost", finite(record.cost)}, {"parameters", std::move(values)}});
    }
    out["history"] = std::move(history);
    return out;
}

}  // namespace sysid::project
