#pragma once

#include "engine/integrate/OdeSystem.h"

#include <Eigen/Dense>

#include <vector>

namespace sysid::integrate {

// The state together with its forward sensitivities, z = [x, S_1, ..., S_K] (column-major n x (1 + K)),
// where each column S_c = dx/dx0_c (the variational equations of shooting) or dx/dp_l (parameter
// sensitivities) obeys S' = (df/dx) S + df/dp_l (Hairer, Norsett & Wanner, Solving ODEs I,
// sec. I.14). Built over any OdeSystem; it is what every stepper integrates.
class SensitivitySystem {
public:
    // `parameters`: indices into system.parameterCount() (checked); `initialStateColumns`: the n
    // columns dx/dx0 come first.
    SensitivitySystem(OdeSystem& system, std::vector<std::size_t> parameters, bool initialStateColumns);

    OdeSystem& system() { return system_; }
    std::size_t stateCount() const { return n_; }
    std::size_t columnCount() const { return columns_; }
    std::size_t size() const { return n_ * (1 + columns_); }
    bool initialStateColumns() const { return initialStateColumns_; }
    const std::vector<std::size_t>& parameters() const { return parameters_; }
    // The sensitivity column (0-based among the columns) of system parameter p, or -1.
    int columnOfParameter(std::size_t p) const { return columnOfParameter_[p]; }
    // For each entry of system().parameterPattern(): its sensitivity column, or -1.
    const std::vector<int>& parameterEntryColumn() const { return parameterEntryColumn_; }

    // z0 = [x0, I (initial-state columns), dx0/dp (parameter columns)]; dx0dp is column-major
    // n x system().parameterCount(), or null when x0 does not depend on the parameters.
    void initialState(const double* x0, const double* dx0dp, double* z) const;
    // Inline where the system has a kernel (SensitivityKernel): an integrator's call is one
    // function-pointer call into the model's native code.
    void rhs(double t, const double* z, double* dz)
    {
        if (kernelFunction_)
            if (const auto kernel = *kernelFunction_) {
                const SensitivityKernel& k = *kernel_;
                // InputPieces::values' arithmetic, so the inputs are those of the system's own path.
                for (std::size_t i = 0; i < k.inputCount; ++i)
                    k.inputs[i] = k.inputValue[i] + k.inputSlope[i] * (t - k.inputAt);
                kernel(t, z, k.variables, z + n_, columns_, columnOfParameter_.data(), dz, dz + n_);
                return;
            }
        formRhs(t, z, dz);
    }
    // Exact Jacobian dF/dz (row-major, size() x size()) and dF/dt, for Rosenbrock methods: the
    // coupling of each sensitivity block to x and t comes from system().secondDerivatives().
    void jacobian(double t, const double* z, double* J, double* dFdt);

private:
    void formRhs(double t, const double* z, double* dz);

    OdeSystem& system_;
    std::vector<std::size_t> parameters_;
    bool initialStateColumns_;
    std::size_t n_, columns_;
    std::vector<int> columnOfParameter_;  // system parameter -> column, or -1
    std::vector<int> parameterEntryColumn_;  // parameter-pattern entry -> column, or -1
    Eigen::MatrixXd jx_, jp_;
    std::vector<double> dfdt_;
    SecondDerivatives second_;
    // The system's kernel function for these columns (SensitivityKernel), read at every evaluation.
    const SensitivityKernel* kernel_ = nullptr;
    const SensitivityKernel::Function* kernelFunction_ = nullptr;
};

}  // namespace sysid::integrate
