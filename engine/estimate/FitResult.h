#pragma once

#include "engine/core/SolverStatistics.h"
#include "engine/core/Termination.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/NoiseVariances.h"
#include "engine/estimate/ProgressSink.h"
#include "engine/estimate/ResidualAnalysis.h"

#include <Eigen/Dense>

#include <string>
#include <utility>
#include <vector>

namespace sysid::estimate {

struct ParameterEstimate {
    std::string name;  // model parameter name; an initial value of experiment k > 1 is "x(0)#k"
    double initial = 0.0;  // starting value
    double value = 0.0;
    double sd = 0.0;  // standard deviation (posterior for Bayes)
    double lower95 = 0.0, upper95 = 0.0;  // 95 % confidence interval
    bool atBound = false;  // ended on a bound: its sd assumes the bound is not active
    std::string unit;  // the model's `unit` for it, for tables and exports; empty: none
};

// A change of the parameters the data do not see: (name, relative change) for each parameter it
// moves, the largest +1 (see UndeterminedDirections.h).
struct ParameterCombination {
    std::vector<std::pair<std::string, double>> components;
};

struct FitResult {
    std::vector<ParameterEstimate> parameters;
    Eigen::MatrixXd covariance;
    Eigen::MatrixXd correlation;
    std::vector<ParameterCombination> undetermined;  // what the data cannot determine; empty: all is
    // 1/2 sum of squared weighted residuals (+ prior terms); maximum likelihood: -ln L (+ prior terms)
    double cost = 0.0;
    std::vector<std::string> outputNames;
    std::vector<double> residualRms;  // unweighted, per model output (NaN if not measured)
    std::size_t residualCount = 0;
    // Whiteness and independence of the output residuals at the estimate (computed with residualRms,
    // from the same responses; empty where those are not reported).
    ResidualAnalysis residualAnalysis;
    // Maximum likelihood: each measured output's noise sd (in the output's unit), estimated with the parameters. Empty for the
    // methods whose weights are fixed before the fit.
    std::vector<NoiseEstimate> noise;
    // The likelihood of the output residuals at the estimate (every fit of output residuals; not the
    // equation-error methods), for information criteria.
    Likelihood likelihood;
    std::string minimiser;  // the method that minimised the cost, for reports ("Levenberg-Marquardt")
    std::size_t iterations = 0;
    // Evaluations of the objective (residuals or equation errors), and of its derivatives
    // (Jacobian, or gradient and Hessian); the minimisers of output error evaluate both at once.
    std::size_t evaluations = 0;
    std::size_t derivativeEvaluations = 0;
    core::Termination termination;  // why it stopped
    core::SolverStatistics statistics;  // integration counts and seconds per phase of this fit
    FitSettings settings;  // as the fit ran them (the integrator resolved for the model)
    std::vector<IterationRecord> history;  // iteration 0 is the starting point

    bool converged() const { return termination.converged(); }
    bool cancelled() const { return termination.cancelled(); }
};

}  // namespace sysid::estimate
