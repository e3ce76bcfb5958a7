#pragma once

#include <Eigen/Dense>

#include <cstddef>
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
    std::size_t steps = 0;
    double lastStep = 0.0;  // dopri5: the step size the controller proposed last (0 for the other methods)
};

}  // namespace sysid::integrate
