#include "engine/project/ModelComparisonJson.h"

#include "engine/data/CsvWriter.h"
#include "engine/data/Text.h"
#include "engine/project/JsonNumbers.h"

#include <cmath>
#include <limits>
#include <sstream>

using nlohmann::json;

namespace sysid::project {

namespace {

// The agreement of `output` in a model's comparison; NaNs when the model does not measure it.
job::OutputAgreement agreementFor(const job::ModelScore& score, const std::string& output)
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    if (!score.comparison)
        return {nan, nan, nan};
    const auto& s = score.comparison->simulation;
    for (std::size_t j = 0; j < s.outputNames.size() && j < score.comparison->agreement.size(); ++j)
        if (s.outputNames[j] == output && j < s.outputMeasured.size() && s.outputMeasured[j])
            return score.comparison->agreement[j];
    return {nan, nan, nan};
}

double deltaAic(const job::ModelComparison& comparison, const job::ModelScore& score)
{
    const auto best = comparison.best();
    return best && score.comparison ? score.criteria.aic - comparison.models[*best].criteria.aic
                                    : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

std::string informationCriteriaFormulas()
{
    return "cost J = 1/2 sum_j w_j sum_i (y_ij - yhat_ij)^2 with w_j = 1/sigma_j^2 from the record's noise "
           "estimate (the same for every model); AIC = 2 J + 2 k (Akaike 1974), AICc = AIC + 2 k (k + 1) / "
           "(N - k - 1) (Hurvich and Tsai 1989), BIC = 2 J + k ln N (Schwarz 1978); k estimated parameters, N "
           "residuals; lower is better, only differences count";
}

json modelComparisonToJson(const job::ModelComparison& comparison)
{
    json weights = json::object();
    for (std::size_t j = 0; j < comparison.outputs.size(); ++j)
        weights[comparison.outputs[j]] = finiteOrNull(comparison.weights[j]);
    json models = json::array();
    for (const job::ModelScore& score : comparison.models) {
        json m = {{"name", score.name}, {"method", score.method}, {"parameters", score.parameters}};
        if (!score.comparison) {
            m["error"] = score.error;
            models.push_back(std::move(m));
            continue;
        }
        m["residuals"] = score.residuals;
        m["cost"] = finiteOrNull(score.cost);
        m["aic"] = finiteOrNull(score.criteria.aic);
        m["aicc"] = finiteOrNull(score.criteria.aicc);
        m["bic"] = finiteOrNull(score.criteria.bic);
        m["delta_aic"] = finiteOrNull(deltaAic(comparison, score));
        json outputs = json::object();
        for (const std::string& output : comparison.outputs) {
            const job::OutputAgreement a = agreementFor(score, output);
            if (std::isnan(a.rmse))
                continue;
            outputs[output] = {{"rmse", finiteOrNull(a.rmse)},
                               {"nrmse", finiteOrNull(a.nrmse)},
                               {"fit_percent", finiteOrNull(a.fitPercent)}};
        }
        m["outputs"] = std::move(outputs);
        m["periodic_steady_state"] = score.comparison->simulation.initialState.size() == 0;
        models.push_back(std::move(m));
    }
    json out = {{"data", comparison.record},
                {"criteria", informationCriteriaFormulas()},
                {"weights", std::move(weights)},
                {"models", std::move(models)}};
    if (const auto best = comparison.best())
        out["best"] = comparison.models[*best].name;
    if (!comparison.note.empty())
        out["note"] = comparison.note;
    return out;
}

std::string modelComparisonCsv(const job::ModelComparison& comparison)
{
    std::ostringstream out;
    out << "model,method,parameters,residuals,cost,aic,aicc,bic,delta_aic";
    for (const std::string& output : comparison.outputs)
        out << ',' << data::csvField(output + " rmse") << ',' << data::csvField(output + " nrmse") << ','
            << data::csvField(output + " fit_percent");
    out << ",error\n";
    for (const job::ModelScore& score : comparison.models) {
        out << data::csvField(score.name) << ',' << score.method << ',' << score.parameters << ',';
        if (score.comparison)
            out << score.residuals << ',' << data::csvNumber(score.cost) << ',' << data::csvNumber(score.criteria.aic)
                << ',' << data::csvNumber(score.criteria.aicc) << ',' << data::csvNumber(score.criteria.bic) << ','
                << data::csvNumber(deltaAic(comparison, score));
        else
            out << ",,,,,";
        for (const std::string& output : comparison.outputs) {
            const job::OutputAgreement a = agreementFor(score, output);
            out << ',' << data::csvNumber(a.rmse) << ',' << data::csvNumber(a.nrmse) << ','
                << data::csvNumber(a.fitPercent);
        }
        out << ',' << data::csvField(score.error) << '\n';
    }
    return out.str();
}

}  // namespace sysid::project
