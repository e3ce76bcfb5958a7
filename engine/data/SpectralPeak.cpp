#include "engine/data/SpectralPeak.h"

#include "engine/data/Spectrum.h"
#include "engine/data/UniformTime.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace sysid::data {

double SpectralPeak::angularFrequency() const
{
    return 2.0 * std::numbers::pi * frequencyHz;
}

double SpectralPeak::angularFrequencySquared() const
{
    return angularFrequency() * angularFrequency();
}

std::optional<SpectralPeak> spectralPeak(const std::vector<double>& values, double sampleRateHz)
{
    if (values.size() < 4 || !std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }))
        return std::nullopt;
    const Spectrum s = welch(values, sampleRateHz, 4096);
    std::size_t peak = 0;
    for (std::size_t k = 1; k < s.power.size(); ++k)
        if (s.power[k] > (peak == 0 ? 0.0 : s.power[peak]))
            peak = k;
    if (peak == 0)
        return std::nullopt;
    double offset = 0;
    // Quadratic interpolation of the log power spectrum around its largest bin (Smith & Serra 1987,
    // "PARSHL", sec. on peak interpolation).
    if (peak + 1 < s.power.size() && s.power[peak - 1] > 0 && s.power[peak + 1] > 0) {
        const double a = std::log(s.power[peak - 1]), b = std::log(s.power[peak]), c = std::log(s.power[peak + 1]);
        const double curvature = a - 2.0 * b + c;
        if (curvature < 0)
            offset = std::clamp(0.5 * (a - c) / curvature, -0.5, 0.5);
    }
    const double binWidth = s.frequency[1] - s.frequency[0];
    return SpectralPeak{{}, s.frequency[peak] + offset * binWidth};
}

std::vector<SpectralPeak> spectralPeaks(const DataTable& table)
{
    std::vector<SpectralPeak> peaks;
    if (table.timeColumn >= table.columns.size() || table.columns[table.timeColumn].size() < 4)
        return peaks;
    double rate = 0;
    try {
        rate = 1.0 / uniformTimeStep(table.columns[table.timeColumn], "time");
    } catch (const std::invalid_argument&) {
        return peaks;
    }
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        if (c == table.timeColumn)
            continue;
        if (auto p = spectralPeak(table.columns[c], rate)) {
            p->column = c < table.columnNames.size() ? table.columnNames[c] : std::string();
            peaks.push_back(*p);
        }
    }
    return peaks;
}

}  // namespace sysid::data
