#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/FitProblem.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/eval/CompiledModel.h"

#include <optional>
#include <vector>

namespace sysid::estimate {

// Output error by single shooting: residuals sqrt(w_j) (y_measured - y_model) at every sample
// of every measured output, the model simulated from each experiment's initial state; the
// Jacobian comes from the forward sensitivities, or from the structural-sensitivity method
// for a linear constant-coefficient model (a model outside that class fails its evaluation
// with the state named). Optional Gaussian priors add the rows
// (theta_k - mean_k) / sd_k (the Bayesian estimator).
class OutputErrorProblem : public FitProblem {
public:
    OutputErrorProblem(std::shared_ptr<const eval::CompiledModelSource> model, const ParameterLayout& layout,
                       const std::vector<Experiment>& experiments, std::vector<double> weights,
                       std::vector<std::optional<Prior>> priors, const integrate::IntegratorSettings& integrator,
                       SensitivityMethod sensitivity = SensitivityMethod::Forward);

    Eigen::VectorXd parameters() const override { return theta_; }
    Eigen::VectorXd lower() const override { return layout_.lower(); }
    Eigen::VectorXd upper() const override { return layout_.upper(); }
    bool evaluate(const Eigen::VectorXd& step, Linearization& out, std::string& failure, std::stop_token stop) override;
    void accept() override;

    // Model outputs (samples x outputs) of each experiment at the current point.
    const std::vector<Eigen::MatrixXd>& outputs() const override { return outputs_; }
    std::size_t dataResidualCount() const override { return dataRows_; }

private:
    struct Response {
        Eigen::MatrixXd outputs;  // samples x outputs
        std::vector<Eigen::MatrixXd> sensitivity;  // per sample: outputs x the experiment's unknowns
    };
    Response respond(const Experiment& experiment, std::size_t index, std::stop_token stop);

    eval::CompiledModel model_;
    const ParameterLayout& layout_;
    const std::vector<Experiment>& experiments_;
    std::vector<double> sqrtWeights_;
    std::vector<std::optional<Prior>> priors_;
    integrate::IntegratorSettings integrator_;
    SensitivityMethod sensitivity_;
    std::size_t dataRows_ = 0, priorRows_ = 0;
    Eigen::VectorXd theta_, pendingTheta_;
    std::vector<Eigen::MatrixXd> outputs_, pendingOutputs_;
};

}  // namespace sysid::estimate
