#pragma once

#include "engine/data/Butterworth.h"

#include <cstddef>
#include <vector>

namespace sysid::data {

// Number of samples added by odd reflection at each end of the signal by
// filtFilt when the signal is long enough: 3 * (2 * sections + 1), less 3 when a
// section is first-order (SciPy's sosfiltfilt default padlen).
std::size_t defaultPadLength(const std::vector<SecondOrderSection>& sections);

// Shortest signal filtFilt accepts: the number of coefficients of the cascade's
// denominator (filter order + 1), at least 2.
std::size_t minimumFilterLength(const std::vector<SecondOrderSection>& sections);

// Zero-phase filtering (forward then backward through the sections, as SciPy's
// sosfiltfilt): the signal is extended at both ends by odd reflection about its
// end samples, by min(defaultPadLength, size - 1) samples; every section starts
// in its steady state for the first (then, backwards, the last) extended sample
// (as lfilter_zi / sosfilt_zi), so constants and slow ramps pass without an edge
// transient. The result has the signal's length, zero phase and magnitude |H|^2.
// No sections returns the signal unchanged. Throws std::invalid_argument for a
// signal shorter than minimumFilterLength (naming that length) or holding
// non-finite values.
std::vector<double> filtFilt(const std::vector<SecondOrderSection>& sections, const std::vector<double>& signal);

}  // namespace sysid::data
