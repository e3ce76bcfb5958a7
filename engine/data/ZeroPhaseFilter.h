#pragma once

#include "engine/core/EnumTable.h"
#include "engine/data/Butterworth.h"

#include <array>
#include <cstddef>
#include <vector>

namespace sysid::data {

// How the forward-backward filter treats the ends of a record, where the signal before and after
// it is unknown.
enum class FilterEnds { LeastSquares, Odd };

inline constexpr core::EnumTable kFilterEnds{
    "filter ends",
    std::to_array<core::EnumSpelling<FilterEnds>>({
        {.value = FilterEnds::LeastSquares,
         .name = "least-squares",
         .description = "the filter's start and end transients are chosen so that the filtered record follows the "
                        "data at both ends in least squares; nothing is assumed about the signal outside the record",
         .label = "least squares (follow the data)"},
        {.value = FilterEnds::Odd,
         .name = "odd",
         .description = "the record is extended by odd reflection about its end samples (SciPy's sosfiltfilt); "
                        "this bends a record that starts at an impulse or in mid-swing",
         .label = "odd reflection"},
    })};

// Number of samples added by odd reflection at each end of the signal by
// filtFilt when the signal is long enough: 3 * (2 * sections + 1), less 3 when a
// section is first-order (SciPy's sosfiltfilt default padlen).
std::size_t defaultPadLength(const std::vector<SecondOrderSection>& sections);

// Shortest signal filtFilt accepts: the number of coefficients of the cascade's
// denominator (filter order + 1), at least 2.
std::size_t minimumFilterLength(const std::vector<SecondOrderSection>& sections);

// Samples until a transient of the cascade (its slowest pole, |p|^k) has decayed to `fraction` of
// its start; 0 for no sections. A transient of the zero-phase filter at an end of a record lasts
// about this long (the forward and the backward pass each have it).
std::size_t settlingSamples(const std::vector<SecondOrderSection>& sections, double fraction);

// The gain |H(f)|^2 of the forward-backward filter at each frequency (Hz) for the sample rate.
std::vector<double> zeroPhaseGain(const std::vector<SecondOrderSection>& sections,
                                  const std::vector<double>& frequencyHz, double sampleRateHz);

// Zero-phase filtering (forward then backward through the sections, as SciPy's sosfiltfilt). The
// result has the signal's length, zero phase and magnitude |H|^2 away from the ends. At the ends:
//  LeastSquares: the forward pass starts from the state s_L at the first sample and the backward
//    pass from the state s_R at the last one; the output is affine in (s_L, s_R), and they are
//    chosen to minimise the squared difference between output and signal. Every extension of the
//    record beyond its ends gives some (s_L, s_R), so this is the extension whose filtered record
//    follows the data best; a signal the filter passes (a constant, a ramp, a slow sinusoid, a
//    decaying oscillation from an impulse) comes out without an edge transient.
//  Odd: the signal is extended at both ends by odd reflection about its end samples, by
//    min(defaultPadLength, size - 1) samples; every section starts in its steady state for the
//    first (then, backwards, the last) extended sample (as lfilter_zi / sosfilt_zi).
// No sections returns the signal unchanged. Throws std::invalid_argument for a signal shorter than
// minimumFilterLength (naming that length) or holding non-finite values.
std::vector<double> filtFilt(const std::vector<SecondOrderSection>& sections, const std::vector<double>& signal,
                             FilterEnds ends = FilterEnds::LeastSquares);

}  // namespace sysid::data
