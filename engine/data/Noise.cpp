#include "engine/data/Text.h"
#include "engine/data/Noise.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>

namespace sysid::data {

namespace {

// Uniform in [0, 1): the top 53 bits of one draw.
double unit(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// Uniform in (0, 1]: never 0, so its logarithm is finite.
double unitOpenAtZero(std::mt19937_64& rng)
{
    return static_cast<double>((rng() >> 11) + 1) * 0x1.0p-53;
}

}  // namespace

double rms(const std::vector<double>& signal)
{
    if (signal.empty())
        return 0.0;
    double scale = 0;
    for (double x : signal) {
        if (std::isnan(x))
            return x;
        scale = std::max(scale, std::abs(x));
    }
    if (scale == 0 || std::isinf(scale))
        return scale;
    double sum = 0;
    for (double x : signal) {
        const double y = x / scale;
        sum += y * y;
    }
    return scale * std::sqrt(sum / static_cast<double>(signal.size()));
}

void addNoise(std::vector<double>& signal, double percent, NoiseDistribution distribution, std::mt19937_64& rng)
{
    if (!std::isfinite(percent) || percent < 0)
        throw std::invalid_argument("addNoise: noise level " + std::to_string(percent) +
                                    " %; expected a finite percentage >= 0");
    const double r = rms(signal);
    if (!std::isfinite(r))
        throw std::invalid_argument("addNoise: the signal holds NaN or infinite values; expected finite values");
    const double a = percent / 100.0 * r;
    switch (distribution) {
    case NoiseDistribution::Uniform:
        for (double& x : signal)
            x += a * (2.0 * unit(rng) - 1.0);
        break;
    case NoiseDistribution::Gaussian:
        // Box-Muller: two independent standard normal values per two draws.
        for (std::size_t i = 0; i < signal.size(); i += 2) {
            const double radius = std::sqrt(-2.0 * std::log(unitOpenAtZero(rng)));
            const double angle = 2.0 * std::numbers::pi * unit(rng);
            signal[i] += a * radius * std::cos(angle);
            if (i + 1 < signal.size())
                signal[i + 1] += a * radius * std::sin(angle);
        }
        break;
    }
}

std::optional<NoiseDistribution> parseNoiseDistribution(std::string_view name)
{
    return kNoiseDistributions.parse(name);
}

std::string_view noiseDistributionName(NoiseDistribution distribution)
{
    return kNoiseDistributions.name(distribution);
}

double noiseSd(const std::vector<double>& time, const double* values)
{
    const std::size_t n = time.size();
    if (n < 3)
        return 0.0;
    double sum = 0.0;
    for (std::size_t i = 1; i + 1 < n; ++i) {
        // Pseudo-residual: the sample minus the straight line through its neighbours, scaled to unit variance.
        const double a = (time[i + 1] - time[i]) / (time[i + 1] - time[i - 1]);
        const double b = (time[i] - time[i - 1]) / (time[i + 1] - time[i - 1]);
        const double c2 = 1.0 / (a * a + b * b + 1.0);
        const double e = a * values[i - 1] + b * values[i + 1] - values[i];
        sum += c2 * e * e;
    }
    return std::sqrt(sum / static_cast<double>(n - 2));
}

}  // namespace sysid::data
