#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::estimate {

struct IterationRecord {
    std::size_t iteration = 0;
    std::vector<double> parameters;  // estimated parameters, in FitResult order
    double cost = 0.0;
    double stepNorm = 0.0;  // relative size of the accepted step
    double lambda = 0.0;  // Levenberg-Marquardt damping
};

// Receives progress from a running fit, on the fit's thread; must return quickly.
class FitObserver {
public:
    virtual ~FitObserver() = default;
    virtual void iteration(const IterationRecord&) {}
    // Model outputs (samples x outputs) of one experiment at the current estimate.
    virtual void trace(std::size_t /*experiment*/, const std::vector<double>& /*times*/,
                       const Eigen::MatrixXd& /*outputs*/)
    {
    }
    virtual void log(const std::string&) {}
};

}  // namespace sysid::estimate
