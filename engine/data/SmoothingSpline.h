#pragma once

#include <vector>

namespace sysid::data {

// A cubic smoothing spline g through samples (t_i, y_i): the minimiser of
// sum (y_i - g(t_i))^2 + alpha * integral g''^2 (a natural cubic spline with knots at t_i).
struct SmoothingSpline {
    std::vector<double> values;  // g(t_i)
    std::vector<double> slopes;  // g'(t_i)
    double alpha = 0.0;
};

// The spline for a given alpha >= 0 (0 interpolates). Needs >= 3 samples and strictly
// increasing, finite time (checked by the caller, data::differentiate).
SmoothingSpline smoothingSpline(const std::vector<double>& t, const std::vector<double>& y, double alpha);

// The spline whose residual RMS sqrt(sum (y_i - g_i)^2 / n) equals residualRms (Reinsch's
// choice of the smoothing with the noise level; residualRms <= 0 interpolates, and a level
// above the least-squares line's residual gives that line).
SmoothingSpline smoothingSplineForResidual(const std::vector<double>& t, const std::vector<double>& y,
                                           double residualRms);

}  // namespace sysid::data
