#include "engine/project/OptimalEstimationJson.h"

#include "engine/project/JsonFile.h"
#include "engine/project/ProjectError.h"

#include "engine/project/JsonNumbers.h"
#include "engine/project/RunSummaryJson.h"
#include "engine/project/SettingsJson.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

using nlohmann::json;

namespace sysid::project {

namespace {

json columns(const std::vector<std::string>& names, const Eigen::MatrixXd& m)
{
    json object = json::object();
    for (std::size_t i = 0; i < names.size() && static_cast<Eigen::Index>(i) < m.cols(); ++i)
        object[names[i]] = columnOrNulls(m, static_cast<Eigen::Index>(i));
    return object;
}

json numbers(const std::vector<double>& values)
{
    json out = json::array();
    for (const double v : values)
        out.push_back(finiteOrNull(v));
    return out;
}

// Readers of a result: each names the member it cannot read.
[[noreturn]] void bad(const std::string& key, const std::string& what)
{
    throw std::invalid_argument(key + ": " + what);
}

double nullableNumber(const json& value, const std::string& key)
{
    if (value.is_null())
        return std::numeric_limits<double>::quiet_NaN();
    if (!value.is_number())
        bad(key, "expected a number, got " + describeJson(value));
    return value.get<double>();
}

std::vector<double> numberArray(const json& value, const std::string& key)
{
    if (!value.is_array())
        bad(key, "expected an array of numbers, got " + describeJson(value));
    std::vector<double> out;
    out.reserve(value.size());
    for (std::size_t k = 0; k < value.size(); ++k)
        out.push_back(nullableNumber(value[k], key + "[" + std::to_string(k) + "]"));
    return out;
}

// {"NAME": [...]} with `rows` values each, as names and a rows x names matrix.
void readColumns(const json& in, const std::string& key, std::size_t rows, std::vector<std::string>& names,
                 Eigen::MatrixXd& m)
{
    names.clear();
    const auto it = in.find(key);
    if (it == in.end() || it->is_null()) {
        m.resize(0, 0);
        return;
    }
    if (!it->is_object())
        bad(key, "expected an object {\"NAME\": [numbers]}, got " + describeJson(*it));
    m.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(it->size()));
    Eigen::Index c = 0;
    for (const auto& item : it->items()) {
        const std::vector<double> values = numberArray(item.value(), key + "." + item.key());
        if (values.size() != rows)
            bad(key + "." + item.key(),
                std::to_string(values.size()) + " values for " + std::to_string(rows) + " times");
        for (std::size_t k = 0; k < rows; ++k)
            m(static_cast<Eigen::Index>(k), c) = values[k];
        names.push_back(item.key());
        ++c;
    }
}

// `m`'s columns in the order of `wanted` (by name); empty when a name is missing.
Eigen::MatrixXd reordered(const std::vector<std::string>& names, const Eigen::MatrixXd& m,
                          const std::vector<std::string>& wanted)
{
    Eigen::MatrixXd out(m.rows(), static_cast<Eigen::Index>(wanted.size()));
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        const auto it = std::find(names.begin(), names.end(), wanted[i]);
        if (it == names.end())
            return {};
        out.col(static_cast<Eigen::Index>(i)) = m.col(it - names.begin());
    }
    return out;
}

estimate::StiffnessDiagnostics stiffnessFromJson(const json& in, const std::string& key)
{
    estimate::StiffnessDiagnostics d;
    if (!in.is_object())
        bad(key, "expected an object, got " + describeJson(in));
    if (const auto it = in.find("times"); it != in.end())
        d.times = numberArray(*it, key + ".times");
    if (const auto it = in.find("kappa"); it != in.end())
        d.kappa = numberArray(*it, key + ".kappa");
    if (d.kappa.size() != d.times.size())
        bad(key + ".kappa",
            std::to_string(d.kappa.size()) + " values for " + std::to_string(d.times.size()) + " times");
    if (const auto it = in.find("kappa_min"); it != in.end())
        d.kappaMin = nullableNumber(*it, key + ".kappa_min");
    if (const auto it = in.find("kappa_min_time"); it != in.end())
        d.kappaMinTime = nullableNumber(*it, key + ".kappa_min_time");
    if (const auto it = in.find("points"); it != in.end())
        d.points = detail::readCount(*it, key + ".points");
    if (const auto it = in.find("suggested_points"); it != in.end())
        d.suggestedPoints = detail::readCount(*it, key + ".suggested_points");
    d.span = d.times.empty() ? 0.0 : d.times.back() - d.times.front();
    return d;
}

}  // namespace

