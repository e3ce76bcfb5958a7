#include "engine/integrate/PeriodicInputRecord.h"

#include "engine/data/DataError.h"
#include "engine/data/Text.h"

#include <algorithm>
#include <cmath>

namespace sysid::integrate {

namespace {

std::string seconds(double t)
{
    return data::formatNumber(t, 6) + " s";
}

// Folds columns sampled at `time` onto one period (see periodicInputsFromTable).
PeriodicInputRecord fold(const std::vector<double>& time, const std::vector<const std::vector<double>*>& columns,
                         std::vector<Intersample> behaviour, double period, const std::string& source)
{
    if (!(period > 0) || !std::isfinite(period))
        throw data::DataError("the forcing period must be positive and finite to read the input over one period",
                              source);
    const std::size_t n = time.size();
    if (n < 2)
        throw data::DataError("a periodic input needs at least two samples", source);
    const double span = time.back() - time.front();
    const double rounding = 1e-9 * period;

    std::size_t perPeriod = 0, periods = 1;
    if (span <= period + rounding) {
        perPeriod = n;
        if (time.back() >= time.front() + period - rounding)
            --perPeriod;  // one period after the first sample: the first again
    } else {
        const double dt = span / static_cast<double>(n - 1);
        for (std::size_t k = 1; k < n; ++k)
            if (std::abs(time[k] - time[k - 1] - dt) > 1e-6 * dt)
                throw data::DataError("the input record is longer than one period (" + seconds(span) +
                                          ") and not uniformly sampled (at row " + std::to_string(k + 1) +
                                          "): give one period of it, or resample it",
                                      source);
        const double ratio = period / dt;
        perPeriod = static_cast<std::size_t>(std::llround(ratio));
        if (perPeriod == 0 || std::abs(ratio - static_cast<double>(perPeriod)) > 1e-6 * ratio)
            throw data::DataError("the period " + seconds(period) + " is not a whole number of sample intervals (" +
                                      seconds(dt) +
                                      "): give one period of the input, or a record sampled at a whole fraction of "
                                      "the period",
                                  source);
        periods = n / perPeriod;
    }
    if (perPeriod < 2)
        throw data::DataError("a periodic input needs at least two samples in one period (the period is " +
                                  seconds(period) + ")",
                              source);

    const std::vector<double> phaseTimes(time.begin(), time.begin() + static_cast<std::ptrdiff_t>(perPeriod));
    std::vector<data::Signal> perInput;
    for (const auto* column : columns) {
        std::vector<double> mean(perPeriod, 0.0);
        for (std::size_t p = 0; p < periods; ++p)
            for (std::size_t k = 0; k < perPeriod; ++k)
                mean[k] += (*column)[p * perPeriod + k] / static_cast<double>(periods);
        perInput.emplace_back(phaseTimes, std::move(mean));
    }
    return {InputSignals::periodic(std::move(perInput), std::move(behaviour), period), periods};
}

}  // namespace

PeriodicInputRecord periodicInputsFromTable(const std::vector<std::string>& inputNames, const data::DataTable& table,
                                            double period, const std::map<std::string, std::string>& mapping,
                                            const std::map<std::string, Intersample>& intersample)
{
    std::vector<const std::vector<double>*> columns;
    std::vector<Intersample> behaviour;
    for (const auto& name : inputNames) {
        const auto it = mapping.find(name);
        columns.push_back(&table.column(it == mapping.end() ? name : it->second));
        const auto b = intersample.find(name);
        behaviour.push_back(b == intersample.end() ? Intersample::Linear : b->second);
    }
    return fold(table.time(), columns, std::move(behaviour), period, table.source);
}

PeriodicInputRecord periodicInputsFrom(const InputSignals& record, double period, const std::string& source)
{
    if (record.size() == 0)
        return {InputSignals::periodic({}, {}, period), 1};
    std::vector<const std::vector<double>*> columns;
    std::vector<Intersample> behaviour;
    const auto& time = record.signal(0).time();
    for (std::size_t i = 0; i < record.size(); ++i) {
        if (record.signal(i).time() != time)
            throw data::DataError("the measured inputs do not share one time base", source);
        columns.push_back(&record.signal(i).values());
        behaviour.push_back(record.behaviour(i));
    }
    return fold(time, columns, std::move(behaviour), period, source);
}

}  // namespace sysid::integrate
