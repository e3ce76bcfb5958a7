#pragma once

#include <complex>
#include <vector>

namespace sysid::data {

// One biquad H(z) = (b0 + b1 z^-1 + b2 z^-2) / (1 + a1 z^-1 + a2 z^-2).
// A first-order section has b2 = a2 = 0.
struct SecondOrderSection {
    double b0 = 1, b1 = 0, b2 = 0;
    double a1 = 0, a2 = 0;
};

// Digital low-pass Butterworth filter of order 1..10 with its -3 dB cutoff at
// cutoffHz for the sample rate sampleRateHz (0 < cutoff < sampleRate/2), by the
// bilinear transform with the cutoff pre-warped, so |H(cutoff)| = 1/sqrt(2) and
// |H(0)| = 1 exactly. The cascade has order/2 sections, odd orders one
// first-order section first; the sections farthest from the unit circle come
// first and the first carries the overall gain (SciPy's butter(..., output='sos')
// gives the same coefficients for even orders; for odd orders it pairs the
// zeros differently, same transfer function). Throws std::invalid_argument
// for an order or cutoff out of range, naming the allowed range.
std::vector<SecondOrderSection> butterworthLowPass(int order, double cutoffHz, double sampleRateHz);

// H(exp(i 2 pi f / fs)) of the cascade; 1 for no sections.
std::complex<double> frequencyResponse(const std::vector<SecondOrderSection>& sections, double frequencyHz,
                                       double sampleRateHz);

}  // namespace sysid::data
