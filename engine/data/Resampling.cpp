#include "engine/data/Resampling.h"

#include "engine/data/Butterworth.h"
#include "engine/data/DataError.h"
#include "engine/data/Text.h"
#include "engine/data/UniformTime.h"
#include "engine/data/ZeroPhaseFilter.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::data {

namespace {

void requireSameLength(const std::vector<double>& time, const std::vector<double>& values, const std::string& what)
{
    if (time.size() != values.size())
        throw std::invalid_argument(what + ": " + std::to_string(time.size()) + " times but " +
                                    std::to_string(values.size()) + " values; expected the same number");
}

}  // namespace

SampledSignal decimate(const std::vector<double>& time, const std::vector<double>& values, int factor)
{
    requireSameLength(time, values, "decimate");
    if (factor < 1)
        throw std::invalid_argument("decimate: factor " + std::to_string(factor) + "; expected an integer >= 1");
    if (factor == 1)
        return {time, values};
    const double dt = uniformTimeStep(time, "decimate");
    const double fs = 1.0 / dt;
    const auto sections = butterworthLowPass(8, 0.8 * (fs / 2.0) / static_cast<double>(factor), fs);
    // Odd reflection at the ends: fitting the 16 end states of this filter to the data (FilterEnds::LeastSquares)
    // would let content above the new Nyquist frequency through near the ends.
    const std::vector<double> filtered = filtFilt(sections, values, FilterEnds::Odd);
    SampledSignal out;
    const auto step = static_cast<std::size_t>(factor);
    for (std::size_t i = 0; i < time.size(); i += step) {
        out.time.push_back(time[i]);
        out.values.push_back(filtered[i]);
    }
    return out;
}

SampledSignal resampleUniform(const std::vector<double>& time, const std::vector<double>& values, double dt)
{
    requireSameLength(time, values, "resample");
    if (time.size() < 2)
        throw std::invalid_argument("resample: " + std::to_string(time.size()) + " samples; expected at least 2");
    for (std::size_t i = 0; i < time.size(); ++i) {
        if (!std::isfinite(time[i]))
            throw std::invalid_argument("resample: time sample " + std::to_string(i + 1) +
                                        " is not finite; expected finite times");
        if (i > 0 && !(time[i] > time[i - 1]))
            throw std::invalid_argument("resample: time " + formatDouble(time[i]) + " (sample " +
                                        std::to_string(i + 1) + ") does not increase from " +
                                        formatDouble(time[i - 1]) + "; expected strictly increasing time");
    }
    if (!std::isfinite(dt) || !(dt > 0))
        throw std::invalid_argument("resample: interval " + formatDouble(dt) + "; expected a finite interval > 0");
    const double t0 = time.front();
    const double span = (time.back() - t0) / dt;
    if (!(span <= 1e8))
        throw std::invalid_argument("resample: interval " + formatDouble(dt) + " over the time range " +
                                    formatDouble(t0) + " to " + formatDouble(time.back()) +
                                    " gives more than 1e8 samples; expected a larger interval");
    const auto count = static_cast<std::size_t>(std::floor(span + 1e-9)) + 1;

    SampledSignal out;
    out.time.reserve(count);
    out.values.reserve(count);
    std::size_t j = 0;  // segment [time[j], time[j+1]]
    for (std::size_t i = 0; i < count; ++i) {
        const double t = t0 + static_cast<double>(i) * dt;
        while (j + 2 < time.size() && t >= time[j + 1])
            ++j;
        double v;
        if (t >= time.back())
            v = values.back();
        else if (t == time[j])
            v = values[j];
        else
            v = values[j] + (values[j + 1] - values[j]) * ((t - time[j]) / (time[j + 1] - time[j]));
        out.time.push_back(t);
        out.values.push_back(v);
    }
    return out;
}

DataTable trimWindow(const DataTable& table, double t0, double t1)
{
    if (!std::isfinite(t0) || !std::isfinite(t1) || t0 > t1)
        throw DataError("time window [" + formatDouble(t0) + ", " + formatDouble(t1) +
                            "]; expected finite bounds with start <= end",
                        table.source);
    const std::vector<double>& time = table.time();
    DataTable out;
    out.source = table.source;
    out.columnNames = table.columnNames;
    out.timeColumn = table.timeColumn;
    out.columns.resize(table.columns.size());
    for (std::size_t r = 0; r < time.size(); ++r) {
        if (time[r] < t0 || time[r] > t1)
            continue;
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            out.columns[c].push_back(table.columns[c][r]);
    }
    const std::size_t rows = out.rowCount();
    if (rows < 2) {
        const std::string range = time.empty()
            ? std::string("no samples")
            : "time from " + formatDouble(time.front()) + " to " + formatDouble(time.back());
        throw DataError("time window [" + formatDouble(t0) + ", " + formatDouble(t1) + "] holds " +
                            std::to_string(rows) + (rows == 1 ? " sample" : " samples") + " of the data (" + range +
                            "); expected a window with at least 2 samples",
                        table.source);
    }
    return out;
}

}  // namespace sysid::data
