#pragma once

#include "engine/core/EnumTable.h"

#include <array>

namespace sysid::integrate {

// How a sampled input behaves between its samples.
enum class Intersample {
    Hold,  // zero-order hold: each sample's value until the next (a sampled, piecewise-constant signal)
    Linear,  // straight lines between samples
    Spline,  // the not-a-knot cubic spline through the samples (smooth, band-limited signals)
};

inline constexpr core::EnumTable intersampleTable{
    "intersample behaviour",
    std::array{
        core::EnumSpelling<Intersample>{Intersample::Hold, "hold",
                                        "zero-order hold: each sample's value until the next sample"},
        core::EnumSpelling<Intersample>{Intersample::Linear, "linear", "straight lines between the samples"},
        core::EnumSpelling<Intersample>{Intersample::Spline, "spline",
                                        "cubic spline through the samples, for smooth band-limited signals"},
    }};

}  // namespace sysid::integrate
