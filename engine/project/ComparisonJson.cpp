#include "engine/project/ComparisonJson.h"

#include "engine/data/CsvWriter.h"
#include "engine/data/Text.h"
#include "engine/project/JsonNumbers.h"

#include <cmath>
#include <sstream>

using nlohmann::json;

namespace sysid::project {

namespace {

bool measured(const job::ValidationSimulation& s, std::size_t output)
{
    return output < s.outputMeasured.size() && s.outputMeasured[output];
}

}  // namespace

json comparisonToJson(const job::Comparison& comparison)
{
    const job::ValidationSimulation& s = comparison.simulation;
    json outputs = json::object();
    for (std::size_t j = 0; j < s.outputNames.size() && j < comparison.agreement.size(); ++j) {
        if (!measured(s, j))
            continue;
        const job::OutputAgreement& a = comparison.agreement[j];
        outputs[s.outputNames[j]] = {{"rmse", finiteOrNull(a.rmse)},
                                     {"nrmse", finiteOrNull(a.nrmse)},
                                     {"fit_percent", finiteOrNull(a.fitPercent)}};
    }
    json initial = json::object();
    for (std::size_t i = 0; i < s.stateNames.size() && static_cast<Eigen::Index>(i) < s.initialState.size(); ++i)
        initial[s.stateNames[i]] = finiteOrNull(s.initialState(static_cast<Eigen::Index>(i)));
    return {{"outputs", std::move(outputs)}, {"initial", std::move(initial)}};
}

std::string comparisonCsv(const job::Comparison& comparison)
{
    const job::ValidationSimulation& s = comparison.simulation;
    std::ostringstream out;
    out << "t";
    for (std::size_t j = 0; j < s.outputNames.size(); ++j) {
        if (measured(s, j))
            out << ',' << data::csvField(s.outputNames[j] + " measured");
        out << ',' << data::csvField(s.outputNames[j] + " simulated");
    }
    out << '\n';
    for (std::size_t i = 0; i < s.times.size(); ++i) {
        const auto row = static_cast<Eigen::Index>(i);
        out << data::formatDouble(s.times[i]);
        for (std::size_t j = 0; j < s.outputNames.size(); ++j) {
            const auto column = static_cast<Eigen::Index>(j);
            if (measured(s, j))
                out << ',' << data::formatDouble(s.measured(row, column));
            out << ',' << data::formatDouble(s.outputs(row, column));
        }
        out << '\n';
    }
    return out.str();
}

}  // namespace sysid::project
