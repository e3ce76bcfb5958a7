#pragma once

#include "IntegrationTestSupport.h"

#include "engine/data/Noise.h"
#include "engine/estimate/Fit.h"

#include <random>

namespace sysid::test {

// An experiment made by simulating `text` with its own parameter values (the truth),
// optionally with noise of `percent` % of each output's RMS (seed note 004's model).
inline estimate::Experiment simulatedExperiment(
    const std::shared_ptr<const eval::CompiledModelSource>& source, const std::vector<double>& truth,
    const std::vector<double>& times, double percent = 0.0, std::uint64_t seed = 1,
    data::NoiseDistribution distribution = data::NoiseDistribution::Gaussian,
    const integrate::InputSignals* inputs = nullptr)
{
    eval::CompiledModel model(source);
    model.setParameters(truth);
    integrate::SimulationRequest request;
    request.times = times;
    request.inputs = inputs;
    const auto tr = integrate::simulate(model, request, tight());
    estimate::Experiment e;
    e.name = "simulated";
    e.times = times;
    e.measured = tr.outputs;
    e.outputMeasured.assign(model.outputCount(), true);
    if (inputs)
        e.inputs = *inputs;
    std::mt19937_64 rng(seed);
    for (Eigen::Index j = 0; j < e.measured.cols(); ++j) {
        std::vector<double> column(e.measured.col(j).data(), e.measured.col(j).data() + e.measured.rows());
        if (percent > 0)
            data::addNoise(column, percent, distribution, rng);
        e.measured.col(j) = Eigen::Map<const Eigen::VectorXd>(column.data(), e.measured.rows());
    }
    return e;
}

inline double relativeError(double value, double truth)
{
    return std::abs(value - truth) / std::abs(truth);
}

}  // namespace sysid::test
