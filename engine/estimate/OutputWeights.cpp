#include "engine/estimate/OutputWeights.h"

#include "engine/data/Text.h"
#include "engine/estimate/NoiseVariances.h"

#include <cmath>
#include <stdexcept>

namespace sysid::estimate {

std::vector<double> outputWeights(const eval::CompiledModelSource& model, const std::vector<Experiment>& experiments,
                                  const FitSettings& settings)
{
    for (const auto& [name, w] : settings.outputWeights) {
        bool known = false;
        for (const auto& o : model.outputNames)
            known = known || o == name;
        if (!known)
            throw std::invalid_argument("a weight is given for '" + name + "', which is not an output of the model");
        if (!(w >= 0) || !std::isfinite(w))
            throw std::invalid_argument("the weight of output " + name + " must be a finite number >= 0");
    }
    std::vector<double> weights(model.outputCount(), 0.0);
    const std::vector<double> floors = noiseVarianceFloors(experiments, model.outputCount());
    for (std::size_t j = 0; j < model.outputCount(); ++j) {
        double noiseVariance = 0.0;
        std::size_t experimentsWithOutput = 0;
        for (const auto& e : experiments) {
            if (!e.outputMeasured[j])
                continue;
            const Eigen::VectorXd column = e.measured.col(static_cast<Eigen::Index>(j));
            const double sd = estimateNoiseSd(e.times, column);
            noiseVariance += sd * sd;
            ++experimentsWithOutput;
        }
        if (experimentsWithOutput == 0)
            continue;
        const auto given = settings.outputWeights.find(model.outputNames[j]);
        if (given != settings.outputWeights.end()) {
            weights[j] = given->second;
            continue;
        }
        // Noise-free data would give sigma ~ 0: keep sigma above 1e-6 of the signal's RMS.
        const double variance = std::max(noiseVariance / static_cast<double>(experimentsWithOutput), floors[j]);
        weights[j] = variance > 0 ? 1.0 / variance : 1.0;
        // Beyond double's range the weight would be 0 or infinite and the fit would report a
        // perfect fit (cost 0) or nothing at all: refuse rather than be silently wrong.
        if (!std::isfinite(variance) || !std::isfinite(weights[j]) || !(weights[j] > 0))
            throw std::invalid_argument(
                "the data of output " + model.outputNames[j] + " are beyond what their weight can be computed for " +
                "(noise variance " +
                (std::isfinite(variance) ? data::formatNumber(variance, 3) : std::string("overflows")) +
                "); rescale the data to a moderate unit, or give the output's weight");
    }
    return weights;
}

}  // namespace sysid::estimate
