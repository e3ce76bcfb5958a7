#include "engine/data/Butterworth.h"

#include "engine/data/Text.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace sysid::data {

namespace {

struct PoleSection {
    double distanceToUnitCircle;
    SecondOrderSection section;
};

}  // namespace

// Butterworth prototype and bilinear transform with pre-warping: Oppenheim & Schafer,
// Discrete-Time Signal Processing, 3rd ed., sec. 7.2.2 and 7.3 (example 7.3).
std::vector<SecondOrderSection> butterworthLowPass(int order, double cutoffHz, double sampleRateHz)
{
    if (order < 1 || order > 10)
        throw std::invalid_argument("Butterworth filter of order " + std::to_string(order) +
                                    "; expected an order from 1 to 10");
    if (!std::isfinite(sampleRateHz) || sampleRateHz <= 0)
        throw std::invalid_argument("Butterworth filter for sample rate " + formatDouble(sampleRateHz) +
                                    " Hz; expected a finite sample rate > 0");
    if (!std::isfinite(cutoffHz) || cutoffHz <= 0 || cutoffHz >= sampleRateHz / 2)
        throw std::invalid_argument("Butterworth cutoff " + formatDouble(cutoffHz) + " Hz at sample rate " +
                                    formatDouble(sampleRateHz) + " Hz; expected 0 < cutoff < " +
                                    formatDouble(sampleRateHz / 2) + " Hz (half the sample rate)");

    // Pre-warped analog cutoff over 2 fs: the bilinear map s -> z = (1 + K s')/(1 - K s')
    // with s' an analog prototype pole on the unit circle.
    const double K = std::tan(std::numbers::pi * cutoffHz / sampleRateHz);
    const double N = static_cast<double>(order);

    std::vector<PoleSection> parts;
    // Prototype poles -exp(i pi m / (2N)), m = -N+1, -N+3, ..., N-1; one of each conjugate pair (m > 0).
    for (int m = order - 1; m > 0; m -= 2) {
        const double angle = std::numbers::pi * static_cast<double>(m) / (2.0 * N);
        const std::complex<double> s(-K * std::cos(angle), K * std::sin(angle));
        const std::complex<double> z = (1.0 + s) / (1.0 - s);
        SecondOrderSection sec;
        sec.b0 = 1;
        sec.b1 = 2;
        sec.b2 = 1;
        sec.a1 = -2.0 * z.real();
        sec.a2 = std::norm(z);
        parts.push_back({1.0 - std::abs(z), sec});
    }
    if (order % 2 == 1) {
        const double z = (1.0 - K) / (1.0 + K);
        SecondOrderSection sec;
        sec.b0 = 1;
        sec.b1 = 1;
        sec.b2 = 0;
        sec.a1 = -z;
        sec.a2 = 0;
        parts.push_back({1.0 - std::abs(z), sec});
    }
    std::stable_sort(parts.begin(), parts.end(), [](const PoleSection& x, const PoleSection& y) {
        return x.distanceToUnitCircle > y.distanceToUnitCircle;
    });

    // Overall gain so that H(1) = 1: each section's numerator at z = 1 is 4 (or 2),
    // its denominator 1 + a1 + a2.
    double gain = 1;
    std::vector<SecondOrderSection> sections;
    for (const auto& p : parts) {
        const auto& s = p.section;
        gain *= (1.0 + s.a1 + s.a2) / (s.b0 + s.b1 + s.b2);
        sections.push_back(s);
    }
    sections.front().b0 *= gain;
    sections.front().b1 *= gain;
    sections.front().b2 *= gain;
    return sections;
}

std::complex<double> frequencyResponse(const std::vector<SecondOrderSection>& sections, double frequencyHz,
                                       double sampleRateHz)
{
    const double omega = 2.0 * std::numbers::pi * frequencyHz / sampleRateHz;
    const std::complex<double> zInv1 = std::polar(1.0, -omega);
    const std::complex<double> zInv2 = zInv1 * zInv1;
    std::complex<double> h = 1.0;
    for (const auto& s : sections)
        h *= (s.b0 + s.b1 * zInv1 + s.b2 * zInv2) / (1.0 + s.a1 * zInv1 + s.a2 * zInv2);
    return h;
}

}  // namespace sysid::data
