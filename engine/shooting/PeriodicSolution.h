#pragma once

#include "engine/integrate/IntegratorSettings.h"
#include "engine/shooting/DampedNewton.h"

#include <Eigen/Dense>

#include <complex>
#include <cstddef>
#include <string>
#include <vector>

namespace sysid::shooting {

enum class PeriodKind {
    Automatic,  // forced when the equations contain t, autonomous otherwise
    Forced,  // known period: the forcing period times `periods`
    Autonomous,  // unknown period, found with a phase condition
};

// Floquet multipliers (eigenvalues of the monodromy matrix) and what they say.
struct FloquetAnalysis {
    std::vector<std::complex<double>> multipliers;  // sorted by decreasing modulus
    bool stable = false;  // all relevant |mu| < 1 (the trivial multiplier 1 of an autonomous orbit excluded)
    std::string verdict;  // e.g. "stable", "unstable (saddle, mu = 2.31)", "unstable (period doubling, mu = -1.2)"
};

FloquetAnalysis analyseFloquet(const Eigen::MatrixXd& monodromy, bool autonomous);

struct PeriodicSolution {
    double period = 0.0;  // of the orbit (n·T for subharmonics; found for autonomous)
    Eigen::VectorXd initialState;  // x(t0) on the orbit
    Eigen::MatrixXd monodromy;  // dx(t0 + period)/dx(t0)
    FloquetAnalysis floquet;
    NewtonResult newton;  // iterations, residual, stop reason
    // The loose stage of the tolerance schedule (PeriodicSettings::looseTolerance; no iterations
    // without one). Its iterations and evaluations are also counted in `newton`.
    NewtonResult looseStage;
    bool converged() const { return newton.converged(); }
    // The orbit sampled over one period (first sample at t0, last at t0 + period).
    std::vector<double> times;
    Eigen::MatrixXd states;  // samples x states
    Eigen::MatrixXd outputs;  // samples x outputs
};

}  // namespace sysid::shooting
