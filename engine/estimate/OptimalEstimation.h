#pragma once

#include "engine/core/SolverStatistics.h"
#include "engine/core/Termination.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/OptimalEstimationError.h"
#include "engine/estimate/OptimalEstimationSettings.h"
#include "engine/estimate/StiffnessDiagnostics.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/shooting/BoundaryValueProblem.h"

#include <Eigen/Dense>

#include <cstddef>
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace sysid::model {
struct Model;
}

namespace sysid::estimate {

// Optimal estimation (seed 001 ch. 2): states, parameters, inputs and accelerations that
// minimise J = 1/2 (X(a)-q_a)'W_a(X(a)-q_a) + 1/2 int xi'W xi + eps'V eps dt, found as the
// solution of the Hamiltonian two-point boundary value problem by multiple shooting. The
// settings are in OptimalEstimationSettings.h.

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
    // The augmented states' costates lambda (samples x augmentedStateNames()) and the parameters
    // over the data grid (samples x parameterNames): with the states and inputs, what a later run
    // needs to start from this solution (startTrajectoryFrom).
    Eigen::MatrixXd costates;
    Eigen::MatrixXd parameterTraces;
    // Stiffness of the Hamiltonian system along the starting guess (at the shooting points) and
    // along the solution (on the data grid).
    StiffnessDiagnostics stiffnessAtGuess, stiffnessAtSolution;
    bool converged() const { return termination.converged(); }
    // stateNames, then parameterNames: the names of the costates' columns.
    std::vector<std::string> augmentedStateNames() const;
};

// The trajectories of a result to start another run from (OptimalEstimationSettings::startFrom).
StartTrajectory startTrajectoryFrom(const OptimalEstimationResult& result, const std::string& source);

// Throws OptimalEstimationError for a model or setting it cannot use (a nonlinear input,
// an unknown weight name, a non-positive W, too little data); a problem that does not
// converge is reported in the result instead.
OptimalEstimationResult estimateOptimally(const model::Model& model, const Experiment& experiment,
                                          const OptimalEstimationSettings& settings,
                                          const std::function<void(const shooting::BvpIteration&)>& progress = {},
                                          std::stop_token stop = {},
                                          const std::function<void(const StiffnessDiagnostics&)>& diagnosed = {});

// The stiffness of the Hamiltonian system along the starting guess, without solving (what
// estimateOptimally reports to `diagnosed` before it starts). Throws as estimateOptimally.
StiffnessDiagnostics diagnoseOptimalEstimation(const model::Model& model, const Experiment& experiment,
                                               const OptimalEstimationSettings& settings);

}  // namespace sysid::estimate
