#include "engine/estimate/NoiseVariances.h"

#include "engine/data/Text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace sysid::estimate {

std::vector<OutputSquares> outputSquares(const std::vector<Experiment>& experiments,
                                         const std::vector<Eigen::MatrixXd>& outputs, std::size_t outputCount)
{
    std::vector<OutputSquares> sums(outputCount);
    for (std::size_t j = 0; j < outputCount; ++j) {
        const auto jj = static_cast<Eigen::Index>(j);
        for (std::size_t e = 0; e < experiments.size(); ++e) {
            if (!experiments[e].outputMeasured[j] || outputs[e].rows() == 0)
                continue;
            sums[j].squares += (experiments[e].measured.col(jj) - outputs[e].col(jj)).squaredNorm();
            sums[j].samples += static_cast<std::size_t>(outputs[e].rows());
        }
    }
    return sums;
}

std::vector<double> noiseVarianceFloors(const std::vector<Experiment>& experiments, std::size_t outputCount)
{
    std::vector<double> floors(outputCount, 0.0);
    for (std::size_t j = 0; j < outputCount; ++j) {
        double squares = 0.0;
        std::size_t samples = 0;
        for (const auto& e : experiments) {
            if (!e.outputMeasured[j])
                continue;
            squares += e.measured.col(static_cast<Eigen::Index>(j)).squaredNorm();
            samples += static_cast<std::size_t>(e.measured.rows());
        }
        if (samples > 0)
            floors[j] = 1e-12 * (squares / static_cast<double>(samples));
    }
    return floors;
}

double estimatedVariance(const OutputSquares& output, double floor)
{
    // The least normal double keeps an all-zero record's exact fit finite.
    return output.samples == 0
        ? 0.0
        : std::max({output.squares / static_cast<double>(output.samples), floor, std::numeric_limits<double>::min()});
}

double negativeLogLikelihood(const std::vector<OutputSquares>& outputs, const std::vector<double>& floors)
{
    double sum = 0.0;
    for (std::size_t j = 0; j < outputs.size(); ++j) {
        if (outputs[j].samples == 0)
            continue;
        const double variance = estimatedVariance(outputs[j], floors[j]);
        sum += 0.5 * static_cast<double>(outputs[j].samples) * std::log(2.0 * std::numbers::pi * variance) +
            0.5 * outputs[j].squares / variance;
    }
    return sum;
}

Likelihood likelihoodOf(const std::vector<OutputSquares>& outputs, std::size_t parameters)
{
    Likelihood l;
    l.parameters = parameters;
    double sum = 0.0;
    for (const auto& output : outputs) {
        if (output.samples == 0)
            continue;
        const auto n = static_cast<double>(output.samples);
        sum += n * (std::log(2.0 * std::numbers::pi * output.squares / n) + 1.0);
        l.samples += output.samples;
        ++l.noiseVariances;
    }
    if (l.noiseVariances > 0 && std::isfinite(sum))
        l.minusTwoLog = sum;
    return l;
}

std::string describe(const Likelihood& likelihood)
{
    return data::formatNumber(likelihood.minusTwoLog, 10) + " (" + std::to_string(likelihood.samples) + " samples, " +
        std::to_string(likelihood.noiseVariances) +
        (likelihood.noiseVariances == 1 ? " noise variance)" : " noise variances)");
}

std::vector<NoiseEstimate> noiseEstimates(const std::vector<OutputSquares>& outputs, const std::vector<double>& floors,
                                          const std::vector<std::string>& outputNames,
                                          const std::vector<std::string>& outputUnits)
{
    std::vector<NoiseEstimate> estimates;
    for (std::size_t j = 0; j < outputs.size(); ++j) {
        if (outputs[j].samples == 0)
            continue;
        const double sigma = std::sqrt(estimatedVariance(outputs[j], floors[j]));
        estimates.push_back({outputNames[j], sigma, sigma / std::sqrt(2.0 * static_cast<double>(outputs[j].samples)),
                             outputs[j].samples, j < outputUnits.size() ? outputUnits[j] : std::string()});
    }
    return estimates;
}

}  // namespace sysid::estimate
