#include "engine/data/Preprocessing.h"

#include "engine/core/SettingError.h"
#include "engine/data/Butterworth.h"
#include "engine/data/DataError.h"
#include "engine/data/Resampling.h"
#include "engine/data/Text.h"
#include "engine/data/UniformTime.h"
#include "engine/data/ZeroPhaseFilter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sysid::data {

namespace {

using nlohmann::json;

DataError settingError(const std::string& message)
{
    return DataError("preprocessing: " + message);
}

// Runs f, turning std::invalid_argument into a DataError with the table's source.
template <class F>
auto inStep(const DataTable& table, std::string_view step, const std::string& columnName, F&& f)
{
    try {
        return f();
    } catch (const std::invalid_argument& e) {
        throw DataError(std::string(step) + ": " + e.what(), table.source, 0, 0, columnName);
    }
}

std::string describe(const json& value)
{
    return printableExcerpt(value.dump(), 40) + " (" + value.type_name() + ")";
}

const json* member(const json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return nullptr;
    return &*it;
}

void requireObject(const json& value, const std::string& name, std::initializer_list<const char*> keys)
{
    if (!value.is_object())
        throw settingError("'" + name + "' is " + describe(value) + "; expected an object");
    for (const auto& item : value.items()) {
        bool known = false;
        std::string list;
        for (const char* k : keys) {
            known = known || item.key() == k;
            list += (list.empty() ? "" : ", ") + std::string(k);
        }
        if (!known)
            throw settingError("unknown member '" + printableExcerpt(item.key(), 40) + "' in '" + name +
                               "'; expected one of: " + list);
    }
}

double readNumber(const json& value, const std::string& name)
{
    if (!value.is_number())
        throw settingError("'" + name + "' is " + describe(value) + "; expected a number");
    const double v = value.get<double>();
    if (!std::isfinite(v))
        throw settingError("'" + name + "' is not finite; expected a finite number");
    return v;
}

std::int64_t readInteger(const json& value, const std::string& name)
{
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw settingError("'" + name + "' is " + describe(value) + "; expected a small integer");
        return static_cast<std::int64_t>(u);
    }
    if (!value.is_number_integer())
        throw settingError("'" + name + "' is " + describe(value) + "; expected an integer");
    return value.get<std::int64_t>();
}

std::uint64_t readSeed(const json& value, const std::string& name)
{
    if (value.is_number_unsigned())
        return value.get<std::uint64_t>();
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(value.get<std::int64_t>());
    throw settingError("'" + name + "' is " + describe(value) + "; expected an integer from 0 to 2^64-1");
}

int readIntInRange(const json& value, const std::string& name, std::int64_t low, std::int64_t high,
                   const std::string& expected)
{
    const std::int64_t v = readInteger(value, name);
    if (v < low || v > high)
        throw settingError("'" + name + "' is " + std::to_string(v) + "; expected " + expected);
    return static_cast<int>(v);
}

}  // namespace

void Preprocessing::Derivative::validate() const
{
    if (method != DerivativeMethod::SavitzkyGolay)
        return;
    if (window < 3 || window % 2 == 0)
        throw core::SettingError("window", "Savitzky-Golay window", std::to_string(window), "an odd number >= 3");
    if (polynomialOrder < 1 || polynomialOrder >= window)
        throw core::SettingError("order", "Savitzky-Golay order", std::to_string(polynomialOrder),
                                 "1 to " + std::to_string(window - 1) + " (less than the window)");
}

void Preprocessing::validate() const
{
    if (window) {
        const auto [t0, t1] = *window;
        if (!std::isfinite(t0) || !std::isfinite(t1) || !(t0 < t1))
            throw core::SettingError("window", "window", "from " + formatDouble(t0) + " to " + formatDouble(t1),
                                     "finite times with start < end");
    }
    if (decimation < 1)
        throw core::SettingError("decimation", "decimation", std::to_string(decimation), "an integer >= 1");
    if (lowPass) {
        if (lowPass->order < 1 || lowPass->order > 10)
            throw core::SettingError("low_pass.order", "low-pass order", std::to_string(lowPass->order),
                                     "an integer from 1 to 10");
        if (!std::isfinite(lowPass->cutoffHz) || !(lowPass->cutoffHz > 0))
            throw core::SettingError("low_pass.cutoff_hz", "low-pass cutoff", formatDouble(lowPass->cutoffHz) + " Hz",
                                     "a finite frequency > 0");
    }
    if (noise && (!std::isfinite(noise->percent) || noise->percent < 0))
        throw core::SettingError("noise.percent", "noise level", formatDouble(noise->percent) + " %",
                                 "a finite percentage >= 0");
    try {
        differentiation.validate();
    } catch (const core::SettingError& e) {
        throw e.within("differentiation");
    }
}

