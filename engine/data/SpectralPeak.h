#pragma once

#include "engine/data/DataTable.h"

#include <optional>
#include <string>
#include <vector>

namespace sysid::data {

// The largest peak of a signal's power spectrum, as a first guess of a natural frequency
// (Normann 1989: "the peak frequency also gives an excellent initial estimate of the natural
// frequency"). For a lightly damped oscillator the peak lies at its damped natural frequency,
// within a relative (gamma / omega)^2 of the undamped one.
struct SpectralPeak {
    std::string column;  // the table's column; empty for a bare signal
    double frequencyHz = 0;
    double angularFrequency() const;  // 2 pi f [rad/s]
    double angularFrequencySquared() const;  // (2 pi f)^2, the stiffness over the mass of an oscillator
};

// The peak of welch(values, sampleRateHz, 4096) (the zero-frequency bin left out), placed between
// the bins by a parabola through the logarithms of the largest bin and its neighbours (exact for a
// Gaussian peak; a sinusoid under the Hann window comes out within a few hundredths of a bin).
// Nothing for fewer than 4 samples, a constant signal or non-finite values.
std::optional<SpectralPeak> spectralPeak(const std::vector<double>& values, double sampleRateHz);

// The peak of every non-time column that has one, in the table's order. Empty when the time is
// not uniform or there are fewer than 4 samples.
std::vector<SpectralPeak> spectralPeaks(const DataTable& table);

}  // namespace sysid::data
