#pragma once

#include "engine/core/EnumTable.h"

#include <array>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

namespace sysid::data {

// Measurement noise as in seed note 004 (Normann 1989): values added to each
// sample, scaled by the RMS of the clean signal.
enum class NoiseDistribution { Uniform, Gaussian };

inline constexpr core::EnumTable kNoiseDistributions{
    "noise distribution",
    std::to_array<core::EnumSpelling<NoiseDistribution>>({
        {.value = NoiseDistribution::Uniform,
         .name = "uniform",
         .description = "uniform in [-p %, +p %] of each signal's RMS (Normann 1989)",
         .label = "uniform in [−p, +p]"},
        {.value = NoiseDistribution::Gaussian,
         .name = "gaussian",
         .description = "Gaussian with a standard deviation of p % of each signal's RMS",
         .label = "Gaussian, sd p"},
    }),
    true};

// Root mean square sqrt(sum x^2 / n); 0 for an empty signal. Scaled so that
// large values do not overflow.
double rms(const std::vector<double>& signal);

// Adds independent noise to every sample, with a = percent/100 * rms(clean signal):
//  Uniform:  uniform in [-a, +a) (sample RMS a/sqrt(3));
//  Gaussian: normal with mean 0 and standard deviation a.
// The variates are computed here from the raw 64-bit draws (not with the
// <random> distributions, whose algorithms differ between standard libraries),
// so a seed gives the same noise everywhere. Throws std::invalid_argument for
// a negative or non-finite percent or a signal with non-finite values.
void addNoise(std::vector<double>& signal, double percent, NoiseDistribution distribution, std::mt19937_64& rng);

// Noise standard deviation of a smooth sampled signal from second differences (Gasser, Sroka &
// Jennen-Steinmetz, Biometrika 73(3), 1986): sigma^2 = sum e_i^2 / (n - 2), e_i the
// pseudo-residuals of neighbour interpolation; 0 for fewer than 3 samples.
double noiseSd(const std::vector<double>& time, const double* values);

// "uniform" or "gaussian" (any letter case); nullopt otherwise.
std::optional<NoiseDistribution> parseNoiseDistribution(std::string_view name);
// "uniform" or "gaussian".
std::string_view noiseDistributionName(NoiseDistribution distribution);

}  // namespace sysid::data
