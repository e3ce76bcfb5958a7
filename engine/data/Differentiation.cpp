#include "engine/data/Differentiation.h"

#include "engine/data/Noise.h"
#include "engine/data/SmoothingSpline.h"
#include "engine/data/Text.h"
#include "engine/data/UniformTime.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::data {

namespace {

void checkTime(const std::vector<double>& time, const std::vector<double>& values, const std::string& what)
{
    if (time.size() != values.size())
        throw std::invalid_argument(what + ": " + std::to_string(time.size()) + " times but " +
                                    std::to_string(values.size()) + " values; expected the same number");
    for (std::size_t i = 0; i < time.size(); ++i) {
        if (!std::isfinite(time[i]))
            throw std::invalid_argument(what + ": time sample " + std::to_string(i + 1) +
                                        " is not finite; expected finite times");
        if (i > 0 && !(time[i] > time[i - 1]))
            throw std::invalid_argument(what + ": time " + formatDouble(time[i]) + " (sample " + std::to_string(i + 1) +
                                        ") does not increase from " + formatDouble(time[i - 1]) +
                                        "; expected strictly increasing time");
    }
}

// Three-point second-order formulas on an arbitrary grid: Fornberg, "Generation of finite
// difference formulas on arbitrarily spaced grids", Math. Comp. 51 (1988) 699-706 (three-point weights).
std::vector<double> centralDifference(const std::vector<double>& t, const std::vector<double>& f)
{
    const std::size_t n = t.size();
    std::vector<double> d(n);
    if (n == 2) {
        d[0] = d[1] = (f[1] - f[0]) / (t[1] - t[0]);
        return d;
    }
    for (std::size_t i = 1; i + 1 < n; ++i) {
        const double h1 = t[i] - t[i - 1];
        const double h2 = t[i + 1] - t[i];
        d[i] = -h2 / (h1 * (h1 + h2)) * f[i - 1] + (h2 - h1) / (h1 * h2) * f[i] + h1 / (h2 * (h1 + h2)) * f[i + 1];
    }
    {
        const double h1 = t[1] - t[0];
        const double h2 = t[2] - t[1];
        d[0] = -(2.0 * h1 + h2) / (h1 * (h1 + h2)) * f[0] + (h1 + h2) / (h1 * h2) * f[1] - h1 / (h2 * (h1 + h2)) * f[2];
    }
    {
        const double h1 = t[n - 2] - t[n - 3];
        const double h2 = t[n - 1] - t[n - 2];
        d[n - 1] = h2 / (h1 * (h1 + h2)) * f[n - 3] - (h1 + h2) / (h1 * h2) * f[n - 2] +
            (2.0 * h2 + h1) / (h2 * (h1 + h2)) * f[n - 1];
    }
    return d;
}

// Weights w_j such that sum_j w_j y_j is the slope (per sample interval) at sample
// `at` of the least-squares polynomial of `order` through y_0 .. y_{length-1}.
Eigen::VectorXd savitzkyGolayWeights(int length, int order, int at)
{
    // Local coordinate scaled to [-1, 1] so the Vandermonde columns are of similar size.
    const double scale = std::max(1, length - 1);
    Eigen::MatrixXd V(length, order + 1);
    for (int j = 0; j < length; ++j) {
        const double u = static_cast<double>(j - at) / scale;
        double power = 1;
        for (int m = 0; m <= order; ++m) {
            V(j, m) = power;
            power *= u;
        }
    }
    const Eigen::MatrixXd pseudoInverse = V.colPivHouseholderQr().solve(Eigen::MatrixXd::Identity(length, length));
    return pseudoInverse.row(1).transpose() / scale;
}

// Savitzky & Golay, Anal. Chem. 36 (1964) 1627; end windows shifted inside the data as in
// Press et al., Numerical Recipes, 3rd ed., sec. 14.9 (weights for any evaluation point).
std::vector<double> savitzkyGolay(const std::vector<double>& t, const std::vector<double>& f, int window, int order)
{
    if (window < 3 || window % 2 == 0)
        throw std::invalid_argument("Savitzky-Golay derivative: window " + std::to_string(window) +
                                    "; expected an odd number of samples >= 3");
    if (order < 1 || order >= window)
        throw std::invalid_argument("Savitzky-Golay derivative: polynomial order " + std::to_string(order) +
                                    " with window " + std::to_string(window) + "; expected 1 <= order < window");
    const double dt = uniformTimeStep(t, "Savitzky-Golay derivative");
    const int n = static_cast<int>(t.size());
    const int length = std::min(window, n);
    const int p = std::min(order, length - 1);
    const int half = length / 2;

    std::vector<Eigen::VectorXd> weights(static_cast<std::size_t>(length));
    std::vector<bool> have(static_cast<std::size_t>(length), false);
    std::vector<double> d(t.size());
    for (int i = 0; i < n; ++i) {
        const int start = std::clamp(i - half, 0, n - length);
        const int at = i - start;
        const auto k = static_cast<std::size_t>(at);
        if (!have[k]) {
            weights[k] = savitzkyGolayWeights(length, p, at);
            have[k] = true;
        }
        double sum = 0;
        for (int j = 0; j < length; ++j)
            sum += weights[k](j) * f[static_cast<std::size_t>(start + j)];
        d[static_cast<std::size_t>(i)] = sum / dt;
    }
    return d;
}

}  // namespace

std::vector<double> differentiate(const std::vector<double>& time, const std::vector<double>& values,
                                  DerivativeMethod method, int window, int polynomialOrder)
{
    const std::string what = method == DerivativeMethod::SavitzkyGolay ? "Savitzky-Golay derivative"
        : method == DerivativeMethod::SmoothingSpline                  ? "smoothing-spline derivative"
                                                                       : "central-difference derivative";
    checkTime(time, values, what);
    const std::size_t minimum = method == DerivativeMethod::SmoothingSpline ? 3 : 2;
    if (time.size() < minimum)
        throw std::invalid_argument(what + ": " + std::to_string(time.size()) + " samples; expected at least " +
                                    std::to_string(minimum));
    if (method == DerivativeMethod::SavitzkyGolay)
        return savitzkyGolay(time, values, window, polynomialOrder);
    if (method == DerivativeMethod::SmoothingSpline) {
        for (std::size_t i = 0; i < values.size(); ++i)
            if (!std::isfinite(values[i]))
                throw std::invalid_argument(what + ": value " + std::to_string(i + 1) + " is not finite");
        return smoothingSplineForResidual(time, values, noiseSd(time, values.data())).slopes;
    }
    return centralDifference(time, values);
}

// Composite trapezoidal rule: Press et al., Numerical Recipes, 3rd ed., sec. 4.1.
std::vector<double> integrateTrapezoid(const std::vector<double>& time, const std::vector<double>& values,
                                       double initial)
{
    checkTime(time, values, "trapezoidal integral");
    std::vector<double> out(time.size());
    if (time.empty())
        return out;
    out[0] = initial;
    for (std::size_t i = 1; i < time.size(); ++i)
        out[i] = out[i - 1] + 0.5 * (time[i] - time[i - 1]) * (values[i] + values[i - 1]);
    return out;
}

std::optional<DerivativeMethod> parseDerivativeMethod(std::string_view name)
{
    return kDerivativeMethods.parse(name);
}

std::string_view derivativeMethodName(DerivativeMethod method)
{
    return kDerivativeMethods.name(method);
}

}  // namespace sysid::data
