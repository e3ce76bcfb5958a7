#pragma once

#include "engine/eval/CompiledModelSource.h"
#include "engine/estimate/Experiment.h"

#include <Eigen/Dense>

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace sysid::estimate {

// Residual analysis as Ljung (1999, System Identification, §16.6) describes it and MATLAB's `resid`
// draws it: a model that has captured the dynamics leaves residuals that are white (uncorrelated
// with their own past) and uncorrelated with past inputs.

inline constexpr int defaultResidualMaxLag = 25;  // as MATLAB's resid
inline constexpr double residualConfidence = 0.99;  // the bounds are 99 % intervals

// Normalised correlations at integer lags (in samples) with the 99 % bound a sequence without
// correlation stays within at each lag.
struct Correlation {
    std::vector<int> lags;
    std::vector<double> values;  // in [-1, 1]
    double bound = std::numeric_limits<double>::quiet_NaN();  // ±bound; NaN: cannot be determined
    std::size_t tested = 0;  // lags compared with the bound (an autocorrelation's lag 0 is 1 by definition)
    std::size_t outside = 0;  // of those, lags with |value| > bound
    // What a sequence without correlation shows except with probability 1 %: no more lags outside
    // than the binomial B(tested, 0.01) exceeds with that probability, and none beyond the joint
    // (Bonferroni) bound of all tested lags. False when there is no bound.
    bool passes() const;
};

// The residuals' cross-correlation with one input.
struct InputCorrelation {
    std::string input;
    Correlation correlation;  // lags -L..L; lag τ pairs e(t) with u(t - τ)
};

struct OutputResidualAnalysis {
    std::string output;
    std::size_t samples = 0;  // N, over all records
    Correlation autocorrelation;  // lags 0..L
    std::vector<InputCorrelation> inputs;  // each input that varies, in the model's order
    bool white() const { return autocorrelation.passes(); }
};

// Per measured output whose residuals are not all equal (in the model's order).
struct ResidualAnalysis {
    std::vector<OutputResidualAnalysis> outputs;
};

// One record's residuals of an output and its inputs at the same samples (samples x inputs).
struct ResidualRecord {
    Eigen::VectorXd residuals;
    Eigen::MatrixXd inputs;
};

// The analysis of one output from its records. Each record's mean is removed from its residuals
// and inputs, products are summed within records only, and the sums are divided by N, the
// samples of all records: R_e(τ) = 1/N Σ e(t) e(t - τ), R_eu(τ) = 1/N Σ e(t) u(t - τ). The
// autocorrelation is R_e(τ)/R_e(0) for τ = 0..L, the cross-correlation R_eu(τ)/√(R_u(0) R_e(0))
// for τ = -L..L (L = min(maxLag, N - 1)). Inputs that do not vary are left out. `samples` is 0
// (nothing analysed) when the residuals do not vary or are not finite.
OutputResidualAnalysis analyseResiduals(std::string output, const std::vector<ResidualRecord>& records,
                                        const std::vector<std::string>& inputNames, int maxLag = defaultResidualMaxLag);

// The analysis of a fit: experiment e's residuals measured - outputs[e] (samples x model outputs),
// its inputs read at its sample times. Outputs no experiment measures are left out.
ResidualAnalysis analyseFitResiduals(const eval::CompiledModelSource& model, const std::vector<Experiment>& experiments,
                                     const std::vector<Eigen::MatrixXd>& outputs, int maxLag = defaultResidualMaxLag);

// What the analysis says, for the report: "not white: 9 of 25 lags outside the 99 % bounds (the
// model misses dynamics); uncorrelated with u (0 of 51 lags outside)".
std::string verdict(const OutputResidualAnalysis& analysis);
// The same as one sentence for the log: "residuals of y are " + verdict.
std::string describe(const OutputResidualAnalysis& analysis);

}  // namespace sysid::estimate
