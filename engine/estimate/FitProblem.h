#pragma once

#include "engine/estimate/LeastSquaresProblem.h"

#include <Eigen/Dense>

#include <vector>

namespace sysid::estimate {

// A least-squares problem fitted to experiments: it can show its model outputs, and the
// first dataResidualCount() residual rows are the weighted data residuals (prior rows follow).
class FitProblem : public LeastSquaresProblem {
public:
    virtual const std::vector<Eigen::MatrixXd>& outputs() const = 0;  // per experiment: samples x outputs
    virtual std::size_t dataResidualCount() const = 0;
};

}  // namespace sysid::estimate
