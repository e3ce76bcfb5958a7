#pragma once

#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"

#include <Eigen/Dense>

#include <cstddef>
#include <stop_token>
#include <vector>

namespace sysid::integrate {

// The structural-sensitivity method (Kokotovic 1964; Bordan 1971 sec. 3.4, seed 003) for a model
// whose right-hand side is linear in the states with constant coefficients, x' = A(p) x + c(p, t, u)
// (a discretised linear PDE such as s_t = alpha(x) s_xx). The sensitivity U_j = dx/dp_j is the
// response of the system's own structure, the one operator (d/dt - A)^-1, to the signal at its
// sensitivity points, w_j(t) = df/dp_j(t, x(t)): a single sensitivity model, built once, gives
// every parameter's sensitivity by switching its input. It is independent of the forward
// (Meissinger) sensitivity equations the Simulator integrates: here the sensitivity model is
// discretised exactly by the matrix exponential, and only its inputs are interpolated.
struct StructuralSensitivityRequest {
    std::vector<double> times;  // sample times, strictly increasing; x(times[0]) = x0(p)
    std::vector<std::size_t> parameters;  // model parameter indices
    const InputSignals* inputs = nullptr;  // required when the model has inputs
    // Longest step of the exponential propagation; 0: 0.02 / |A|_inf, which keeps the quadratic
    // hold of the sensitivity-point signals below ~1e-8 relative on the fast modes.
    double maxStep = 0.0;
    std::stop_token stop;  // checked every step: IntegrationError (Cancelled)
};

struct StructuralSensitivityResult {
    Eigen::MatrixXd states;  // samples x states
    std::vector<Eigen::MatrixXd> stateSensitivity;  // per sample: states x parameters, dx/dp
    Eigen::MatrixXd outputs;  // samples x outputs
    std::vector<Eigen::MatrixXd> outputSensitivity;  // per sample: outputs x parameters, dy/dp
    // What it cost: the state model's and the sensitivity model's equations per input
    // (states + states * parameters: the seed's finding that, with n outputs, it needs as many
    // equations as Meissinger's method), the matrix exponentials formed, the propagation steps.
    std::size_t stateEquations = 0;
    std::size_t sensitivityEquations = 0;
    std::size_t matrixExponentials = 0;
    std::size_t steps = 0;
};

// Throws std::invalid_argument naming the state whose equation is not linear with constant
// coefficients (df/dx changes with x or t), a bad time grid, or missing inputs; IntegrationError
// when it is cancelled or a state grows beyond the floating-point range (an unstable system).
StructuralSensitivityResult structuralSensitivity(eval::CompiledModel& model,
                                                  const StructuralSensitivityRequest& request);

}  // namespace sysid::integrate
