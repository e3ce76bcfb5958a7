#pragma once

#include "engine/data/DataTable.h"

#include <optional>
#include <vector>

namespace sysid::data {

// The frequency of the largest peak of a signal's power spectrum (Welch, segments of up to 4096
// samples, the zero-frequency bin left out); nothing for a constant signal.
std::optional<double> dominantFrequency(const std::vector<double>& values, double sampleRateHz);

// A starting low-pass cutoff for a record that keeps what its signals carry: kCutoffPerDominant
// times the highest dominant frequency of its non-time columns, so that the first harmonics of a
// nonlinear response pass, and at most kCutoffOfNyquist of the Nyquist frequency, so that the
// Butterworth design (which needs a cutoff below Nyquist) always accepts it; rounded to two
// significant digits, as a person would write it. A rule of thumb to adjust against the spectra,
// not an optimal cutoff. Nothing when the time is not uniform, there are fewer than 4 samples or
// every column is constant.
inline constexpr double kCutoffPerDominant = 5.0;
inline constexpr double kCutoffOfNyquist = 0.8;
std::optional<double> suggestedLowPassCutoff(const DataTable& table);

}  // namespace sysid::data
