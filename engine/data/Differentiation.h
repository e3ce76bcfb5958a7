#pragma once

#include "engine/core/EnumTable.h"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace sysid::data {

enum class DerivativeMethod { CentralDifference, SavitzkyGolay, SmoothingSpline };

inline constexpr core::EnumTable kDerivativeMethods{
    "differentiation method",
    std::to_array<core::EnumSpelling<DerivativeMethod>>({
        {.value = DerivativeMethod::CentralDifference,
         .name = "central",
         .description = "second-order central differences",
         .label = "central differences"},
        {.value = DerivativeMethod::SavitzkyGolay,
         .name = "savitzky-golay",
         .description = "the slope of a least-squares polynomial over a sliding window (Savitzky and Golay 1964)",
         .label = "Savitzky–Golay"},
        {.value = DerivativeMethod::SmoothingSpline,
         .name = "smoothing-spline",
         .description = "the slope of a cubic smoothing spline whose smoothing follows the noise level it estimates "
                        "in the data (Reinsch 1967)",
         .label = "smoothing spline"},
    }),
    true};

// Derivative of sampled values with respect to time, same length as the input.
//  CentralDifference: second-order central differences, second-order one-sided
//    (three-point) formulas at the ends; any strictly increasing time; exact for
//    quadratics. Two samples give their slope at both. window and
//    polynomialOrder are not used.
//  SavitzkyGolay: uniform time (to 1e-9 relative); at every sample the
//    derivative of the least-squares polynomial of polynomialOrder fitted to
//    `window` samples around it; near the ends the window is shifted so that it
//    stays inside the data (shrunk to the data, and the order to size - 1, when
//    the data are shorter than the window); exact for polynomials up to
//    polynomialOrder. window odd, >= 3, > polynomialOrder >= 1.
//  SmoothingSpline: the slope of the cubic smoothing spline whose residual RMS equals the
//    noise level estimated from the data (data::noiseSd; Reinsch 1967); any strictly
//    increasing time, at least 3 samples. window and polynomialOrder are not used.
// Throws std::invalid_argument for fewer than 2 samples, lengths that differ,
// time that is not finite and strictly increasing (or not uniform for
// SavitzkyGolay), or window and order out of range.
std::vector<double> differentiate(const std::vector<double>& time, const std::vector<double>& values,
                                  DerivativeMethod method, int window = 7, int polynomialOrder = 3);

// Cumulative integral by the trapezoidal rule: result[0] = initial,
// result[i] = result[i-1] + (t[i] - t[i-1]) (v[i] + v[i-1]) / 2; exact for
// linear functions. Throws std::invalid_argument for lengths that differ or
// time that is not finite and strictly increasing. Empty input gives empty output.
std::vector<double> integrateTrapezoid(const std::vector<double>& time, const std::vector<double>& values,
                                       double initial = 0);

// "central", "savitzky-golay" or "smoothing-spline" (any letter case); nullopt otherwise.
std::optional<DerivativeMethod> parseDerivativeMethod(std::string_view name);
// "central", "savitzky-golay" or "smoothing-spline".
std::string_view derivativeMethodName(DerivativeMethod method);

}  // namespace sysid::data
