#pragma once

#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/eval/CompiledModel.h"
#include "engine/shooting/PeriodicSolution.h"

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace sysid::discretise {

// Parameter derivatives of a converged forced orbit from findPeriodicSolutionByDiscretisation
// (same model parameters and settings): by the implicit-function theorem on the discretised
// equations F(X, p) = 0, dX/dp = -(dF/dX)^-1 dF/dp. dF/dp comes from central differences of the
// residual in p: F is algebraic in p (no integration error), so they are accurate to ~1e-10.
// Returns per node j = 0..M-1 the matrix d x_j / d p (states x parameters).
// Throws std::invalid_argument for an autonomous orbit or a solution that does not fit the
// settings, std::runtime_error when it did not converge or dF/dX is singular.
std::vector<Eigen::MatrixXd> discretisedParameterSensitivity(eval::CompiledModel& model,
                                                             const shooting::PeriodicSolution& solution,
                                                             const std::vector<std::size_t>& parameters,
                                                             const DiscretisationSettings& settings);

// The discretised orbit between its nodes, at times `tau` in [t0, t0 + period) (any order):
// the cubic Hermite interpolant through the node states with the slopes f(t_j, x_j), which is
// the collocation polynomial of the Hermite-Simpson scheme (Betts, "Practical Methods for Optimal
// Control and Estimation Using Nonlinear Programming", 2nd ed., 2010, §4.6.3). With node
// sensitivities given, also d y / d p of the outputs, including df/dp in the slopes and dg/dp.
struct DiscretisedSamples {
    Eigen::MatrixXd outputs;  // samples x outputs
    std::vector<Eigen::MatrixXd> outputSensitivity;  // per sample: outputs x parameters
};
DiscretisedSamples sampleDiscretisedOrbit(eval::CompiledModel& model, const shooting::PeriodicSolution& solution,
                                          const std::vector<Eigen::MatrixXd>& nodeSensitivity,
                                          const std::vector<std::size_t>& parameters, const std::vector<double>& tau,
                                          const integrate::InputSignals* inputs = nullptr);

}  // namespace sysid::discretise
