#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/FitProblem.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/IntegratorSettings.h"

#include <stop_token>
#include <vector>

namespace sysid::estimate {

// Output error by multiple shooting (Bock, "Recent advances in parameter identification
// techniques for ODE", Numerical Treatment of Inverse Problems, 1983): each record is split
// into intervals whose start states s_j are extra unknowns, tied by continuity
// x(t_{j+1}; s_j) = s_{j+1}. The linearized continuity gives s_{j+1}'s correction in terms of
// the parameter step (condensing), so each Gauss-Newton/LM step solves only for the
// parameters and then moves every node. Starting nodes come from the data where outputs are
// states, so the fit follows the measured trajectory even where single shooting diverges.
class MultipleShootingProblem : public FitProblem {
public:
    MultipleShootingProblem(std::shared_ptr<const eval::CompiledModelSource> model, const ParameterLayout& layout,
                            const std::vector<Experiment>& experiments, const std::vector<double>& weights,
                            const integrate::IntegratorSettings& integrator, std::size_t intervals,
                            std::stop_token stop);

    Eigen::VectorXd parameters() const override { return theta_; }
    Eigen::VectorXd lower() const override { return layout_.lower(); }
    Eigen::VectorXd upper() const override { return layout_.upper(); }
    bool evaluate(const Eigen::VectorXd& step, Linearization& out, std::string& failure, std::stop_token stop) override;
    void accept() override;
    void setStepLength(double alpha) override { stepLength_ = alpha; }
    const std::vector<Eigen::MatrixXd>& outputs() const override { return outputs_; }
    std::size_t dataResidualCount() const override { return dataRows_; }

    // Largest continuity defect |x(t_{j+1}; s_j) - s_{j+1}| at the current point.
    double continuityDefect() const { return defect_; }

private:
    struct Shooting {
        std::vector<std::size_t> boundaries;  // sample index of each node, first 0, last the final sample
        std::vector<Eigen::VectorXd> nodes;  // s_j, j = 1 .. intervals-1 (index 0 unused)
        std::vector<Eigen::VectorXd> offset;  // a_j: node correction at a zero parameter step
        std::vector<Eigen::MatrixXd> gain;  // C_j: node correction per unit parameter step
    };

    void initializeNodes(std::stop_token stop);

    eval::CompiledModel model_;
    const ParameterLayout& layout_;
    const std::vector<Experiment>& experiments_;
    std::vector<double> sqrtWeights_;
    integrate::IntegratorSettings integrator_;
    std::size_t dataRows_ = 0;
    Eigen::VectorXd theta_, pendingTheta_;
    std::vector<Shooting> shooting_, pending_;
    std::vector<Eigen::MatrixXd> outputs_, pendingOutputs_;
    std::vector<int> stateOfOutput_;  // output j is state i (-1: an expression)
    std::vector<std::vector<std::size_t>> rowOffset_;  // first residual row of (experiment, output)
    double defect_ = 0.0, pendingDefect_ = 0.0;
    double stepLength_ = 1.0;
};

}  // namespace sysid::estimate
