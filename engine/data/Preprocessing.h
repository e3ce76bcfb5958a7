#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Differentiation.h"
#include "engine/data/Noise.h"
#include "engine/data/ZeroPhaseFilter.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace sysid::data {

// What is done to a data table before it is used, in this order: time window,
// added noise (simulation studies: noise added to clean simulated data, seed
// note 004), zero-phase low-pass filter, decimation; or, with windowAfterFilter,
// the window last, so that the whole record is filtered and a part of it fitted.
struct Preprocessing {
    // Keep rows with first <= t <= second.
    std::optional<std::pair<double, double>> window;
    // Cut the window from the processed record (after noise, low-pass and decimation) instead of
    // cutting it first: the filter then sees the whole record, and a window that starts later
    // leaves the filter's transient at the record's start out of the fit.
    bool windowAfterFilter = false;
    // Keep every decimation-th row, after an anti-aliasing filter (see decimate).
    int decimation = 1;
    struct LowPass {
        int order = 4;  // Butterworth order 1..10
        double cutoffHz = 0;  // 0 < cutoff < half the sample rate
        FilterEnds ends = FilterEnds::LeastSquares;  // how filtFilt treats the record's ends
    };
    std::optional<LowPass> lowPass;
    struct AddedNoise {
        double percent = 0;  // of each column's RMS (see addNoise)
        NoiseDistribution distribution = NoiseDistribution::Uniform;
        std::uint64_t seed = 0;
    };
    std::optional<AddedNoise> noise;
    // How velocities are obtained from measured displacements by the methods that need them
    // (equation-error estimators); it does not change the table.
    struct Derivative {
        DerivativeMethod method = DerivativeMethod::CentralDifference;
        int window = 7;  // Savitzky-Golay: samples, odd, > polynomialOrder
        int polynomialOrder = 3;  // Savitzky-Golay
        bool operator==(const Derivative&) const = default;

        // A Savitzky-Golay window odd and >= 3, its order from 1 to window - 1. Throws
        // core::SettingError with the key "window" or "order".
        void validate() const;
    };
    Derivative differentiation;

    // Checks the values that do not depend on the data (window start < end and finite;
    // decimation >= 1; order 1..10; cutoff finite and > 0; percent finite and >= 0; the
    // differentiation's). Throws core::SettingError with the key of the setting in toJson's
    // object ("low_pass.cutoff_hz") and its rule.
    void validate() const;
};

// Applies the settings to every non-time column: window (trimWindow), then noise
// (one std::mt19937_64 seeded once with the seed, columns in table order), then
// filtFilt through butterworthLowPass(order, cutoff, 1/dt) with the low-pass's ends, then
// decimate; with windowAfterFilter the window is cut last. The low-pass and decimation need uniform time. Every problem
// is a DataError with the table's source, naming the step; settings that validate() refuses are a DataError
// "preprocessing: " and its message.
DataTable preprocess(const DataTable& table, const Preprocessing& settings);

// The time a transient of the low-pass at an end of a record takes to decay to 1 % of its start
// (settlingSamples of its sections at fraction 0.01, over the sample rate); nothing when the
// filter cannot be designed for this rate (a cutoff at or above the Nyquist frequency).
std::optional<double> lowPassSettlingTime(const Preprocessing::LowPass& lowPass, double sampleRateHz);

// The low-pass in one sentence for logs and the GUI: its design, how its ends are treated and how
// far into a record sampled at sampleRateHz its end transients reach ("zero-phase Butterworth
// low-pass of order 4 at 1.5 Hz; ends by least squares; its end transients decay to 1 % within
// 1.3 s").
std::string describeLowPass(const Preprocessing::LowPass& lowPass, double sampleRateHz);

// JSON for project files:
//   {"window": {"start": 0, "end": 5, "after_filter": true}, "decimation": 1,
//    "low_pass": {"order": 4, "cutoff_hz": 1.2, "ends": "least-squares"},
//    "noise": {"percent": 5, "distribution": "uniform", "seed": 42},
//    "differentiation": {"method": "savitzky-golay", "window": 7, "order": 3}}
// Absent settings are left out ("decimation" is always written; "differentiation" only
// when it differs from central differences with the default window and order;
// "after_filter" only when true; "ends" always with a low-pass).
nlohmann::json toJson(const Preprocessing& settings);
// Reads what toJson writes; absent or null members are unset (decimation 1).
// Throws DataError naming the member for unknown members, wrong types and values
// that Preprocessing::validate rejects.
Preprocessing preprocessingFromJson(const nlohmann::json& json);

}  // namespace sysid::data