json stiffnessToJson(const estimate::StiffnessDiagnostics& d)
{
    return {{"times", numbers(d.times)},
            {"kappa", numbers(d.kappa)},
            {"kappa_min", finiteOrNull(d.kappaMin)},
            {"kappa_min_time", finiteOrNull(d.kappaMinTime)},
            {"points", d.points},
            {"kappa_dt", finiteOrNull(d.kappaStep())},
            {"suggested_points", d.suggestedPoints}};
}

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
    out["costates"] = columns(r.augmentedStateNames(), r.costates);
    out["parameter_traces"] = columns(r.parameterNames, r.parameterTraces);
    out["stiffness"] = json::object();
    if (!r.stiffnessAtGuess.empty())
        out["stiffness"]["at_guess"] = stiffnessToJson(r.stiffnessAtGuess);
    if (!r.stiffnessAtSolution.empty())
        out["stiffness"]["at_solution"] = stiffnessToJson(r.stiffnessAtSolution);
    return out;
}

estimate::OptimalEstimationResult optimalResultFromJson(const json& in)
{
    if (!in.is_object())
        bad("result", "expected a JSON object, got " + describeJson(in));
    estimate::OptimalEstimationResult r;
    if (const auto it = in.find("parameters"); it != in.end()) {
        if (!it->is_object())
            bad("parameters", "expected an object, got " + describeJson(*it));
        r.parameters.resize(static_cast<Eigen::Index>(it->size()));
        r.parameterDrift.resize(r.parameters.size());
        Eigen::Index k = 0;
        for (const auto& item : it->items()) {
            const std::string key = "parameters." + item.key();
            if (!item.value().is_object() || !item.value().contains("value"))
                bad(key, "expected {\"value\": number, \"drift\": number}, got " + describeJson(item.value()));
            r.parameterNames.push_back(item.key());
            r.parameters(k) = nullableNumber(item.value()["value"], key + ".value");
            r.parameterDrift(k) =
                item.value().contains("drift") ? nullableNumber(item.value()["drift"], key + ".drift") : 0.0;
            ++k;
        }
    }
    if (const auto it = in.find("cost"); it != in.end())
        r.cost = nullableNumber(*it, "cost");
    if (const auto it = in.find("iterations"); it != in.end())
        r.iterations = detail::readCount(*it, "iterations");
    if (const auto it = in.find("residual_norm"); it != in.end())
        r.residualNorm = nullableNumber(*it, "residual_norm");
    try {
        if (const auto it = in.find("termination"); it != in.end())
            r.termination = terminationFromJson(*it);
        if (const auto it = in.find("statistics"); it != in.end())
            r.statistics = statisticsFromJson(*it);
    } catch (const std::exception& e) {
        bad("termination", e.what());
    }
    if (const auto it = in.find("times"); it != in.end())
        r.times = numberArray(*it, "times");
    for (std::size_t k = 1; k < r.times.size(); ++k)
        if (!(r.times[k] > r.times[k - 1]))
            bad("times", "not strictly increasing at index " + std::to_string(k));
    const std::size_t rows = r.times.size();
    readColumns(in, "states", rows, r.stateNames, r.states);
    readColumns(in, "inputs", rows, r.inputNames, r.inputs);
    readColumns(in, "residuals", rows, r.residualNames, r.residuals);
    std::vector<std::string> names;
    Eigen::MatrixXd values;
    // Objects are read in name order; the costates and traces go back into the result's order.
    readColumns(in, "parameter_traces", rows, names, values);
    r.parameterTraces = reordered(names, values, r.parameterNames);
    readColumns(in, "costates", rows, names, values);
    r.costates = reordered(names, values, r.augmentedStateNames());
    if (const auto it = in.find("stiffness"); it != in.end() && it->is_object()) {
        if (const auto g = it->find("at_guess"); g != it->end())
            r.stiffnessAtGuess = stiffnessFromJson(*g, "stiffness.at_guess");
        if (const auto s = it->find("at_solution"); s != it->end())
            r.stiffnessAtSolution = stiffnessFromJson(*s, "stiffness.at_solution");
    }
    return r;
}

