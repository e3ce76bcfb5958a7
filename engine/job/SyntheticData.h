#pragma once

#include "engine/data/Noise.h"
#include "engine/integrate/Trajectory.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sysid::job {

// Measurement noise for a synthetic record: a percentage of each output's RMS (seed note 004).
struct OutputNoise {
    double percentRms = 0.0;
    data::NoiseDistribution distribution = data::NoiseDistribution::Uniform;
    std::uint64_t seed = 0;
};

// A simulated record as it is written to CSV: the column "t", then one column per model output.
struct SyntheticData {
    std::vector<std::string> header;
    std::vector<std::vector<double>> columns;
};

// The outputs of a simulation as a record. With `noise`, data::addNoise adds it to each output
// in the model's order, all drawn from one generator seeded once with noise->seed: the one recipe
// behind `sysid simulate --noise-rms` and the desktop application's synthetic data, so a seed
// gives the same file from both. Throws std::invalid_argument for a percentage that is negative
// or not finite, or an output that is not finite while noise is asked for.
SyntheticData syntheticData(const integrate::Trajectory& trajectory, const std::vector<std::string>& outputNames,
                            const std::optional<OutputNoise>& noise);

}  // namespace sysid::job
