#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"

#include <Eigen/Dense>

#include <vector>

namespace sysid::integrate {

// The state together with its forward sensitivities, z = [x, S_1, ..., S_K], where each
// column S_c = dx/dx0_c or dx/dp_l obeys the variational equation S' = (df/dx) S + df/dp_l
// (Hairer, Norsett & Wanner, Solving ODEs I, sec. I.14).
class SensitivitySystem {
public:
    SensitivitySystem(eval::CompiledModel& model, const InputSignals* inputs, std::vector<std::size_t> parameters,
                      bool initialStateColumns);

    std::size_t stateCount() const { return n_; }
    std::size_t columnCount() const { return columns_; }
    std::size_t size() const { return n_ * (1 + columns_); }
    bool initialStateColumns() const { return initialStateColumns_; }
    const std::vector<std::size_t>& parameters() const { return parameters_; }
    // The sensitivity column (0-based among the columns) of model parameter p, or -1.
    int columnOfParameter(std::size_t p) const { return columnOfParameter_[p]; }

    // z0 from x0 (and, when x0 comes from the model, dx0/dp for the parameter columns).
    void initialState(const double* x0, bool x0FromModel, double* z) const;
    void rhs(double t, const double* z, double* dz);
    // Exact Jacobian dF/dz (row-major, size() x size()) and dF/dt, for Rosenbrock methods.
    void jacobian(double t, const double* z, double* J, double* dFdt);
    void setPointFor(double t, const double* x);  // sets the model at (t, x, u(t)) for output evaluation

    // Between two input samples each input is one linear piece; holding it to that piece
    // (also beyond the segment, where an adaptive step may overshoot) keeps f smooth.
    void holdInputsOnSegment(double start, double end);
    // Sample times of all inputs strictly inside (t0, tEnd): where f may kink.
    std::vector<double> inputBreakpoints(double t0, double tEnd) const;

private:
    eval::CompiledModel& model_;
    const InputSignals* inputs_;
    std::vector<std::size_t> parameters_;
    bool initialStateColumns_;
    std::size_t n_, columns_;
    std::vector<int> columnOfParameter_;  // model parameter -> column, or -1
    void inputValues(double t, double* u, double* du) const;

    std::vector<double> u_, du_, hessian_, mixed_;
    bool inputsHeld_ = false;
    double heldAt_ = 0.0;
    std::vector<double> heldValue_, heldSlope_;  // each input's piece: value at heldAt_ and slope
    Eigen::MatrixXd jx_, jp_, jtu_;
};

}  // namespace sysid::integrate
