#include "engine/project/ProfileJson.h"

#include "engine/project/JsonNumbers.h"
#include "engine/project/SettingsJson.h"

using nlohmann::json;

namespace sysid::project {

namespace {

json sideToJson(const job::ProfileSide& side)
{
    json out = {{"end", job::kProfileSideEnds.name(side.end)}, {"limit", finiteOrNull(side.limit)}};
    if (!side.message.empty())
        out["message"] = side.message;
    if (!side.failures.empty()) {
        json failures = json::array();
        for (const job::ProfileFailure& f : side.failures)
            failures.push_back({{"value", finiteOrNull(f.value)}, {"message", f.message}});
        out["failures"] = std::move(failures);
    }
    return out;
}

json bound(const std::optional<double>& value)
{
    return value ? finiteOrNull(*value) : json(nullptr);
}

}  // namespace

json profileSettingsToJson(const job::ProfileSettings& settings)
{
    json out = json::object();
    writeFields(job::profileFields(), settings, out);
    return out;
}

json profileSetupToJson(const Project::ProfileSetup& setup)
{
    json out = profileSettingsToJson(setup.settings);
    if (!setup.parameters.empty())
        out["parameters"] = setup.parameters;
    return out;
}

Project::ProfileSetup profileSetupFromJson(const json& in)
{
    Project::ProfileSetup setup;
    try {
        readFields(job::profileFields(), in, setup.settings, {"parameters"});
        setup.settings.validate();
    } catch (const core::SettingError& e) {
        throw FieldJsonError(e.key(), e.expectation());
    }
    if (const auto names = in.find("parameters"); names != in.end()) {
        if (!names->is_array())
            throw FieldJsonError("parameters", "expected an array of parameter names, got " + describeJson(*names));
        for (const json& name : *names) {
            if (!name.is_string() || name.get<std::string>().empty())
                throw FieldJsonError("parameters", "expected a parameter name, got " + describeJson(name));
            setup.parameters.push_back(name.get<std::string>());
        }
    }
    return setup;
}

json profileResultToJson(const job::ProfileResult& r)
{
    json out;
    out["method"] = r.method;
    out["settings"] = profileSettingsToJson(r.settings);
    out["threshold"] = finiteOrNull(r.threshold);
    out["objective_at_optimum"] = finiteOrNull(r.objectiveAtOptimum);
    out["residual_variance"] = finiteOrNull(r.residualVariance);
    out["estimates"] = namedValues(r.parameterNames, r.optimum.parameters);
    out["ranks"] = r.ranks;
    out["cancelled"] = r.cancelled;
    out["profiles"] = json::object();
    for (const job::ParameterProfile& p : r.profiles) {
        json points = json::array();
        for (const job::ProfilePoint& point : p.points(r.optimum)) {
            json item = {{"value", finiteOrNull(point.value)},
                         {"objective", finiteOrNull(point.objective)},
                         {"parameters", namedValues(r.parameterNames, point.parameters)},
                         {"converged", point.converged},
                         {"rank", point.rank}};
            if (!point.atBound.empty())
                item["at_bound"] = point.atBound;
            points.push_back(std::move(item));
        }
        json profile = {
            {"points", std::move(points)},
            {"interval", json::array({bound(p.low), bound(p.high)})},
            {"wald_interval", json::array({finiteOrNull(p.waldInterval[0]), finiteOrNull(p.waldInterval[1])})},
            {"verdict", job::verdictName(p.verdict)},
            {"estimate", finiteOrNull(p.estimate)},
            {"sd", finiteOrNull(p.sd)},
            {"largest_rise", finiteOrNull(p.largestRise)},
            {"largest_rise_off_bounds", finiteOrNull(p.largestFreeRise)},
            {"lower", sideToJson(p.lower)},
            {"upper", sideToJson(p.upper)}};
        if (!p.unit.empty())
            profile["unit"] = p.unit;
        out["profiles"][p.name] = std::move(profile);
    }
    if (std::isfinite(r.lowerObjective))
        out["lower_optimum"] = {{"objective", r.lowerObjective},
                                {"parameters", namedValues(r.parameterNames, r.lowerPoint)}};
    return out;
}

}  // namespace sysid::project
