#include "engine/project/StudyJson.h"

#include "engine/data/Text.h"
#include "engine/project/JsonKeys.h"

#include <cmath>

using nlohmann::json;

namespace sysid::project {

namespace {

json finite(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

std::string cell(double v)
{
    return std::isfinite(v) ? data::formatDouble(v) : std::string();
}

// RFC 4180: a field with a separator, quote or line break is quoted, quotes doubled.
std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

bool wholeNumber(const json& v, double minimum)
{
    if (v.is_number_unsigned())
        return static_cast<double>(v.get<std::uint64_t>()) >= minimum;
    if (v.is_number_integer())
        return static_cast<double>(v.get<std::int64_t>()) >= minimum;
    if (v.is_number_float()) {
        const double d = v.get<double>();
        return d >= minimum && d == std::floor(d) && d < 9e15;
    }
    return false;
}

std::uint64_t wholeValue(const json& v)
{
    return v.is_number_float() ? static_cast<std::uint64_t>(v.get<double>()) : v.get<std::uint64_t>();
}

}  // namespace

json studySettingsToJson(const job::NoiseStudySettings& s)
{
    return {{"realisations", s.realisations},
            {"noise_percent", s.noisePercent},
            {"distribution", std::string(data::noiseDistributionName(s.distribution))},
            {"seed", s.seed}};
}

job::NoiseStudySettings studySettingsFromJson(const json& in)
{
    if (!in.is_object())
        throw StudySettingsError("", std::string("expected an object, got ") + in.type_name());
    if (const auto unknown = findUnknownKey(in, {"realisations", "noise_percent", "distribution", "seed"}))
        throw StudySettingsError(unknown->key, "unknown key (known here: " + unknown->known + ")");
    job::NoiseStudySettings s;
    const auto member = [&](const char* name) -> const json* {
        const auto it = in.find(name);
        return it == in.end() || it->is_null() ? nullptr : &*it;
    };
    if (const json* v = member("realisations")) {
        if (!wholeNumber(*v, 1))
            throw StudySettingsError("realisations", "expected a whole number >= 1, got " + v->dump());
        s.realisations = static_cast<std::size_t>(wholeValue(*v));
    }
    if (const json* v = member("noise_percent")) {
        if (!v->is_number() || !std::isfinite(v->get<double>()) || !(v->get<double>() > 0))
            throw StudySettingsError("noise_percent",
                                     "expected a finite number > 0 (percent of the signal RMS), got " + v->dump());
        s.noisePercent = v->get<double>();
    }
    if (const json* v = member("distribution")) {
        const auto parsed = v->is_string() ? data::parseNoiseDistribution(v->get<std::string>()) : std::nullopt;
        if (!parsed)
            throw StudySettingsError("distribution", "expected \"uniform\" or \"gaussian\", got " + v->dump());
        s.distribution = *parsed;
    }
    if (const json* v = member("seed")) {
        if (!wholeNumber(*v, 0))
            throw StudySettingsError("seed", "expected a whole number >= 0, got " + v->dump());
        s.seed = wholeValue(*v);
    }
    return s;
}

json studyResultToJson(const job::NoiseStudyResult& r)
{
    json out;
    out["method"] = r.method;
    out["settings"] = studySettingsToJson(r.settings);
    out["completed"] = r.realisations.size();
    out["failed"] = r.failed;
    out["not_converged"] = r.notConverged;
    out["cancelled"] = r.cancelled;
    out["parameters"] = json::object();
    for (const auto& s : r.summary)
        out["parameters"][s.name] = {{"true", finite(s.trueValue)},
                                     {"count", s.count},
                                     {"mean", finite(s.mean)},
                                     {"sd", finite(s.sd)},
                                     {"standard_error", finite(s.standardError)},
                                     {"bias", finite(s.bias)},
                                     {"bias_percent", finite(s.biasPercent)},
                                     {"min", finite(s.min)},
                                     {"q1", finite(s.q1)},
                                     {"median", finite(s.median)},
                                     {"q3", finite(s.q3)},
                                     {"max", finite(s.max)},
                                     {"lower_whisker", finite(s.lowerWhisker)},
                                     {"upper_whisker", finite(s.upperWhisker)}};
    out["realisations"] = json::array();
    for (const auto& real : r.realisations) {
        json item = {{"index", real.index},           {"seed", real.seed},
                     {"failed", real.failed},         {"converged", real.converged},
                     {"iterations", real.iterations}, {"cost", real.failed ? json(nullptr) : finite(real.cost)},
                     {"message", real.message}};
        item["estimates"] = json::object();
        for (std::size_t p = 0; p < real.estimates.size() && p < r.parameterNames.size(); ++p)
            item["estimates"][r.parameterNames[p]] = finite(real.estimates[p]);
        out["realisations"].push_back(std::move(item));
    }
    return out;
}

std::string studyResultToCsv(const job::NoiseStudyResult& r)
{
    std::string text = "realisation,seed,failed,converged,iterations,cost";
    for (const auto& name : r.parameterNames)
        text += "," + quoted(name);
    text += ",message\n";
    for (const auto& real : r.realisations) {
        text += std::to_string(real.index) + "," + std::to_string(real.seed) + "," + (real.failed ? "1" : "0") + "," +
            (real.converged ? "1" : "0") + "," + std::to_string(real.iterations) + "," +
            (real.failed ? std::string() : cell(real.cost));
        for (std::size_t p = 0; p < r.parameterNames.size(); ++p)
            text += "," + (p < real.estimates.size() ? cell(real.estimates[p]) : std::string());
        text += "," + quoted(real.message) + "\n";
    }
    return text;
}

}  // namespace sysid::project
