#pragma once

// The quantiles and tails behind the estimates' intervals and the residual tests: normal,
// Student's t, chi-squared and binomial, in double precision. Written here rather than taken from
// Boost.Math, whose special functions run long-double initialisers at the start of every process
// that links them, used or not (docs/DECISIONS.md, "Distributions without start-up cost").
// Arguments outside a function's domain give NaN.
namespace sysid::estimate {

// z with P(Z > z) = q for the standard normal Z, 0 < q < 1.
double normalUpperQuantile(double q);

// t with P(T <= t) = p for Student's t with `dof` degrees of freedom (dof > 0), 0 < p < 1.
double studentTQuantile(double p, double dof);

// x with P(X <= x) = p for the chi-squared distribution with k degrees of freedom (k > 0), 0 <= p < 1.
double chiSquaredQuantile(double p, double k);

// P(X > k) for X binomial with n trials of probability `probability` each.
double binomialUpperTail(double k, double n, double probability);

// The regularised incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1.
double regularizedBeta(double x, double a, double b);

// The regularised incomplete gamma functions P(a, x) and Q(a, x) = 1 - P(a, x), a > 0, x >= 0.
double regularizedGammaP(double a, double x);
double regularizedGammaQ(double a, double x);

}  // namespace sysid::estimate
