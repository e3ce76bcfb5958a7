#pragma once

#include "engine/core/SolverStatistics.h"

#include <Eigen/Dense>

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::integrate {

// A simulation sampled on the requested grid. Sensitivity matrices are per sample.
struct Trajectory {
    std::vector<double> times;
    Eigen::MatrixXd states;  // samples x states
    Eigen::MatrixXd outputs;  // samples x outputs
    std::vector<std::size_t> sensitivityParameters;  // model parameter index of each column
    std::vector<Eigen::MatrixXd>
        stateParameterSensitivity;  // dx/dp: states x columns (none unless recordStateSensitivity)
    std::vector<Eigen::MatrixXd> outputParameterSensitivity;  // dy/dp: outputs x columns
    std::vector<Eigen::MatrixXd> stateInitialSensitivity;  // dx/dx0: states x states (likewise)
    std::vector<Eigen::MatrixXd> outputInitialSensitivity;  // dy/dx0: outputs x states
    core::IntegrationStatistics statistics;  // what the integration cost (steps, evaluations, factorisations)
    double lastStep = 0.0;  // adaptive methods: the step the controller would take next (0 for fixed-step ones)
    // A DAE's invariants at every sample (samples x invariants): the constraint drift, zero with
    // projection and growing without stabilisation. Empty for an ODE.
    Eigen::MatrixXd invariants;
    // For each column of `invariants`: the constraint as written and the level (0: the constraint,
    // k: its k-th time derivative).
    std::vector<std::string> invariantConstraints;
    std::vector<std::size_t> invariantLevels;
};

}  // namespace sysid::integrate