DataTable preprocess(const DataTable& table, const Preprocessing& settings)
{
    try {
        settings.validate();
    } catch (const core::SettingError& e) {
        throw settingError(e.what());
    }
    const bool windowFirst = settings.window && !settings.windowAfterFilter;
    DataTable out = windowFirst ? trimWindow(table, settings.window->first, settings.window->second) : table;
    const std::size_t timeColumn = out.timeColumn;
    (void)out.time();  // throws DataError when there is no time column

    auto nameOf = [&](std::size_t c) { return c < out.columnNames.size() ? out.columnNames[c] : std::string(); };

    if (settings.noise) {
        std::mt19937_64 rng(settings.noise->seed);
        for (std::size_t c = 0; c < out.columns.size(); ++c) {
            if (c == timeColumn)
                continue;
            inStep(out, "added noise", nameOf(c), [&] {
                addNoise(out.columns[c], settings.noise->percent, settings.noise->distribution, rng);
                return 0;
            });
        }
    }

    if (settings.lowPass) {
        const double dt = inStep(out, "low-pass filter", {}, [&] { return uniformTimeStep(out.time(), "time"); });
        const auto sections = inStep(out, "low-pass filter", {}, [&] {
            return butterworthLowPass(settings.lowPass->order, settings.lowPass->cutoffHz, 1.0 / dt);
        });
        for (std::size_t c = 0; c < out.columns.size(); ++c) {
            if (c == timeColumn)
                continue;
            out.columns[c] = inStep(out, "low-pass filter", nameOf(c),
                                    [&] { return filtFilt(sections, out.columns[c], settings.lowPass->ends); });
        }
    }

    if (settings.decimation > 1) {
        inStep(out, "decimation", {}, [&] { return uniformTimeStep(out.time(), "time"); });
        const std::vector<double> time = out.time();
        for (std::size_t c = 0; c < out.columns.size(); ++c) {
            if (c == timeColumn)
                continue;
            out.columns[c] = inStep(out, "decimation", nameOf(c),
                                    [&] { return decimate(time, out.columns[c], settings.decimation).values; });
        }
        std::vector<double> kept;
        for (std::size_t i = 0; i < time.size(); i += static_cast<std::size_t>(settings.decimation))
            kept.push_back(time[i]);
        out.columns[timeColumn] = std::move(kept);
    }
    if (settings.window && settings.windowAfterFilter)
        out = trimWindow(out, settings.window->first, settings.window->second);
    return out;
}

