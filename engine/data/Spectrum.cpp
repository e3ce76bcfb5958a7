#include "engine/data/Spectrum.h"

#include "engine/data/Text.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <string>

namespace sysid::data {

// Welch, "The use of fast Fourier transform for the estimation of power spectra",
// IEEE Trans. Audio Electroacoustics 15(2), 1967; density scaling 1/(fs sum w^2).
Spectrum welch(const std::vector<double>& values, double sampleRateHz, int segmentLength)
{
    if (values.size() < 2)
        throw std::invalid_argument("power spectrum: " + std::to_string(values.size()) +
                                    " samples; expected at least 2");
    if (segmentLength < 2)
        throw std::invalid_argument("power spectrum: segment length " + std::to_string(segmentLength) +
                                    "; expected at least 2 samples");
    if (!std::isfinite(sampleRateHz) || !(sampleRateHz > 0))
        throw std::invalid_argument("power spectrum: sample rate " + formatDouble(sampleRateHz) +
                                    " Hz; expected a finite rate > 0");
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]))
            throw std::invalid_argument("power spectrum: sample " + std::to_string(i + 1) +
                                        " is not a finite number; expected finite values");

    const std::size_t L = std::min(values.size(), static_cast<std::size_t>(segmentLength));
    const std::size_t step = std::max<std::size_t>(1, L / 2);
    const std::size_t bins = L / 2 + 1;

    std::vector<double> window(L);
    double windowPower = 0;
    for (std::size_t j = 0; j < L; ++j) {
        window[j] = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(L));
        windowPower += window[j] * window[j];
    }

    Eigen::FFT<double> fft;
    std::vector<double> segment(L);
    std::vector<std::complex<double>> transform;
    std::vector<double> sum(bins, 0.0);
    std::size_t segments = 0;
    for (std::size_t start = 0; start + L <= values.size(); start += step) {
        double mean = 0;
        for (std::size_t j = 0; j < L; ++j)
            mean += values[start + j];
        mean /= static_cast<double>(L);
        for (std::size_t j = 0; j < L; ++j)
            segment[j] = (values[start + j] - mean) * window[j];
        fft.fwd(transform, segment);
        for (std::size_t k = 0; k < bins; ++k)
            sum[k] += std::norm(transform[k]);
        ++segments;
    }

    Spectrum s;
    s.frequency.resize(bins);
    s.power.resize(bins);
    const double scale = 1.0 / (sampleRateHz * windowPower * static_cast<double>(segments));
    for (std::size_t k = 0; k < bins; ++k) {
        s.frequency[k] = static_cast<double>(k) * sampleRateHz / static_cast<double>(L);
        // One-sided: negative frequencies folded onto positive ones, except DC and Nyquist.
        const bool unpaired = k == 0 || (L % 2 == 0 && k == L / 2);
        s.power[k] = sum[k] * scale * (unpaired ? 1.0 : 2.0);
    }
    return s;
}

}  // namespace sysid::data