estimate::StartTrajectory loadStartTrajectory(const std::string& path)
{
    json in;
    try {
        in = readJsonFile(path, "result of sysid optimal");
    } catch (const ProjectError& e) {
        throw std::invalid_argument(e.what());
    }
    try {
        const estimate::OptimalEstimationResult r = optimalResultFromJson(in);
        if (r.stateNames.empty())
            throw std::invalid_argument("states: none; is it a result of sysid optimal?");
        return estimate::startTrajectoryFrom(r, path);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

json optimalSettingsToJson(const estimate::OptimalEstimationSettings& s)
{
    json out = json::object();
    writeFields(estimate::optimalEstimationSettingFields(), s, out);
    out["initial_prior"] = json::object();
    for (const auto& [name, prior] : s.initialPrior)
        out["initial_prior"][name] = {{"value", prior.first}, {"weight", prior.second}};
    if (!s.guessExpressions.empty())
        out["initial_guess"] = s.guessExpressions;
    out["stages"] = json::array();
    for (const auto& stage : s.stages) {
        json item = json::object();
        writeFields(estimate::optimalEstimationStageFields(), stage, item);
        out["stages"].push_back(item);
    }
    return out;
}

estimate::OptimalEstimationSettings optimalSettingsFromJson(const json& in)
{
    estimate::OptimalEstimationSettings s;
    try {
        readFields(estimate::optimalEstimationSettingFields(), in, s,
                   {"initial_prior", "initial_guess", "stages", "first_stage"});
    } catch (const FieldJsonError& e) {
        throw OptimalSettingsError(e.key, e.message);
    }
    if (const auto it = in.find("initial_prior"); it != in.end() && !it->is_null()) {
        if (!it->is_object())
            throw OptimalSettingsError("initial_prior", "expected an object, got " + describeJson(*it));
        for (const auto& item : it->items()) {
            const std::string key = "initial_prior." + item.key();
            if (!item.value().is_object())
                throw OptimalSettingsError(
                    key, "expected {\"value\": q_a, \"weight\": W_a}, got " + describeJson(item.value()));
            for (const auto& member : item.value().items())
                if (member.key() != "value" && member.key() != "weight")
                    throw OptimalSettingsError(key + "." + member.key(), "unknown key (known here: value, weight)");
            const auto value = item.value().find("value");
            const auto weight = item.value().find("weight");
            if (value == item.value().end())
                throw OptimalSettingsError(key + ".value", "missing; a prior gives q_a as \"value\"");
            if (weight == item.value().end())
                throw OptimalSettingsError(key + ".weight", "missing; a prior gives W_a as \"weight\"");
            try {
                s.initialPrior[item.key()] = {detail::readNumber(*value, key + ".value"),
                                              detail::readNumber(*weight, key + ".weight")};
            } catch (const FieldJsonError& e) {
                throw OptimalSettingsError(e.key, e.message);
            }
        }
    }
    if (const auto it = in.find("initial_guess"); it != in.end() && !it->is_null()) {
        if (!it->is_object())
            throw OptimalSettingsError("initial_guess",
                                       "expected an object {\"STATE\": \"EXPRESSION\"}, got " + describeJson(*it));
        for (const auto& item : it->items()) {
            if (!item.value().is_string())
                throw OptimalSettingsError("initial_guess." + item.key(),
                                           "expected an expression in quotes, got " + describeJson(item.value()));
            s.guessExpressions[item.key()] = item.value().get<std::string>();
        }
    }
    const auto stages = in.find("stages");
    if (stages != in.end() && !stages->is_null()) {
        if (!stages->is_array())
            throw OptimalSettingsError("stages",
                                       "expected an array of stages [{...}, ...], got " + describeJson(*stages));
        s.stages.clear();
        for (std::size_t k = 0; k < stages->size(); ++k) {
            estimate::OptimalEstimationStage stage;
            stage.integrator.methodChosen = true;
            try {
                readFields(estimate::optimalEstimationStageFields(), (*stages)[k], stage);
            } catch (const FieldJsonError& e) {
                const std::string where = "stages." + std::to_string(k + 1);
                throw OptimalSettingsError(e.key.empty() ? where : where + "." + e.key, e.message);
            }
            s.stages.push_back(stage);
        }
    }
    if (const auto it = in.find("first_stage"); it != in.end() && !it->is_null()) {
        // The older form: the method and steps of the first stage only.
        if (stages != in.end() && !stages->is_null())
            throw OptimalSettingsError("first_stage", "give the first stage in \"stages\", not both");
        if (!it->is_object())
            throw OptimalSettingsError("first_stage", "expected an object, got " + describeJson(*it));
        for (const auto& member : it->items())
            if (member.key() != "method" && member.key() != "steps_per_interval")
                throw OptimalSettingsError("first_stage." + member.key(),
                                           "unknown key (known here: method, steps_per_interval)");
        estimate::OptimalEstimationStage& first = s.stages.front();
        if (const auto m = it->find("method"); m != it->end() && !m->is_null()) {
            const auto method =
                m->is_string() ? integrate::parseIntegrationMethod(m->get<std::string>()) : std::nullopt;
            if (!method || !estimate::isFirstStageMethod(*method))
                throw OptimalSettingsError(
                    "first_stage.method",
                    "expected one of " +
                        integrate::kIntegrationMethods.choices(", ", estimate::isFirstStageMethod, "\"") + ", got " +
                        m->dump());
            first.integrator.method = *method;
        }
        if (const auto k = it->find("steps_per_interval"); k != it->end() && !k->is_null()) {
            try {
                first.stepsPerInterval = detail::readCount(*k, "first_stage.steps_per_interval");
            } catch (const FieldJsonError& e) {
                throw OptimalSettingsError(e.key, e.message);
            }
            if (first.stepsPerInterval < 1)
                throw OptimalSettingsError("first_stage.steps_per_interval", "expected a whole number >= 1, got 0");
        }
    }
    try {
        s.validate();
    } catch (const core::SettingError& e) {
        throw OptimalSettingsError(e.key(), e.expectation());
    }
    return s;
}

}  // namespace sysid::project
