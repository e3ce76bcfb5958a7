#pragma once

#include "engine/estimate/FitObserver.h"

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace sysid::estimate {

struct ParameterEstimate {
    std::string name;  // model parameter name; an initial value of experiment k > 1 is "x(0)#k"
    double initial = 0.0;  // starting value
    double value = 0.0;
    double sd = 0.0;  // standard deviation (posterior for Bayes)
    double lower95 = 0.0, upper95 = 0.0;  // 95 % confidence interval
    bool atBound = false;  // ended on a bound: its sd assumes the bound is not active
};

struct FitResult {
    std::vector<ParameterEstimate> parameters;
    Eigen::MatrixXd covariance;
    Eigen::MatrixXd correlation;
    double cost = 0.0;  // 1/2 sum of squared weighted residuals (+ prior terms)
    std::vector<std::string> outputNames;
    std::vector<double> residualRms;  // unweighted, per model output (NaN if not measured)
    std::size_t residualCount = 0;
    std::size_t iterations = 0;
    bool converged = false;
    bool cancelled = false;
    std::string stopReason;
    std::vector<IterationRecord> history;  // iteration 0 is the starting point
};

}  // namespace sysid::estimate
