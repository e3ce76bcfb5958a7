#include "engine/project/StudyJson.h"

#include "engine/data/CsvWriter.h"
#include "engine/project/JsonNumbers.h"
#include "engine/project/SettingsJson.h"

using nlohmann::json;

namespace sysid::project {

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
        out["parameters"][s.name] = {{"true", finiteOrNull(s.trueValue)},
                                     {"estimate", finiteOrNull(s.estimate)},
                                     {"count", s.count},
                                     {"mean", finiteOrNull(s.mean)},
                                     {"sd", finiteOrNull(s.sd)},
                                     {"standard_error", finiteOrNull(s.standardError)},
                                     {"bias", finiteOrNull(s.bias)},
                                     {"bias_percent", finiteOrNull(s.biasPercent)},
                                     {"min", finiteOrNull(s.min)},
                                     {"q1", finiteOrNull(s.q1)},
                                     {"median", finiteOrNull(s.median)},
                                     {"q3", finiteOrNull(s.q3)},
                                     {"max", finiteOrNull(s.max)},
                                     {"percentile_2_5", finiteOrNull(s.percentile2_5)},
                                     {"percentile_97_5", finiteOrNull(s.percentile97_5)},
                                     {"lower_whisker", finiteOrNull(s.lowerWhisker)},
                                     {"upper_whisker", finiteOrNull(s.upperWhisker)}};
    out["realisations"] = json::array();
    for (const auto& real : r.realisations) {
        json item = {{"index", real.index},           {"seed", real.seed},
                     {"failed", real.failed},         {"converged", real.converged},
                     {"iterations", real.iterations}, {"cost", real.failed ? json(nullptr) : finiteOrNull(real.cost)},
                     {"message", real.message},       {"rank", real.rank}};
        item["estimates"] = json::object();
        for (std::size_t p = 0; p < real.estimates.size() && p < r.parameterNames.size(); ++p)
            item["estimates"][r.parameterNames[p]] = finiteOrNull(real.estimates[p]);
        out["realisations"].push_back(std::move(item));
    }
    return out;
}

std::string studyResultToCsv(const job::NoiseStudyResult& r)
{
    std::string text = "realisation,seed,failed,converged,iterations,cost";
    for (const auto& name : r.parameterNames)
        text += "," + data::csvQuoted(name);
    text += ",message\n";
    for (const auto& real : r.realisations) {
        text += std::to_string(real.index) + "," + std::to_string(real.seed) + "," + (real.failed ? "1" : "0") + "," +
            (real.converged ? "1" : "0") + "," + std::to_string(real.iterations) + "," +
            (real.failed ? std::string() : data::csvNumber(real.cost));
        for (std::size_t p = 0; p < r.parameterNames.size(); ++p)
            text += "," + (p < real.estimates.size() ? data::csvNumber(real.estimates[p]) : std::string());
        text += "," + data::csvQuoted(real.message) + "\n";
    }
    return text;
}

}  // namespace sysid::project
