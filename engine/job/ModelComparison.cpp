#include "engine/job/ModelComparison.h"

#include "engine/estimate/EstimationMethod.h"
#include "engine/estimate/Experiment.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sysid::job {

std::optional<std::size_t> ModelComparison::best() const
{
    std::optional<std::size_t> best;
    for (std::size_t m = 0; m < models.size(); ++m)
        if (models[m].comparison && std::isfinite(models[m].criteria.aic) &&
            (!best || models[m].criteria.aic < models[*best].criteria.aic))
            best = m;
    return best;
}

namespace {

std::vector<std::string> measuredOutputs(const ValidationSimulation& s)
{
    std::vector<std::string> names;
    for (std::size_t j = 0; j < s.outputNames.size(); ++j)
        if (j < s.outputMeasured.size() && s.outputMeasured[j])
            names.push_back(s.outputNames[j]);
    return names;
}

}  // namespace

ModelComparison compareModels(const std::vector<ModelCandidate>& candidates, const ExperimentData& record,
                              std::stop_token stop)
{
    ModelComparison out;
    out.record = record.label();
    std::vector<std::vector<std::string>> measured;
    for (const ModelCandidate& candidate : candidates) {
        ModelScore score;
        score.name = candidate.name;
        score.method = std::string(estimate::kEstimationMethods.name(candidate.fit.settings.method));
        score.parameters = candidate.result.parameters.size();
        if (stop.stop_requested()) {
            score.error = "cancelled";
            out.models.push_back(std::move(score));
            continue;
        }
        std::map<std::string, double> estimates;
        for (const auto& p : candidate.result.parameters)
            estimates[p.name] = p.value;
        try {
            score.comparison =
                compareWithRecord(candidate.fit, record, 0, estimates, defaultInitialValues(candidate.result), stop);
            measured.push_back(measuredOutputs(score.comparison->simulation));
        } catch (const std::exception& e) {
            score.error = e.what();
        }
        out.models.push_back(std::move(score));
    }

    // The weights: one per output name, from the first model that measures it on the record.
    for (const ModelScore& score : out.models) {
        if (!score.comparison)
            continue;
        const ValidationSimulation& s = score.comparison->simulation;
        for (std::size_t j = 0; j < s.outputNames.size(); ++j) {
            if (j >= s.outputMeasured.size() || !s.outputMeasured[j] ||
                std::find(out.outputs.begin(), out.outputs.end(), s.outputNames[j]) != out.outputs.end())
                continue;
            const double sd = estimate::estimateNoiseSd(s.times, s.measured.col(static_cast<Eigen::Index>(j)));
            out.outputs.push_back(s.outputNames[j]);
            out.weights.push_back(sd > 0 ? 1.0 / (sd * sd) : std::numeric_limits<double>::quiet_NaN());
        }
    }
    for (std::size_t m = 1; m < measured.size(); ++m) {
        auto a = measured[0], b = measured[m];
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b)
            out.note = "the models do not compare the same outputs on the record: their costs and criteria sum "
                       "different residuals and do not rank them";
    }

    for (ModelScore& score : out.models) {
        if (!score.comparison)
            continue;
        const ValidationSimulation& s = score.comparison->simulation;
        double cost = 0.0;
        std::size_t residuals = 0;
        for (std::size_t j = 0; j < s.outputNames.size(); ++j) {
            if (j >= s.outputMeasured.size() || !s.outputMeasured[j])
                continue;
            const auto at = std::find(out.outputs.begin(), out.outputs.end(), s.outputNames[j]) - out.outputs.begin();
            const auto column = static_cast<Eigen::Index>(j);
            const double squares = (s.measured.col(column) - s.outputs.col(column)).squaredNorm();
            cost += 0.5 * out.weights[static_cast<std::size_t>(at)] * squares;
            residuals += static_cast<std::size_t>(s.measured.rows());
        }
        score.cost = cost;
        score.residuals = residuals;
        score.criteria = estimate::informationCriteria(2.0 * cost, score.parameters, residuals);
    }
    return out;
}

}  // namespace sysid::job
