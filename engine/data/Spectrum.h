#pragma once

#include <vector>

namespace sysid::data {

// One-sided power spectral density: power[k] at frequency[k] = k fs / L,
// k = 0 .. L/2, in (signal unit)^2 / Hz, so that sum(power) * fs / L is about
// the signal's variance.
struct Spectrum {
    std::vector<double> frequency;
    std::vector<double> power;
};

// Welch's method: segments of segmentLength samples (the whole signal when it is
// shorter) overlapping by half, each with its mean removed and a periodic Hann
// window applied; their periodograms averaged (as scipy.signal.welch with its
// defaults). Trailing samples that do not fill a segment are not used. Throws
// std::invalid_argument for fewer than 2 samples, a segment length < 2, a sample
// rate that is not finite and > 0, or non-finite values.
Spectrum welch(const std::vector<double>& values, double sampleRateHz, int segmentLength = 256);

}  // namespace sysid::data
