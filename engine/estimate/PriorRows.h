#pragma once

#include "engine/estimate/FitSettings.h"
#include "engine/estimate/LeastSquaresProblem.h"

#include <Eigen/Dense>

#include <optional>
#include <string>
#include <vector>

namespace sysid::estimate {

// Gaussian priors enter the least-squares problem as extra rows (theta_k - mean_k) / sd_k
// (the Bayesian estimator, seed note 000 eq. 2.10), after the data rows.
std::size_t priorRowCount(const std::vector<std::optional<Prior>>& priors);

// Writes the prior rows of `theta` into `out` from `row` on, then sets out.merit to
// 1/2 |residuals|^2. Returns false, with the reason in `failure`, when the merit is not finite.
bool finishWithPriors(const std::vector<std::optional<Prior>>& priors, const Eigen::VectorXd& theta, Eigen::Index row,
                      Linearization& out, std::string& failure);

}  // namespace sysid::estimate
