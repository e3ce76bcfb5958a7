#include "engine/project/ResidualAnalysisJson.h"

#include "engine/project/JsonNumbers.h"

#include <stdexcept>

using nlohmann::json;

namespace sysid::project {

namespace {

json values(const std::vector<double>& list)
{
    json out = json::array();
    for (const double v : list)
        out.push_back(finiteOrNull(v));
    return out;
}

void bounds(json& out, const estimate::Correlation& c)
{
    out["bound"] = finiteOrNull(c.bound);
    out["tested"] = c.tested;
    out["outside"] = c.outside;
}

estimate::Correlation correlation(const json& in, const char* valuesKey)
{
    estimate::Correlation c;
    c.lags = in.at("lags").get<std::vector<int>>();
    for (const auto& v : in.at(valuesKey))
        c.values.push_back(numberOrNaN(v));
    if (c.values.size() != c.lags.size())
        throw std::invalid_argument(std::string("residual analysis: \"") + valuesKey +
                                    "\" and \"lags\" differ in length");
    c.bound = numberOrNaN(in.at("bound"));
    c.tested = in.at("tested").get<std::size_t>();
    c.outside = in.at("outside").get<std::size_t>();
    return c;
}

}  // namespace

json residualAnalysisToJson(const estimate::ResidualAnalysis& analysis)
{
    json out = json::object();
    for (const estimate::OutputResidualAnalysis& output : analysis.outputs) {
        json o = {{"samples", output.samples},
                  {"lags", output.autocorrelation.lags},
                  {"autocorrelation", values(output.autocorrelation.values)}};
        bounds(o, output.autocorrelation);
        o["white"] = output.white();
        json cross = json::object();
        for (const estimate::InputCorrelation& input : output.inputs) {
            json c = {{"lags", input.correlation.lags}, {"values", values(input.correlation.values)}};
            bounds(c, input.correlation);
            c["uncorrelated"] = input.correlation.passes();
            cross[input.input] = std::move(c);
        }
        o["cross_correlation"] = std::move(cross);
        o["verdict"] = estimate::describe(output);
        out[output.output] = std::move(o);
    }
    return out;
}

estimate::ResidualAnalysis residualAnalysisFromJson(const json& in)
{
    estimate::ResidualAnalysis analysis;
    for (const auto& [name, o] : in.items()) {
        estimate::OutputResidualAnalysis output;
        output.output = name;
        output.samples = o.at("samples").get<std::size_t>();
        output.autocorrelation = correlation(o, "autocorrelation");
        const json cross = o.value("cross_correlation", json::object());
        for (const auto& [input, c] : cross.items())
            output.inputs.push_back({input, correlation(c, "values")});
        analysis.outputs.push_back(std::move(output));
    }
    return analysis;
}

}  // namespace sysid::project
