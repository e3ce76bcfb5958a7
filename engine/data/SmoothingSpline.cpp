#include "engine/data/SmoothingSpline.h"

#include <Eigen/Sparse>

#include <cmath>
#include <stdexcept>

namespace sysid::data {

// Reinsch's algorithm in the form of Green & Silverman, Nonparametric Regression and Generalized
// Linear Models (1994), sec. 2.3.3: (R + alpha Q'Q) gamma = Q'y, g = y - alpha Q gamma, gamma the
// second derivatives at the interior knots; slopes from the piecewise cubic (their eq. 2.5).
SmoothingSpline smoothingSpline(const std::vector<double>& t, const std::vector<double>& y, double alpha)
{
    const std::size_t n = t.size();
    if (n < 3 || y.size() != n)
        throw std::invalid_argument("smoothing spline: needs at least 3 samples");
    const auto m = static_cast<Eigen::Index>(n - 2);
    std::vector<double> h(n - 1);
    for (std::size_t i = 0; i + 1 < n; ++i)
        h[i] = t[i + 1] - t[i];
    // Q (n x (n-2)): column j (knot j+1) has 1/h_j, -1/h_j - 1/h_{j+1}, 1/h_{j+1} in rows j..j+2.
    Eigen::SparseMatrix<double> Q(static_cast<Eigen::Index>(n), m), R(m, m);
    std::vector<Eigen::Triplet<double>> q, r;
    for (Eigen::Index j = 0; j < m; ++j) {
        const double a = h[static_cast<std::size_t>(j)], b = h[static_cast<std::size_t>(j) + 1];
        q.emplace_back(j, j, 1.0 / a);
        q.emplace_back(j + 1, j, -1.0 / a - 1.0 / b);
        q.emplace_back(j + 2, j, 1.0 / b);
        r.emplace_back(j, j, (a + b) / 3.0);
        if (j + 1 < m) {
            r.emplace_back(j, j + 1, b / 6.0);
            r.emplace_back(j + 1, j, b / 6.0);
        }
    }
    Q.setFromTriplets(q.begin(), q.end());
    R.setFromTriplets(r.begin(), r.end());
    const Eigen::Map<const Eigen::VectorXd> Y(y.data(), static_cast<Eigen::Index>(n));
    const Eigen::SparseMatrix<double> A = R + alpha * Eigen::SparseMatrix<double>(Q.transpose() * Q);
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(A);
    if (solver.info() != Eigen::Success)
        throw std::runtime_error("smoothing spline: the band system is singular");
    const Eigen::VectorXd gamma = solver.solve(Q.transpose() * Y);
    const Eigen::VectorXd g = Y - alpha * (Q * gamma);

    SmoothingSpline s;
    s.alpha = alpha;
    s.values.assign(g.data(), g.data() + g.size());
    s.slopes.resize(n);
    auto second = [&](std::size_t i) { return (i == 0 || i == n - 1) ? 0.0 : gamma(static_cast<Eigen::Index>(i - 1)); };
    for (std::size_t i = 0; i + 1 < n; ++i)
        s.slopes[i] = (g(static_cast<Eigen::Index>(i + 1)) - g(static_cast<Eigen::Index>(i))) / h[i] -
            h[i] * (2.0 * second(i) + second(i + 1)) / 6.0;
    s.slopes[n - 1] = (g(static_cast<Eigen::Index>(n - 1)) - g(static_cast<Eigen::Index>(n - 2))) / h[n - 2] +
        h[n - 2] * (second(n - 2) + 2.0 * second(n - 1)) / 6.0;
    return s;
}

SmoothingSpline smoothingSplineForResidual(const std::vector<double>& t, const std::vector<double>& y,
                                           double residualRms)
{
    if (!(residualRms > 0))
        return smoothingSpline(t, y, 0.0);
    const double n = static_cast<double>(t.size());
    auto rms = [&](const SmoothingSpline& s) {
        double sum = 0.0;
        for (std::size_t i = 0; i < t.size(); ++i)
            sum += (y[i] - s.values[i]) * (y[i] - s.values[i]);
        return std::sqrt(sum / n);
    };
    // alpha scales like (step)^3 (R ~ h, Q'Q ~ 1/h^2): bisect log10(alpha) around that scale;
    // the residual grows monotonically with alpha.
    const double step = (t.back() - t.front()) / (n - 1);
    double low = std::log10(step * step * step) - 8, high = low + 24;
    SmoothingSpline best = smoothingSpline(t, y, std::pow(10.0, high));
    if (rms(best) <= residualRms)
        return best;
    for (int iteration = 0; iteration < 60; ++iteration) {
        const double middle = 0.5 * (low + high);
        SmoothingSpline s = smoothingSpline(t, y, std::pow(10.0, middle));
        if (rms(s) > residualRms) {
            high = middle;
        } else {
            low = middle;
            best = std::move(s);
        }
        if (high - low < 1e-3)
            break;
    }
    return best;
}

}  // namespace sysid::data
