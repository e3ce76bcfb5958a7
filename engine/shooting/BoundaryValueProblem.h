#pragma once

#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/OdeSystem.h"
#include "engine/shooting/DampedNewton.h"

#include <Eigen/Dense>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::shooting {

// x' = f(x, t): the integration core's system interface (a model is integrate::ModelSystem).
using OdeSystem = integrate::OdeSystem;

// g(x(a), x(b)) = 0 with n rows. Separated conditions (g_a(x(a)) = 0 with p rows and
// g_b(x(b)) = 0 with n - p rows) keep the shooting matrix banded; general ones couple the
// two ends (a corner block) and are solved by sparse LU.
struct BoundaryConditions {
    // Separated form: filled when `separated` is true.
    bool separated = true;
    std::size_t leftCount = 0;  // p
    std::function<Eigen::VectorXd(const Eigen::VectorXd& xa)> left;  // p rows
    std::function<Eigen::MatrixXd(const Eigen::VectorXd& xa)> leftJacobian;  // p x n
    std::function<Eigen::VectorXd(const Eigen::VectorXd& xb)> right;  // n - p rows
    std::function<Eigen::MatrixXd(const Eigen::VectorXd& xb)> rightJacobian;  // (n - p) x n
    // General form: filled when `separated` is false.
    std::function<Eigen::VectorXd(const Eigen::VectorXd& xa, const Eigen::VectorXd& xb)> general;  // n rows
    std::function<void(const Eigen::VectorXd& xa, const Eigen::VectorXd& xb, Eigen::MatrixXd& dga,
                       Eigen::MatrixXd& dgb)>
        generalJacobian;  // n x n each
};

// How J_i = dy_i(t_{i+1})/ds_i is built. Variational: Phi' = (df/dx) Phi integrated with the
// state (n + n^2 equations). Rosenbrock4 factorises that whole system densely at every step,
// O((n + n^2)^3): above about 8 states FiniteDifferences (n + 1 integrations of n equations)
// is much cheaper with it.
enum class IntervalJacobian { Variational, FiniteDifferences };

// One stage of the loose-to-tight tolerance schedule (seed 001 §5.4): Newton runs to
// `newtonTolerance` with this integrator, then the next stage starts from its solution.
struct BvpStage {
    // Euler, RK4, implicit-euler and crank-nicolson take `stepsPerInterval` fixed steps.
    integrate::IntegratorSettings integrator;
    std::size_t stepsPerInterval = 1;
    double newtonTolerance = 1e-10;
    // Variational Jacobians integrated with this looser integrator instead (a tight final
    // stage): Newton then converges linearly, at a rate of about the looser tolerance, for a
    // fraction of the cost. Not used for finite-difference Jacobians, which need the tight flow.
    std::optional<integrate::IntegratorSettings> jacobianIntegrator;
};

struct BvpSettings {
    std::vector<double> shootingPoints;  // a = t_1 < ... < t_m = b; see uniformShootingPoints
    std::vector<BvpStage> stages;  // at least one; the last one decides the accuracy
    IntervalJacobian jacobian = IntervalJacobian::Variational;
    NewtonSettings newton;  // residualTolerance is replaced by each stage's
    // Each stage starts with chord steps on the previous stage's factorisation (off: every
    // stage builds its own Jacobians, e.g. to time them).
    bool reuseBetweenStages = true;
    std::size_t threads = 0;  // 0 = hardware concurrency
};

std::vector<double> uniformShootingPoints(double a, double b, std::size_t count);

struct BvpIteration {
    std::size_t stage = 0;
    NewtonIteration newton;  // newton.x: the nodes s_1..s_m one after the other (n values each)
    // Wall time spent since the previous report (all line-search residuals included):
    // integrating F, integrating and assembling J, factorising J, back-substitution.
    std::chrono::duration<double> residualTime{}, jacobianTime{}, factorTime{}, solveTime{};
};

struct BvpResult {
    std::vector<double> shootingPoints;
    Eigen::MatrixXd nodes;  // m x n: x at every shooting point
    NewtonResult newton;  // of the last stage run
    std::size_t totalIterations = 0;
    bool converged() const { return newton.converged(); }
    std::string message;
};

// Multiple shooting for a two-point boundary value problem (the RMUSN design of seed 001 ch. 3).
// `initialNodes` (m x n) is the starting guess at the shooting points. Intervals are
// integrated in parallel. Never throws for a non-converging problem: the result says why.
BvpResult solveBoundaryValueProblem(const OdeSystem& system, const BoundaryConditions& conditions,
                                    const Eigen::MatrixXd& initialNodes, const BvpSettings& settings,
                                    const std::function<void(const BvpIteration&)>& observer = {},
                                    std::stop_token stop = {});

// Re-integrates the converged nodes onto `times` (within [a, b]); samples x n.
Eigen::MatrixXd sampleSolution(const OdeSystem& system, const BvpResult& result, const std::vector<double>& times,
                               const integrate::IntegratorSettings& integrator);

}  // namespace sysid::shooting
