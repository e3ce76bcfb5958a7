#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Differentiation.h"
#include "engine/data/Noise.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <utility>

namespace sysid::data {

// What is done to a data table before it is used, in this order: time window,
// added noise (simulation studies: noise added to clean simulated data, seed
// note 004), zero-phase low-pass filter, decimation.
struct Preprocessing {
    // Keep rows with first <= t <= second.
    std::optional<std::pair<double, double>> window;
    // Keep every decimation-th row, after an anti-aliasing filter (see decimate).
    int decimation = 1;
    struct LowPass {
        int order = 4;  // Butterworth order 1..10
        double cutoffHz = 0;  // 0 < cutoff < half the sample rate
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
// filtFilt through butterworthLowPass(order, cutoff, 1/dt), then decimate. The
// low-pass and decimation need uniform time. Every problem is a DataError with
// the table's source, naming the step; settings that validate() refuses are a DataError
// "preprocessing: " and its message.
DataTable preprocess(const DataTable& table, const Preprocessing& settings);

// JSON for project files:
//   {"window": {"start": 0, "end": 5}, "decimation": 1,
//    "low_pass": {"order": 4, "cutoff_hz": 1.2},
//    "noise": {"percent": 5, "distribution": "uniform", "seed": 42},
//    "differentiation": {"method": "savitzky-golay", "window": 7, "order": 3}}
// Absent settings are left out ("decimation" is always written; "differentiation" only
// when it differs from central differences with the default window and order).
nlohmann::json toJson(const Preprocessing& settings);
// Reads what toJson writes; absent or null members are unset (decimation 1).
// Throws DataError naming the member for unknown members, wrong types and values
// that Preprocessing::validate rejects.
Preprocessing preprocessingFromJson(const nlohmann::json& json);

}  // namespace sysid::data
