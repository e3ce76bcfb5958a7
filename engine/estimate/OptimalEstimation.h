#pragma once

#include "engine/core/SolverStatistics.h"
#include "engine/core/Termination.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/OptimalEstimationError.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/model/Model.h"
#include "engine/shooting/BoundaryValueProblem.h"

#include <Eigen/Dense>

#include <cstddef>
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace sysid::estimate {

// Optimal estimation (seed 001 ch. 2): states, parameters, inputs and accelerations that
// minimise J = 1/2 (X(a)-q_a)'W_a(X(a)-q_a) + 1/2 int xi'W xi + eps'V eps dt, found as the
// solution of the Hamiltonian two-point boundary value problem by multiple shooting.
struct OptimalEstimationSettings {
    // W per augmented state (a model state such as x or x', or an estimated parameter); default 1.
    std::map<std::string, double> stateWeights;
    // V per residual: a measured output's name, an input's name, or "eom:<coordinate>"; default 1.
    std::map<std::string, double> measurementWeights;
    // Augmented state name -> (q_a, W_a): prior knowledge of X(a); absent means W_a = 0.
    std::map<std::string, std::pair<double, double>> initialPrior;
    // Augmented state name -> its starting guess on the data grid (one value per sample),
    // replacing the default (measured value, central difference, x(0) or the parameter's value).
    std::map<std::string, std::vector<double>> initialGuess;
    std::size_t shootingPoints = 101;  // equidistant on the data's time span
    // The loose first stage of the default schedule: seed 001 §5.4 takes one explicit Euler step
    // per interval; a stiff problem needs more steps (h*lambda within [-2, 0]) or an implicit
    // scheme. One of euler, rk4, implicit-euler, crank-nicolson.
    integrate::IntegrationMethod firstStageMethod = integrate::IntegrationMethod::Euler;
    std::size_t firstStageSteps = 1;  // steps per shooting interval, >= 1
    // Loose-to-tight schedule (seed 001 §5.4); empty: the first stage above -> dopri5 1e-6 ->
    // dopri5 1e-11 (defaultOptimalEstimationStages).
    std::vector<shooting::BvpStage> stages;
    // Newton settings, interval Jacobian mode and threads; its shootingPoints and stages,
    // when given, replace the two settings above.
    shooting::BvpSettings bvp;

    // W finite and > 0, V finite and >= 0, q_a finite and W_a finite and >= 0, at least 2
    // shooting points, a fixed-step first stage with at least 1 step per interval. Throws
    // core::SettingError with the key in the project's "optimal_estimation" object
    // ("state_weights.x", "first_stage.method"). Names are checked against the model when it runs.
    void validate() const;
};

std::vector<shooting::BvpStage> defaultOptimalEstimationStages(
    integrate::IntegrationMethod firstStageMethod = integrate::IntegrationMethod::Euler,
    std::size_t firstStageSteps = 1);

// Whether `method` can be the fixed-step first stage of the schedule (not an adaptive one).
bool isFirstStageMethod(integrate::IntegrationMethod method);

struct OptimalEstimationResult {
    std::vector<std::string> parameterNames;
    Eigen::VectorXd parameters;  // theta at t = a
    Eigen::VectorXd parameterDrift;  // max - min of theta over the data grid
    std::vector<double> times;  // the data grid
    std::vector<std::string> stateNames;
    Eigen::MatrixXd states;  // samples x model states
    std::vector<std::string> inputNames;  // model inputs, then "q''" per coordinate
    Eigen::MatrixXd inputs;  // samples x inputNames
    // "xi:<augmented state>" then "eps:<output | input | eom:q>".
    std::vector<std::string> residualNames;
    Eigen::MatrixXd residuals;  // samples x residualNames
    double cost = 0.0;  // J by the trapezoidal rule on the data grid
    std::size_t iterations = 0;  // Newton iterations over all stages
    double residualNorm = 0.0;  // ||F|| of the shooting system at the end
    // Why it stopped: the last stage's Newton termination, its message naming the stage.
    core::Termination termination;
    core::SolverStatistics statistics;  // integration counts and seconds per phase of the estimate
    bool converged() const { return termination.converged(); }
};

// Throws OptimalEstimationError for a model or setting it cannot use (a nonlinear input,
// an unknown weight name, a non-positive W, too little data); a problem that does not
// converge is reported in the result instead.
OptimalEstimationResult estimateOptimally(const model::Model& model, const Experiment& experiment,
                                          const OptimalEstimationSettings& settings,
                                          const std::function<void(const shooting::BvpIteration&)>& progress = {},
                                          std::stop_token stop = {});

}  // namespace sysid::estimate
