#include "engine/project/PeriodicJson.h"

#include "engine/project/JsonNumbers.h"
#include "engine/project/RunSummaryJson.h"

#include <cmath>

namespace sysid::project {

namespace {

using nlohmann::json;

json multipliers(const std::vector<std::complex<double>>& mu)
{
    json list = json::array();
    for (const auto& m : mu)
        list.push_back({finiteOrNull(m.real()), finiteOrNull(m.imag())});
    return list;
}

}  // namespace

json periodicResultToJson(const job::PeriodicJob::Result& result, const std::string& sweepParameter)
{
    const auto& s = result.solution;
    json out;
    out["period"] = finiteOrNull(s.period);
    json initial = json::object();
    for (std::size_t i = 0; i < result.stateNames.size() && static_cast<Eigen::Index>(i) < s.initialState.size(); ++i)
        initial[result.stateNames[i]] = finiteOrNull(s.initialState(static_cast<Eigen::Index>(i)));
    out["initial_state"] = std::move(initial);
    out["floquet_multipliers"] = multipliers(s.floquet.multipliers);
    out["stable"] = s.converged() && s.floquet.stable;
    out["verdict"] = s.floquet.verdict;
    out["iterations"] = s.newton.iterations;
    out["termination"] = terminationToJson(s.newton.termination);
    out["converged"] = s.converged();  // as "message", derived from the termination for older readers
    out["message"] = s.newton.termination.message;
    out["statistics"] = statisticsToJson(result.statistics);

    json orbit;
    orbit["t"] = s.times;
    json states = json::object(), outputs = json::object();
    for (std::size_t i = 0; i < result.stateNames.size() && static_cast<Eigen::Index>(i) < s.states.cols(); ++i)
        states[result.stateNames[i]] = columnOrNulls(s.states, static_cast<Eigen::Index>(i));
    for (std::size_t i = 0; i < result.outputNames.size() && static_cast<Eigen::Index>(i) < s.outputs.cols(); ++i)
        outputs[result.outputNames[i]] = columnOrNulls(s.outputs, static_cast<Eigen::Index>(i));
    orbit["states"] = std::move(states);
    orbit["outputs"] = std::move(outputs);
    out["orbit"] = std::move(orbit);

    if (result.branch) {
        json points = json::array();
        for (const auto& p : result.branch->points)
            points.push_back({{"parameter", finiteOrNull(p.parameter)},
                              {"amplitude", finiteOrNull(p.amplitude)},
                              {"period", finiteOrNull(p.period)},
                              {"stable", p.stable},
                              {"type", shooting::describe(p.type)},
                              {"floquet_multipliers", multipliers(p.multipliers)}});
        out["branch"] = {{"parameter", sweepParameter},
                         {"termination", terminationToJson(result.branch->termination)},
                         {"completed", result.branch->completed()},
                         {"message", result.branch->termination.message},
                         {"points", std::move(points)}};
    }
    return out;
}

}  // namespace sysid::project
