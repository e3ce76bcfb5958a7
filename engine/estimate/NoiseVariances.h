#pragma once

#include "engine/estimate/Experiment.h"

#include <Eigen/Dense>

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace sysid::estimate {

// Output noise as the likelihood sees it (Vankan 1992, eq. 2.12-2.13): independent Gaussian noise of
// variance sigma_j^2 on output j, the same in every data set that measures it (one sensor, one noise level).

// The residuals of one output over the data sets: M_jj and n_j of eq. 2.12-2.13.
struct OutputSquares {
    double squares = 0.0;  // sum of the squared unweighted residuals
    std::size_t samples = 0;  // 0: no data set measures the output
};

// An output's noise level estimated with the parameters (maximum likelihood).
struct NoiseEstimate {
    std::string output;
    double value = 0.0;  // sigma_j = sqrt(M_jj / n_j)
    double sd = 0.0;  // its standard deviation, sigma_j / sqrt(2 n_j)
    std::size_t samples = 0;  // n_j
    std::string unit;  // the output's unit; empty: none given
};

// The Gaussian likelihood of a fit's output residuals, each output's noise variance at its
// maximum-likelihood value M_jj / n_j given them: -2 ln L = sum_j n_j (ln(2 pi M_jj / n_j) + 1).
// For information criteria: AIC = minusTwoLog + 2 (parameters + noiseVariances).
struct Likelihood {
    double minusTwoLog = std::numeric_limits<double>::quiet_NaN();  // NaN: not an output fit, or an exact fit
    std::size_t samples = 0;  // sum of n_j
    std::size_t noiseVariances = 0;  // outputs with residuals: each has its variance estimated
    std::size_t parameters = 0;  // the fit's unknowns
};

// "VALUE (N samples, s noise variances)": -2 ln L to 10 digits and what it rests on, for reports.
std::string describe(const Likelihood& likelihood);

// Per model output, the residual sums over the experiments that measure it; outputs[e] holds experiment
// e's model outputs (samples x outputs), an empty matrix where it has none.
std::vector<OutputSquares> outputSquares(const std::vector<Experiment>& experiments,
                                         const std::vector<Eigen::MatrixXd>& outputs, std::size_t outputCount);

// The least variance an estimate of output j's noise may have: 1e-12 of the mean square of its
// measured values (so a noise-free record cannot give an infinite weight), 0 for an output
// none measures.
std::vector<double> noiseVarianceFloors(const std::vector<Experiment>& experiments, std::size_t outputCount);

// sigma_j^2 = max(M_jj / n_j, floor_j), the variance that maximises the likelihood given the residuals
// (above the floor); 0 for an output without samples.
double estimatedVariance(const OutputSquares& output, double floor);

// -ln L of the residuals with each variance at its estimate (estimatedVariance):
// sum_j n_j/2 ln(2 pi sigma_j^2) + M_jj / (2 sigma_j^2), which is sum_j n_j/2 (ln(2 pi M_jj/n_j) + 1)
// away from the floors (eq. 2.12 with sigma_j^2 maximised out).
double negativeLogLikelihood(const std::vector<OutputSquares>& outputs, const std::vector<double>& floors);

// The likelihood of a fit with `parameters` unknowns whose residuals are `outputs` (no floors).
Likelihood likelihoodOf(const std::vector<OutputSquares>& outputs, std::size_t parameters);

// sigma_j with its standard deviation for each measured output. The variances are asymptotically
// uncorrelated with the parameters (the Fisher information of a Gaussian model is block diagonal,
// Seber & Wild 1989, ch. 2), and var(M_jj / n_j) = 2 sigma_j^4 / n_j, so sd(sigma_j) =
// sigma_j / sqrt(2 n_j) by the delta method. No degrees of freedom are taken off: the parameters are
// shared by the outputs, so no output owns them.
std::vector<NoiseEstimate> noiseEstimates(const std::vector<OutputSquares>& outputs, const std::vector<double>& floors,
                                          const std::vector<std::string>& outputNames,
                                          const std::vector<std::string>& outputUnits);

}  // namespace sysid::estimate
