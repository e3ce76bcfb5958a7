#pragma once

#include "engine/estimate/FitSettings.h"
#include "engine/estimate/LeastSquaresProblem.h"
#include "engine/estimate/ParameterLayout.h"

#include <Eigen/Dense>

#include <optional>
#include <string>
#include <vector>

namespace sysid::estimate {

// "note: priors are used by the bayes and periodic-response methods only; METHOD ignores them":
// the log line of a fit whose method takes no priors (MethodTraits) while priors are given.
std::string priorsIgnoredNote(EstimationMethod method);

// The prior of each unknown of `layout`: the model's own (`prior MEAN, SD`), overridden by
// those in the settings (FitSettings::validate checks their values). A prior that names no
// unknown is a FitError.
std::vector<std::optional<Prior>> priorsFor(const ParameterLayout& layout, const eval::CompiledModelSource& model,
                                            const FitSettings& settings);

// 1/2 sum_k ((theta_k - mean_k) / sd_k)^2: the prior rows' share of the merit.
double priorCost(const std::vector<std::optional<Prior>>& priors, const Eigen::VectorXd& theta);

// Gaussian priors enter the least-squares problem as extra rows (theta_k - mean_k) / sd_k
// (the Bayesian estimator, seed note 000 eq. 2.10), after the data rows.
std::size_t priorRowCount(const std::vector<std::optional<Prior>>& priors);

// Writes the prior rows of `theta` into `out` from `row` on (in the normal form: adds them to J'J and
// J'r, whose data part must be in place), then sets out.merit to
// 1/2 |residuals|^2. Returns false, with the reason in `failure`, when the merit is not finite.
bool finishWithPriors(const std::vector<std::optional<Prior>>& priors, const Eigen::VectorXd& theta, Eigen::Index row,
                      Linearization& out, std::string& failure);

}  // namespace sysid::estimate
