#include "engine/estimate/Distributions.h"

#include <cmath>
#include <limits>
#include <numbers>

#include <math.h>  // lgamma_r: std::lgamma may set the global signgam, a race between fits on threads

namespace sysid::estimate {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
// Keeps the continued fractions' denominators off zero (modified Lentz).
constexpr double kTiny = 1e-300;
constexpr int kMaxTerms = 200000;

double logGamma(double x)
{
    int sign = 0;
    return ::lgamma_r(x, &sign);
}

// ln Gamma(a + b) - ln Gamma(a), for large a from Stirling's series (Abramowitz & Stegun 1964,
// 6.1.41) written as a difference, without the cancellation of two large lgamma values.
double logGammaRatio(double a, double b)
{
    if (a < 10.0)
        return logGamma(a + b) - logGamma(a);
    const auto series = [](double x) {
        const double x2 = 1.0 / (x * x);
        return (1.0 / 12.0 - x2 * (1.0 / 360.0 - x2 * (1.0 / 1260.0 - x2 / 1680.0))) / x;
    };
    return (a - 0.5) * std::log1p(b / a) + b * std::log(a + b) - b + (series(a + b) - series(a));
}

double offZero(double v)
{
    return std::fabs(v) < kTiny ? kTiny : v;
}

// The continued fraction of I_x(a, b), evaluated by the modified Lentz method (Press, Teukolsky,
// Vetterling & Flannery, Numerical Recipes, 3rd ed. 2007, section 6.4, betacf).
double betaContinuedFraction(double a, double b, double x)
{
    const double qab = a + b;
    const double qap = a + 1.0;
    const double qam = a - 1.0;
    double c = 1.0;
    double d = 1.0 / offZero(1.0 - qab * x / qap);
    double h = d;
    for (int m = 1; m <= kMaxTerms; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / offZero(1.0 + aa * d);
        c = offZero(1.0 + aa / c);
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / offZero(1.0 + aa * d);
        c = offZero(1.0 + aa / c);
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1.0) <= kEpsilon)
            break;
    }
    return h;
}

// exp(-x) x^a / Gamma(a): the common factor of P(a, x) and Q(a, x).
double gammaFactor(double a, double x)
{
    return std::exp(-x + a * std::log(x) - logGamma(a));
}

// P(a, x) by its series, for x < a + 1 (Numerical Recipes, 3rd ed. 2007, section 6.2, gser).
double gammaSeries(double a, double x)
{
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n <= kMaxTerms; ++n) {
        term *= x / (a + n);
        sum += term;
        if (std::fabs(term) < std::fabs(sum) * kEpsilon)
            break;
    }
    return sum * gammaFactor(a, x);
}

// Q(a, x) by its continued fraction, for x >= a + 1 (Numerical Recipes, 3rd ed. 2007, section 6.2, gcf).
double gammaContinuedFraction(double a, double x)
{
    double b = x + 1.0 - a;
    double c = 1.0 / kTiny;
    double d = 1.0 / b;
    double h = d;
    for (int i = 1; i <= kMaxTerms; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = 1.0 / offZero(an * d + b);
        c = offZero(b + an / c);
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1.0) <= kEpsilon)
            break;
    }
    return h * gammaFactor(a, x);
}

// The root of an increasing f in (lower, upper), f(lower) <= 0 <= f(upper), by Newton's method
// with `slope` = f', falling back to bisection when a step leaves the bracket.
template <class F, class Slope>
double increasingRoot(F f, Slope slope, double x, double lower, double upper)
{
    for (int i = 0; i < 300; ++i) {
        const double value = f(x);
        if (value == 0.0)
            return x;
        (value < 0.0 ? lower : upper) = x;
        double next = x - value / slope(x);
        if (!(next > lower && next < upper))
            next = 0.5 * (lower + upper);
        if (std::fabs(next - x) <= 4.0 * kEpsilon * std::fabs(next) || upper - lower <= 4.0 * kEpsilon * upper)
            return next;
        x = next;
    }
    return x;
}

// An upper end for the root of an increasing f, doubling from `start` > 0.
template <class F>
double upperBracket(F f, double start)
{
    double upper = start;
    while (f(upper) < 0.0 && std::isfinite(upper))
        upper *= 2.0;
    return upper;
}

}  // namespace

double regularizedBeta(double x, double a, double b)
{
    if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0))
        return kNaN;
    if (x == 0.0 || x == 1.0)
        return x;
    const double logBeta = a >= b ? logGammaRatio(a, b) - logGamma(b) : logGammaRatio(b, a) - logGamma(a);
    const double front = std::exp(logBeta + a * std::log(x) + b * std::log1p(-x));
    // The fraction converges fast on this side of the mean; the other side by I_x(a, b) = 1 - I_1-x(b, a).
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1.0 - front * betaContinuedFraction(b, a, 1.0 - x) / b;
}

