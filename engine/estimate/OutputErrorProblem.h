#pragma once

#include "engine/estimate/ResponseFitProblem.h"

#include <optional>
#include <vector>

namespace sysid::estimate {

// Output error by single shooting: residuals sqrt(w_j) (y_measured - y_model) at every sample
// of every measured output, the model simulated from each experiment's initial state; the
// Jacobian comes from the forward sensitivities, or from the structural-sensitivity method
// for a linear constant-coefficient model (a model outside that class fails its evaluation
// with the state named). Optional Gaussian priors add the rows
// (theta_k - mean_k) / sd_k (the Bayesian estimator).
class OutputErrorProblem : public ResponseFitProblem {
public:
    OutputErrorProblem(std::shared_ptr<const eval::CompiledModelSource> model, const ParameterLayout& layout,
                       const std::vector<Experiment>& experiments, std::vector<double> weights,
                       std::vector<std::optional<Prior>> priors, const integrate::IntegratorSettings& integrator,
                       SensitivityMethod sensitivity = SensitivityMethod::Forward);

private:
    bool respond(std::size_t e, Response& response, const integrate::OutputSensitivitySink* sink, std::string& failure,
                 std::stop_token stop) override;

    SensitivityMethod sensitivity_;
};

}  // namespace sysid::estimate