std::optional<double> lowPassSettlingTime(const Preprocessing::LowPass& lowPass, double sampleRateHz)
{
    try {
        const auto sections = butterworthLowPass(lowPass.order, lowPass.cutoffHz, sampleRateHz);
        return static_cast<double>(settlingSamples(sections, 0.01)) / sampleRateHz;
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

std::string describeLowPass(const Preprocessing::LowPass& lowPass, double sampleRateHz)
{
    std::string text = "zero-phase Butterworth low-pass of order " + std::to_string(lowPass.order) + " at " +
        formatDouble(lowPass.cutoffHz) + " Hz; ends by " +
        (lowPass.ends == FilterEnds::LeastSquares ? "least squares" : "odd reflection");
    if (const auto settling = lowPassSettlingTime(lowPass, sampleRateHz); settling && *settling > 0) {
        // Two significant digits without an exponent: 0.096, 1.3, 100.
        const int decimals = std::max(0, 1 - static_cast<int>(std::floor(std::log10(*settling))));
        char seconds[64];
        std::snprintf(seconds, sizeof seconds, "%.*f", decimals, *settling);
        text += "; its end transients decay to 1 % within " + std::string(seconds) + " s";
    }
    return text;
}

json toJson(const Preprocessing& s)
{
    json j = json::object();
    if (s.window) {
        j["window"] = {{"start", s.window->first}, {"end", s.window->second}};
        if (s.windowAfterFilter)
            j["window"]["after_filter"] = true;
    }
    j["decimation"] = s.decimation;
    if (s.lowPass)
        j["low_pass"] = {{"order", s.lowPass->order},
                         {"cutoff_hz", s.lowPass->cutoffHz},
                         {"ends", std::string(kFilterEnds.name(s.lowPass->ends))}};
    if (s.noise)
        j["noise"] = {{"percent", s.noise->percent},
                      {"distribution", std::string(noiseDistributionName(s.noise->distribution))},
                      {"seed", s.noise->seed}};
    if (s.differentiation != Preprocessing::Derivative{})
        j["differentiation"] = {{"method", std::string(derivativeMethodName(s.differentiation.method))},
                                {"window", s.differentiation.window},
                                {"order", s.differentiation.polynomialOrder}};
    return j;
}

Preprocessing preprocessingFromJson(const json& j)
{
    requireObject(j, "preprocessing", {"window", "decimation", "low_pass", "noise", "differentiation"});
    Preprocessing s;
    if (const json* w = member(j, "window")) {
        requireObject(*w, "window", {"start", "end", "after_filter"});
        const json* start = member(*w, "start");
        const json* end = member(*w, "end");
        if (!start || !end)
            throw settingError("'window' needs both 'start' and 'end'");
        s.window = std::make_pair(readNumber(*start, "window.start"), readNumber(*end, "window.end"));
        if (const json* after = member(*w, "after_filter")) {
            if (!after->is_boolean())
                throw settingError("'window.after_filter' is " + describe(*after) + "; expected true or false");
            s.windowAfterFilter = after->get<bool>();
        }
    }
    if (const json* d = member(j, "decimation"))
        s.decimation = readIntInRange(*d, "decimation", 1, 1000000, "an integer from 1 to 1000000");
    if (const json* lp = member(j, "low_pass")) {
        requireObject(*lp, "low_pass", {"order", "cutoff_hz", "ends"});
        Preprocessing::LowPass l;
        if (const json* o = member(*lp, "order"))
            l.order = readIntInRange(*o, "low_pass.order", 1, 10, "an integer from 1 to 10");
        const json* c = member(*lp, "cutoff_hz");
        if (!c)
            throw settingError("'low_pass' needs 'cutoff_hz' (the cutoff frequency in Hz)");
        l.cutoffHz = readNumber(*c, "low_pass.cutoff_hz");
        if (const json* e = member(*lp, "ends")) {
            const auto parsed = e->is_string() ? kFilterEnds.parse(e->get<std::string>()) : std::nullopt;
            if (!parsed)
                throw settingError("'low_pass.ends' is " + describe(*e) + "; expected " +
                                   kFilterEnds.quotedChoiceSentence());
            l.ends = *parsed;
        }
        s.lowPass = l;
    }
    if (const json* n = member(j, "noise")) {
        requireObject(*n, "noise", {"percent", "distribution", "seed"});
        Preprocessing::AddedNoise a;
        const json* p = member(*n, "percent");
        if (!p)
            throw settingError("'noise' needs 'percent' (the noise level in % of each signal's RMS)");
        a.percent = readNumber(*p, "noise.percent");
        if (const json* d = member(*n, "distribution")) {
            const auto parsed = d->is_string() ? parseNoiseDistribution(d->get<std::string>()) : std::nullopt;
            if (!parsed)
                throw settingError("'noise.distribution' is " + describe(*d) + "; expected " +
                                   kNoiseDistributions.quotedChoiceSentence());
            a.distribution = *parsed;
        }
        if (const json* seed = member(*n, "seed"))
            a.seed = readSeed(*seed, "noise.seed");
        s.noise = a;
    }
    if (const json* d = member(j, "differentiation")) {
        requireObject(*d, "differentiation", {"method", "window", "order"});
        if (const json* m = member(*d, "method")) {
            const auto parsed = m->is_string() ? parseDerivativeMethod(m->get<std::string>()) : std::nullopt;
            if (!parsed)
                throw settingError("'differentiation.method' is " + describe(*m) + "; expected " +
                                   kDerivativeMethods.quotedChoiceSentence());
            s.differentiation.method = *parsed;
        }
        if (const json* w = member(*d, "window"))
            s.differentiation.window = readIntInRange(*w, "differentiation.window", 3, 100001, "an odd integer >= 3");
        if (const json* o = member(*d, "order"))
            s.differentiation.polynomialOrder =
                readIntInRange(*o, "differentiation.order", 1, 100000, "an integer >= 1");
    }
    try {
        s.validate();
    } catch (const core::SettingError& e) {
        throw settingError(e.what());
    }
    return s;
}

}  // namespace sysid::data
