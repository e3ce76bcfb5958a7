#include "engine/data/CutoffSuggestion.h"

#include "engine/data/Spectrum.h"
#include "engine/data/UniformTime.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sysid::data {

std::optional<double> dominantFrequency(const std::vector<double>& values, double sampleRateHz)
{
    if (values.size() < 4)
        return std::nullopt;
    const Spectrum s = welch(values, sampleRateHz, 4096);
    std::size_t peak = 0;
    for (std::size_t k = 1; k < s.power.size(); ++k)
        if (s.power[k] > (peak == 0 ? 0.0 : s.power[peak]))
            peak = k;
    if (peak == 0)
        return std::nullopt;
    return s.frequency[peak];
}

std::optional<double> suggestedLowPassCutoff(const DataTable& table)
{
    if (table.timeColumn >= table.columns.size() || table.columns[table.timeColumn].size() < 4)
        return std::nullopt;
    double rate = 0;
    try {
        rate = 1.0 / uniformTimeStep(table.columns[table.timeColumn], "time");
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
    double highest = 0;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        if (c == table.timeColumn)
            continue;
        const auto& column = table.columns[c];
        if (!std::all_of(column.begin(), column.end(), [](double v) { return std::isfinite(v); }))
            continue;
        if (const auto f = dominantFrequency(column, rate))
            highest = std::max(highest, *f);
    }
    if (!(highest > 0))
        return std::nullopt;
    const double limit = kCutoffOfNyquist * 0.5 * rate;
    const double cutoff = std::min(kCutoffPerDominant * highest, limit);
    // Two significant digits, scaled by an exact power of ten so that 1.5 is the double nearest 1.5.
    const int digits = 1 - static_cast<int>(std::floor(std::log10(cutoff)));
    const double power = std::pow(10.0, std::abs(digits));
    const auto toDigits = [&](double v) { return digits >= 0 ? v * power : v / power; };
    const auto fromDigits = [&](double n) { return digits >= 0 ? n / power : n * power; };
    const double rounded = fromDigits(std::round(toDigits(cutoff)));
    return rounded <= limit ? rounded : fromDigits(std::floor(toDigits(cutoff)));
}

}  // namespace sysid::data
