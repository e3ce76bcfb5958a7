#include "engine/project/StudyJson.h"

#include "engine/data/CsvWriter.h"
#include "engine/data/Text.h"
#include "engine/project/SettingsJson.h"

#include <cmath>

using nlohmann::json;

namespace sysid::project {

namespace {

json finite(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}


// RFC 4180: a field with a separator, quote or line break is quoted, quotes doubled.
std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

json studySettingsToJson(const job::NoiseStudySettings& s)
{
    json out = json::object();
    writeFields(job::noiseStudyFields(), s, out);
    return out;
}

job::NoiseStudySettings studySettingsFromJson(const json& in)
{
    job::NoiseStudySettings s;
    try {
        readFields(job::noiseStudyFields(), in, s);
        s.validate();
    } catch (const FieldJsonError& e) {
        throw StudySettingsError(e.key, e.message);
    } catch (const core::SettingError& e) {
        throw StudySettingsError(e.key(), e.expectation());
    }
    return s;
}

json studyResultToJson(const job::NoiseStudyResult& r)
{
    json out;
    out["kind"] = job::kStudyKinds.name(r.kind);
    out["method"] = r.method;
    out["settings"] = studySettingsToJson(r.settings);
    out["completed"] = r.realisations.size();
    out["failed"] = r.failed;
    out["not_converged"] = r.notConverged;
    out["cancelled"] = r.cancelled;
    out["ranks"] = r.ranks;
    out["parameters"] = json::object();
    for (const auto& s : r.summary)
        out["parameters"][s.name] = {{"true", finite(s.trueValue)},
                                     {"estimate", finite(s.estimate)},
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
                                     {"percentile_2_5", finite(s.percentile2_5)},
                                     {"percentile_97_5", finite(s.percentile97_5)},
                                     {"lower_whisker", finite(s.lowerWhisker)},
                                     {"upper_whisker", finite(s.upperWhisker)}};
    out["realisations"] = json::array();
    for (const auto& real : r.realisations) {
        json item = {{"index", real.index},           {"seed", real.seed},
                     {"failed", real.failed},         {"converged", real.converged},
                     {"iterations", real.iterations}, {"cost", real.failed ? json(nullptr) : finite(real.cost)},
                     {"message", real.message},       {"rank", real.rank}};
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
            (real.failed ? std::string() : data::csvNumber(real.cost));
        for (std::size_t p = 0; p < r.parameterNames.size(); ++p)
            text += "," + (p < real.estimates.size() ? data::csvNumber(real.estimates[p]) : std::string());
        text += "," + quoted(real.message) + "\n";
    }
    return text;
}

}  // namespace sysid::project
