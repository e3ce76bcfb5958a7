#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/FitProblem.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/NormalEquationsAccumulator.h"
#include "engine/estimate/NoiseVariances.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::estimate {

// A fit of a model's response to sampled outputs: residuals sqrt(w_j) (y_measured - y_model) at
// every sample of every measured output of every experiment, then the prior rows
// (theta_k - mean_k) / sd_k (the Bayesian estimator). A subclass computes the response of one
// experiment and its sensitivities to the experiment's unknowns.
class ResponseFitProblem : public FitProblem {
public:
    ResponseFitProblem(std::shared_ptr<const eval::CompiledModelSource> model, const ParameterLayout& layout,
                       const std::vector<Experiment>& experiments, const std::vector<double>& weights,
                       std::vector<std::optional<Prior>> priors, const integrate::IntegratorSettings& integrator);

    Eigen::VectorXd parameters() const override { return theta_; }
    Eigen::VectorXd lower() const override { return layout_.lower(); }
    Eigen::VectorXd upper() const override { return layout_.upper(); }
    bool evaluate(const Eigen::VectorXd& step, Linearization& out, std::string& failure, std::stop_token stop) override;
    void accept() override;

    // Model outputs (samples x outputs) of each experiment at the current point.
    const std::vector<Eigen::MatrixXd>& outputs() const override { return outputs_; }
    std::size_t dataResidualCount() const override { return dataRows_; }

    // Maximum likelihood (Vankan 1992, eq. 2.12-2.13): the noise variance of each output with a
    // nonzero weight is estimated at every point, sigma_j^2 = max(M_jj / n_j, floors[j]) over all
    // experiments, and its rows are weighted by 1/sigma_j (the weights given to the constructor
    // must then be 1 or 0). The merit becomes -ln L (NoiseVariances.h) plus the prior term, and
    // the linearization is marked `likelihood`. Call before the first evaluation.
    void estimateNoiseVariances(std::vector<double> floors);
    // The residual sums per output at the current point (maximum likelihood; empty otherwise).
    const std::vector<OutputSquares>& outputSquares() const { return squares_; }
    const std::vector<double>& noiseVarianceFloors() const { return floors_; }

    // How the linearization carries the derivatives: the Jacobian, or the normal equations J'J, J'r
    // summed sample by sample without it (Linearization::normalForm), always or when the Jacobian
    // would have kNormalFormEntries entries or more. Maximum likelihood always gives the Jacobian (its
    // rows are weighted once every residual is known). Default: the Jacobian.
    enum class NormalForm { Never, WhenLarge, Always };
    static constexpr double kNormalFormEntries = 1 << 20;  // 8 MB of Jacobian
    void setNormalForm(NormalForm form) { normalForm_ = form; }
    // Whether the next evaluation gives the normal equations.
    bool formsNormalEquations() const;

protected:
    struct Response {
        Eigen::MatrixXd outputs;  // samples x outputs
        std::vector<Eigen::MatrixXd> sensitivity;  // per sample: outputs x the experiment's unknowns
    };
    // The response of experiment e with the model's parameters set for it; false with a reason
    // for the user when it cannot be computed. With a `sink` the response may hand each sample's
    // outputs and sensitivities to it as they come and leave response.sensitivity empty.
    virtual bool respond(std::size_t e, Response& response, const integrate::OutputSensitivitySink* sink,
                         std::string& failure, std::stop_token stop) = 0;

    eval::CompiledModel model_;
    const ParameterLayout& layout_;
    const std::vector<Experiment>& experiments_;
    integrate::IntegratorSettings integrator_;

private:
    std::vector<double> sqrtWeights_;
    NormalForm normalForm_ = NormalForm::Never;
    NormalEquationsAccumulator accumulator_;
    bool estimateNoise_ = false;
    std::vector<double> floors_;
    std::vector<OutputSquares> squares_, pendingSquares_;
    std::vector<std::optional<Prior>> priors_;
    std::size_t dataRows_ = 0, priorRows_ = 0;
    Eigen::VectorXd theta_, pendingTheta_;
    std::vector<Eigen::MatrixXd> outputs_, pendingOutputs_;
};

}  // namespace sysid::estimate
