#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/job/PreparedFit.h"

#include <optional>
#include <vector>

namespace sysid::job {

// The objective a profile follows: -2 log L up to a constant for Gaussian output noise whose
// variance is w_j^-1 s^2 on output j (w the fit's output weights), with s^2 the residual variance at
// the optimum, sum w r^2 / (m - p), as the fit's covariance uses it, plus sum ((theta - mean)/sd)^2
// over the priors (bayes): sum w r^2 / s^2 + sum ((theta - mean)/sd)^2. For a model linear in its
// parameters its profile is a parabola whose width is the Wald interval's. Where the residuals
// vanish (noise-free data) s^2 = 1, trusting the weights as inverse noise variances; so it is with
// priors, which the fit weighs against w r^2 as they stand (scaling the data by s^2 would move the
// minimum away from the fit's estimate; the fit's covariance does scale them, so with priors the
// profile interval matches the Wald interval only as far as s^2 is 1).
// A method that estimates the noise variances with the parameters (maximum likelihood) minimises
// -ln L with them maximised out (the profile likelihood of Vankan 1992, eq. 2.13): its objective is
// 2 cost, s^2 = 1.
class ProfileObjective {
public:
    ProfileObjective(const PreparedFit& prepared, const estimate::FitResult& optimum);

    double residualVariance() const { return residualVariance_; }

    // Every unknown of the fit (PreparedFit::unknowns() order) at a result of it; `held` is the
    // unknown held at `value` in that fit, which the result does not list.
    std::vector<double> unknownsOf(const estimate::FitResult& fit, std::optional<std::size_t> held = std::nullopt,
                                   double value = 0) const;

    // The objective at a fit's result, `unknowns` = unknownsOf(fit, ...).
    double operator()(const estimate::FitResult& fit, const std::vector<double>& unknowns) const;

private:
    double priorSquares(const std::vector<double>& unknowns, const estimate::FitResult* onlyFitted) const;

    const PreparedFit& prepared_;
    double residualVariance_ = 1;
};

}  // namespace sysid::job
