#include "engine/data/ZeroPhaseFilter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::data {

namespace {

using State = std::array<double, 2>;

// Steady state of a section in transposed direct form II for a unit input:
// z2 = b2 - a2 G, z1 = b1 - a1 G + z2 with G = H(1) (the same as scipy.signal.lfilter_zi).
State unitStepState(const SecondOrderSection& s, double dcGain)
{
    const double z2 = s.b2 - s.a2 * dcGain;
    const double z1 = s.b1 - s.a1 * dcGain + z2;
    return {z1, z2};
}

double dcGainOf(const SecondOrderSection& s)
{
    return (s.b0 + s.b1 + s.b2) / (1.0 + s.a1 + s.a2);
}

// Steady states of the cascade for a unit input: a section sees the DC gain of those before it.
std::vector<State> cascadeSteadyState(const std::vector<SecondOrderSection>& sections)
{
    std::vector<State> zi;
    double scale = 1;
    for (const auto& s : sections) {
        const double g = dcGainOf(s);
        const State unit = unitStepState(s, g);
        zi.push_back({unit[0] * scale, unit[1] * scale});
        scale *= g;
    }
    return zi;
}

// Runs x through the cascade in place, each section in transposed direct form II
// starting from initial state zi * x[0].
void filterInPlace(const std::vector<SecondOrderSection>& sections, const std::vector<State>& zi,
                   std::vector<double>& x)
{
    const double x0 = x.front();
    for (std::size_t k = 0; k < sections.size(); ++k) {
        const auto& s = sections[k];
        double z1 = zi[k][0] * x0;
        double z2 = zi[k][1] * x0;
        for (double& v : x) {
            const double in = v;
            const double out = s.b0 * in + z1;
            z1 = s.b1 * in - s.a1 * out + z2;
            z2 = s.b2 * in - s.a2 * out;
            v = out;
        }
    }
}

}  // namespace

std::size_t defaultPadLength(const std::vector<SecondOrderSection>& sections)
{
    std::size_t taps = 2 * sections.size() + 1;
    std::size_t zeroB2 = 0, zeroA2 = 0;
    for (const auto& s : sections) {
        zeroB2 += s.b2 == 0 ? 1 : 0;
        zeroA2 += s.a2 == 0 ? 1 : 0;
    }
    taps -= std::min(zeroB2, zeroA2);
    return 3 * taps;
}

std::size_t minimumFilterLength(const std::vector<SecondOrderSection>& sections)
{
    return std::max<std::size_t>(2, defaultPadLength(sections) / 3);
}

// Forward-backward (zero-phase) filtering: Gustafsson, "Determining the initial states in forward-backward filtering",
// IEEE Trans. Signal Processing 44(4), 1996, sec. I; padding and initial states as scipy.signal.sosfiltfilt (method
// "pad").
std::vector<double> filtFilt(const std::vector<SecondOrderSection>& sections, const std::vector<double>& signal)
{
    for (std::size_t i = 0; i < signal.size(); ++i)
        if (!std::isfinite(signal[i]))
            throw std::invalid_argument("zero-phase filter: sample " + std::to_string(i + 1) +
                                        " is not a finite number; expected finite values");
    if (sections.empty())
        return signal;
    const std::size_t n = signal.size();
    const std::size_t needed = minimumFilterLength(sections);
    if (n < needed)
        throw std::invalid_argument("zero-phase filter: the signal has " + std::to_string(n) +
                                    " samples; this filter needs at least " + std::to_string(needed));
    const std::size_t pad = std::min(defaultPadLength(sections), n - 1);

    std::vector<double> x;
    x.reserve(n + 2 * pad);
    const double first = signal.front();
    const double last = signal.back();
    for (std::size_t i = pad; i >= 1; --i)
        x.push_back(2.0 * first - signal[i]);
    x.insert(x.end(), signal.begin(), signal.end());
    for (std::size_t i = 1; i <= pad; ++i)
        x.push_back(2.0 * last - signal[n - 1 - i]);

    const std::vector<State> zi = cascadeSteadyState(sections);
    filterInPlace(sections, zi, x);
    std::reverse(x.begin(), x.end());
    filterInPlace(sections, zi, x);
    std::reverse(x.begin(), x.end());
    return {x.begin() + static_cast<std::ptrdiff_t>(pad), x.begin() + static_cast<std::ptrdiff_t>(pad + n)};
}

}  // namespace sysid::data
