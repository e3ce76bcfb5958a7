#include "engine/project/MultistartJson.h"

#include "engine/project/JsonNumbers.h"

#include <stdexcept>

using nlohmann::json;

namespace sysid::project {

namespace {

std::vector<double> valuesOf(const json& object, const std::vector<std::string>& names, const char* key)
{
    if (!object.is_object())
        throw std::invalid_argument(std::string("multistart start: \"") + key + "\" must be an object");
    std::vector<double> values;
    for (const std::string& name : names) {
        const auto it = object.find(name);
        if (it == object.end())
            throw std::invalid_argument(std::string("multistart start: \"") + key + "\" has no value of " + name);
        values.push_back(numberOrNaN(*it));
    }
    return values;
}

}  // namespace

json multistartSettingsToJson(const job::MultistartSettings& settings)
{
    json out = json::object();
    writeFields(job::multistartFields(), settings, out);
    return out;
}

job::MultistartSettings multistartSettingsFromJson(const json& in)
{
    job::MultistartSettings s;
    readFields(job::multistartFields(), in, s);
    try {
        s.validate();
    } catch (const core::SettingError& e) {
        throw FieldJsonError(e.key(), e.expectation());
    }
    return s;
}

json multistartStartToJson(const job::MultistartStart& s, const std::vector<std::string>& names)
{
    json out = {{"index", s.index},
                {"initial", namedValues(names, s.initial)},
                {"cost", finiteOrNull(s.cost)},
                {"status", core::terminationKinds.name(s.kind)},
                {"stop_reason", s.stopReason},
                {"iterations", s.iterations},
                {"rank", s.rank}};
    if (!s.final.empty())
        out["final"] = namedValues(names, s.final);
    return out;
}

job::MultistartStart multistartStartFromJson(const json& in, const std::vector<std::string>& names)
{
    if (!in.is_object() || !in.contains("index") || !in["index"].is_number_unsigned())
        throw std::invalid_argument("multistart start: expected an object with a whole \"index\"");
    job::MultistartStart s;
    s.index = in["index"].get<std::size_t>();
    s.initial = valuesOf(in.value("initial", json()), names, "initial");
    if (in.contains("final"))
        s.final = valuesOf(in["final"], names, "final");
    s.cost = numberOrNaN(in.value("cost", json()));
    const auto kind = core::terminationKinds.parse(in.value("status", std::string()));
    if (!kind)
        throw std::invalid_argument("multistart start " + std::to_string(s.index) + ": " +
                                    core::terminationKinds.mustBe("\"status\"", in.value("status", std::string())));
    s.kind = *kind;
    s.stopReason = in.value("stop_reason", std::string());
    s.iterations = in.value("iterations", std::size_t{0});
    s.rank = in.value("rank", 0);
    return s;
}

json multistartToJson(const job::MultistartResult& r)
{
    json out;
    out["settings"] = multistartSettingsToJson(r.settings);
    out["seed"] = r.settings.seed;
    out["method"] = r.method;
    out["starts_total"] = r.settings.starts;
    out["completed"] = r.starts.size();
    out["failed"] = r.failed;
    out["cancelled"] = r.cancelled;
    out["ranks"] = r.ranks;
    out["best_start"] = r.best ? json(*r.best) : json(nullptr);
    out["fraction_best"] = finiteOrNull(r.fractionBest);
    json ranges = json::object();
    for (std::size_t k = 0; k < r.parameterNames.size() && k < r.ranges.size(); ++k)
        ranges[r.parameterNames[k]] = {{"lower", finiteOrNull(r.ranges[k].lower)},
                                       {"upper", finiteOrNull(r.ranges[k].upper)},
                                       {"logarithmic", r.ranges[k].logarithmic}};
    out["ranges"] = std::move(ranges);
    json starts = json::array();
    for (const job::MultistartStart& s : r.starts)
        starts.push_back(multistartStartToJson(s, r.parameterNames));
    out["starts"] = std::move(starts);
    json minima = json::array();
    for (const job::MultistartMinimum& m : r.minima)
        minima.push_back({{"cost", finiteOrNull(m.cost)},
                          {"parameters", namedValues(r.parameterNames, m.parameters)},
                          {"count", m.starts.size()},
                          {"start", m.start},
                          {"starts", m.starts}});
    out["minima"] = std::move(minima);
    return out;
}

}  // namespace sysid::project