double regularizedGammaP(double a, double x)
{
    if (!(a > 0.0 && x >= 0.0))
        return kNaN;
    if (x == 0.0)
        return 0.0;
    return x < a + 1.0 ? gammaSeries(a, x) : 1.0 - gammaContinuedFraction(a, x);
}

double regularizedGammaQ(double a, double x)
{
    if (!(a > 0.0 && x >= 0.0))
        return kNaN;
    if (x == 0.0)
        return 1.0;
    return x < a + 1.0 ? 1.0 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

double normalUpperQuantile(double q)
{
    if (!(q > 0.0 && q < 1.0))
        return kNaN;
    if (q > 0.5)
        return -normalUpperQuantile(1.0 - q);  // 1 - q is exact here
    if (q == 0.5)
        return 0.0;
    // A start within 4.5e-4 (Abramowitz & Stegun 1964, 26.2.23), then Halley's iteration on
    // Q(z) = erfc(z / sqrt 2) / 2, which erfc gives to full relative precision in the upper tail.
    const double t = std::sqrt(-2.0 * std::log(q));
    double z = t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
    for (int i = 0; i < 4; ++i) {
        const double error = 0.5 * std::erfc(z / std::numbers::sqrt2) - q;
        const double u = error * std::sqrt(2.0 * std::numbers::pi) * std::exp(0.5 * z * z);
        const double next = z + u / (1.0 - 0.5 * z * u);
        if (!std::isfinite(next))
            break;
        z = next;
    }
    return z;
}

double studentTQuantile(double p, double dof)
{
    if (!(p > 0.0 && p < 1.0 && dof > 0.0))
        return kNaN;
    if (p < 0.5)
        return -studentTQuantile(1.0 - p, dof);
    if (p == 0.5)
        return 0.0;
    const double q = 1.0 - p;  // the upper tail, exact for p >= 1/2
    if (dof == 1.0)
        return 1.0 / std::tan(std::numbers::pi * q);  // the Cauchy distribution; tan(pi (p - 1/2)) loses q's digits
    if (dof == 2.0)
        return (2.0 * p - 1.0) / std::sqrt(2.0 * p * q);
    // The expansion of t in z and 1/dof (Abramowitz & Stegun 1964, 26.7.5): its next term is below
    // 6e-13 relative for dof > 2000 and p up to 1 - 1e-6; a start for Newton's method below that,
    // good to 3e-13 there (the rounding of dof / (dof + t^2) grows with dof).
    const double z = normalUpperQuantile(q);
    const double z2 = z * z;
    const double g1 = z * (z2 + 1.0) / 4.0;
    const double g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    const double g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    const double g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    const double expansion = z + (g1 + (g2 + (g3 + g4 / dof) / dof) / dof) / dof;
    if (dof > 2000.0)
        return expansion;
    // P(T > t) = I_{dof / (dof + t^2)}(dof / 2, 1 / 2) / 2 for t > 0.
    const double half = 0.5 * dof;
    const double logDensityScale = logGammaRatio(half, 0.5) - 0.5 * std::log(dof * std::numbers::pi);
    const auto f = [&](double t) { return q - 0.5 * regularizedBeta(dof / (dof + t * t), half, 0.5); };
    const auto density = [&](double t) { return std::exp(logDensityScale - (half + 0.5) * std::log1p(t * t / dof)); };
    const double start = expansion > 0.0 ? expansion : 1.0;
    return increasingRoot(f, density, start, 0.0, upperBracket(f, start));
}

double chiSquaredQuantile(double p, double k)
{
    if (!(p >= 0.0 && p < 1.0 && k > 0.0))
        return kNaN;
    if (p == 0.0)
        return 0.0;
    const double a = 0.5 * k;
    // F(x) - p, from the upper tail above the median for its relative precision there.
    const auto f = [&](double x) {
        return p <= 0.5 ? regularizedGammaP(a, 0.5 * x) - p : (1.0 - p) - regularizedGammaQ(a, 0.5 * x);
    };
    const double logScale = -a * std::numbers::ln2 - logGamma(a);
    const auto density = [&](double x) { return std::exp(logScale + (a - 1.0) * std::log(x) - 0.5 * x); };
    // The Wilson-Hilferty start (Wilson & Hilferty 1931): (X / k)^(1/3) is nearly normal.
    const double c = 2.0 / (9.0 * k);
    const double cube = 1.0 - c + normalUpperQuantile(1.0 - p) * std::sqrt(c);
    const double start = cube > 0.0 ? k * cube * cube * cube : 0.5 * k;
    return increasingRoot(f, density, start, 0.0, upperBracket(f, start));
}

double binomialUpperTail(double k, double n, double probability)
{
    if (!(n >= 0.0 && probability >= 0.0 && probability <= 1.0) || std::isnan(k))
        return kNaN;
    k = std::floor(k);
    if (k < 0.0)
        return 1.0;
    if (k >= n)
        return 0.0;
    // P(X > k) = I_p(k + 1, n - k).
    return regularizedBeta(probability, k + 1.0, n - k);
}

}  // namespace sysid::estimate
