#include "engine/project/OptimalEstimationJson.h"

#include "engine/project/JsonKeys.h"
#include "engine/project/JsonNumbers.h"
#include "engine/project/RunSummaryJson.h"

#include <cmath>

using nlohmann::json;

namespace sysid::project {

namespace {

// A whole number; its rule (at least 1 or 2) is OptimalEstimationSettings::validate's.
std::size_t count(const json& value, const std::string& key)
{
    const bool whole = value.is_number_unsigned() ||
        (value.is_number_float() && value.get<double>() == std::floor(value.get<double>()) &&
         value.get<double>() >= 0 && value.get<double>() < 1e9);
    if (!whole)
        throw OptimalSettingsError(key, "expected a whole number >= 0, got " + value.dump());
    return static_cast<std::size_t>(value.get<double>());
}

json column(const Eigen::MatrixXd& m, Eigen::Index c)
{
    json values = json::array();
    for (Eigen::Index k = 0; k < m.rows(); ++k)
        values.push_back(finiteOrNull(m(k, c)));
    return values;
}

json columns(const std::vector<std::string>& names, const Eigen::MatrixXd& m)
{
    json object = json::object();
    for (std::size_t i = 0; i < names.size() && static_cast<Eigen::Index>(i) < m.cols(); ++i)
        object[names[i]] = column(m, static_cast<Eigen::Index>(i));
    return object;
}

void requireObject(const json& value, const std::string& key, std::initializer_list<const char*> known)
{
    if (!value.is_object())
        throw OptimalSettingsError(key, "expected an object, got " + std::string(value.type_name()));
    if (known.size() == 0)
        return;
    if (const auto unknown = findUnknownKey(value, known))
        throw OptimalSettingsError(key.empty() ? unknown->key : key + "." + unknown->key,
                                   "unknown key (known here: " + unknown->known + ")");
}

double number(const json& value, const std::string& key)
{
    if (!value.is_number())
        throw OptimalSettingsError(key, "expected a number, got " + value.dump());
    return value.get<double>();
}

std::map<std::string, double> weights(const json& object, const std::string& key)
{
    requireObject(object, key, {});
    std::map<std::string, double> values;
    for (const auto& item : object.items())
        values[item.key()] = number(item.value(), key + "." + item.key());
    return values;
}

}  // namespace

json optimalResultToJson(const estimate::OptimalEstimationResult& r)
{
    json out;
    out["parameters"] = json::object();
    for (std::size_t i = 0; i < r.parameterNames.size(); ++i) {
        const auto k = static_cast<Eigen::Index>(i);
        out["parameters"][r.parameterNames[i]] = {
            {"value", k < r.parameters.size() ? finiteOrNull(r.parameters(k)) : json(nullptr)},
            {"drift", k < r.parameterDrift.size() ? finiteOrNull(r.parameterDrift(k)) : json(nullptr)}};
    }
    out["cost"] = finiteOrNull(r.cost);
    out["iterations"] = r.iterations;
    out["termination"] = terminationToJson(r.termination);
    out["converged"] = r.converged();  // as "message", derived from the termination for older readers
    out["message"] = r.termination.message;
    out["statistics"] = statisticsToJson(r.statistics);
    out["residual_norm"] = finiteOrNull(r.residualNorm);
    out["times"] = r.states.rows() > 0 ? json(r.times) : json::array();
    out["states"] = columns(r.stateNames, r.states);
    out["inputs"] = columns(r.inputNames, r.inputs);
    out["residuals"] = columns(r.residualNames, r.residuals);
    return out;
}

json optimalSettingsToJson(const estimate::OptimalEstimationSettings& s)
{
    json out;
    out["state_weights"] = json::object();
    for (const auto& [name, w] : s.stateWeights)
        out["state_weights"][name] = w;
    out["measurement_weights"] = json::object();
    for (const auto& [name, v] : s.measurementWeights)
        out["measurement_weights"][name] = v;
    out["initial_prior"] = json::object();
    for (const auto& [name, prior] : s.initialPrior)
        out["initial_prior"][name] = {{"value", prior.first}, {"weight", prior.second}};
    out["shooting_points"] = s.shootingPoints;
    out["first_stage"] = {{"method", integrate::methodName(s.firstStageMethod)},
                          {"steps_per_interval", s.firstStageSteps}};
    return out;
}

estimate::OptimalEstimationSettings optimalSettingsFromJson(const json& in)
{
    requireObject(in, "", {"state_weights", "measurement_weights", "initial_prior", "shooting_points", "first_stage"});
    estimate::OptimalEstimationSettings s;
    if (const auto it = in.find("state_weights"); it != in.end() && !it->is_null())
        s.stateWeights = weights(*it, "state_weights");
    if (const auto it = in.find("measurement_weights"); it != in.end() && !it->is_null())
        s.measurementWeights = weights(*it, "measurement_weights");
    if (const auto it = in.find("initial_prior"); it != in.end() && !it->is_null()) {
        requireObject(*it, "initial_prior", {});
        for (const auto& item : it->items()) {
            const std::string key = "initial_prior." + item.key();
            requireObject(item.value(), key, {"value", "weight"});
            const auto value = item.value().find("value");
            const auto weight = item.value().find("weight");
            if (value == item.value().end())
                throw OptimalSettingsError(key + ".value", "missing; a prior gives q_a as \"value\"");
            if (weight == item.value().end())
                throw OptimalSettingsError(key + ".weight", "missing; a prior gives W_a as \"weight\"");
            s.initialPrior[item.key()] = {number(*value, key + ".value"), number(*weight, key + ".weight")};
        }
    }
    if (const auto it = in.find("shooting_points"); it != in.end() && !it->is_null())
        s.shootingPoints = count(*it, "shooting_points");
    if (const auto it = in.find("first_stage"); it != in.end() && !it->is_null()) {
        requireObject(*it, "first_stage", {"method", "steps_per_interval"});
        if (const auto m = it->find("method"); m != it->end() && !m->is_null()) {
            const auto method =
                m->is_string() ? integrate::parseIntegrationMethod(m->get<std::string>()) : std::nullopt;
            if (!method)
                throw OptimalSettingsError(
                    "first_stage.method",
                    "expected one of " +
                        integrate::kIntegrationMethods.choices(", ", estimate::isFirstStageMethod, "\"") + ", got " +
                        m->dump());
            s.firstStageMethod = *method;
        }
        if (const auto k = it->find("steps_per_interval"); k != it->end() && !k->is_null())
            s.firstStageSteps = count(*k, "first_stage.steps_per_interval");
    }
    try {
        s.validate();
    } catch (const core::SettingError& e) {
        throw OptimalSettingsError(e.key(), e.expectation());
    }
    return s;
}

}  // namespace sysid::project
