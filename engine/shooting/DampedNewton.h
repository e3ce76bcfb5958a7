#pragma once

#include "engine/core/Termination.h"

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>

namespace sysid::shooting {

// A square nonlinear system F(x) = 0. The system owns its Jacobian and its factorisation,
// so a block-banded or sparse structure never has to be expanded into a dense matrix.
class NewtonSystem {
public:
    virtual ~NewtonSystem() = default;
    // F(x). Throws (for example IntegrationError) when F cannot be evaluated at x; the
    // solver then shortens the step.
    virtual Eigen::VectorXd residual(const Eigen::VectorXd& x) = 0;
    // F(x) at a point whose Jacobian will probably not be needed (a trial of the line search, a step
    // on a re-used Jacobian). A system whose residual() prepares its Jacobian as well (shooting
    // integrates the variational equations along with the flow) returns F alone here, for less.
    virtual Eigen::VectorXd trialResidual(const Eigen::VectorXd& x) { return residual(x); }
    // Builds and factorises J(x). x is usually the point of the last residual() call, but not
    // always (after a rejected chord trial): an implementation that reuses work of residual()
    // checks the point. Throws std::runtime_error when J is singular.
    virtual void linearise(const Eigen::VectorXd& x) = 0;
    // Solves J·dx = rhs with the last factorisation.
    virtual Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const = 0;
    // J of the last linearise() as a matrix, also when linearise() found it singular; nullptr when
    // the system keeps no such matrix (or the last linearise() failed before J was formed). Without
    // it Newton takes no modified steps (NewtonSettings::modifiedSteps).
    virtual const Eigen::SparseMatrix<double>* jacobianMatrix() { return nullptr; }
};

struct NewtonSettings {
    std::size_t maxIterations = 50;
    double residualTolerance = 1e-10;  // converged when max|F_i| <= this
    double stepTolerance = 1e-12;  // or when a full step changes x by <= this·(1 + |x|) (max norms)
    double armijo = 1e-4;  // sufficient-decrease constant alpha
    double minDamping = 1e-6;  // give up when the line search needs a smaller damping factor
    // Fixed-Jacobian (chord) mode: after a full Newton step the old factorisation is reused
    // while each step contracts ||F|| by at least this factor (0 disables the mode).
    double chordContraction = 0.0;
    // The system already holds a factorisation from an earlier solve near x0 (the previous
    // stage of a tolerance schedule): chord steps with it come first, while each contracts
    // ||F|| by at least chordContraction (0.1, one digit, when that is 0), before any new Jacobian.
    bool reuseFactorisation = false;
    // Jacobian re-use (Vankan 1992, eq. 4.42, after NAG D02SAF): at a new iterate the old
    // factorisation gives the simplified correction d+ = J^-1 F(x+); while
    // ||d+|| <= 0.0625 (1 - 1/(m+1)) ||d|| (m unknowns, d the previous correction) it is the next
    // step and no Jacobian is built. A step on a re-used Jacobian that does not decrease ||F|| is
    // dropped for a new Jacobian at the same point. Points where a re-used step is likely (the last
    // correction shrank that much) are evaluated by NewtonSystem::trialResidual.
    bool reuseJacobian = false;
    // Modified steps (Gay 1976): when J is singular to working precision, its Newton step is not
    // finite, or the line search fails along it, the step is d = -(J^T J + mu I)^-1 J^T F, which
    // raises every singular value s of J to s + mu/s (small ones most), with
    // mu = sqrt(m eps) ||J^T J||_1 (Dennis and Schnabel 1983, §6.5), and 1e4 times that when the
    // line search fails along it too. Newton stops where J^T F = 0 while F != 0 (a minimum of ||F||
    // that is no root) and after three modified steps in a row that shrink ||F|| by less than 0.9
    // (Vankan's eq. 4.41 factor). Needs NewtonSystem::jacobianMatrix(); without it (or off) those
    // cases stop Newton.
    bool modifiedSteps = true;
};

struct NewtonIteration {
    std::size_t iteration = 0;
    double residualNorm = 0.0;  // ||F||_2 after the step
    double damping = 1.0;  // line-search factor of the accepted step
    bool jacobianReused = false;
    bool modified = false;  // a modified (regularised) step, see NewtonSettings::modifiedSteps
    const Eigen::VectorXd* x = nullptr;  // the iterate after the step; valid during the observer call only
};

struct NewtonResult {
    Eigen::VectorXd x;
    Eigen::VectorXd residual;
    double residualNorm = 0.0;  // ||F||_2
    std::size_t iterations = 0;
    std::size_t jacobianEvaluations = 0;  // Jacobians built (linearise() calls)
    std::size_t jacobianReuses = 0;  // steps taken on an earlier Jacobian's factorisation
    std::size_t modifiedSteps = 0;  // steps of NewtonSettings::modifiedSteps
    std::size_t residualEvaluations = 0;
    // Why it stopped: converged by the residual or the step tolerance, the iteration limit,
    // cancelled, or failed (singular Jacobian, line search: damping too small, evaluation failed).
    core::Termination termination = core::Termination::iterationLimit("");
    bool converged() const { return termination.converged(); }
};

using NewtonObserver = std::function<void(const NewtonIteration&)>;

// Globally convergent Newton: full step first, then quadratic and cubic backtracking on
// 1/2||F||^2 with an Armijo test (Press et al., Numerical Recipes 3rd ed., §9.7 `lnsrch`),
// plus the fixed-Jacobian mode of RMUSN (seed 001, §3.3), the Jacobian re-use rule of Vankan (1992)
// and modified steps where J is singular (Gay 1976). Adds its counts to the thread's
// core::RunStatistics.
NewtonResult solveDampedNewton(NewtonSystem& system, Eigen::VectorXd x0, const NewtonSettings& settings,
                               const NewtonObserver& observer = {}, std::stop_token stop = {});

// A dense system given as two functions; J is factorised by partial-pivoting LU.
class DenseNewtonSystem : public NewtonSystem {
public:
    using Residual = std::function<Eigen::VectorXd(const Eigen::VectorXd&)>;
    using Jacobian = std::function<Eigen::MatrixXd(const Eigen::VectorXd&)>;
    DenseNewtonSystem(Residual residual, Jacobian jacobian);
    Eigen::VectorXd residual(const Eigen::VectorXd& x) override;
    void linearise(const Eigen::VectorXd& x) override;
    Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const override;
    const Eigen::SparseMatrix<double>* jacobianMatrix() override;

private:
    Residual residual_;
    Jacobian jacobian_;
    Eigen::MatrixXd matrix_;  // J of the last linearise() (empty when it could not be formed)
    Eigen::SparseMatrix<double> sparse_;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

// Throws std::runtime_error when the LU factors of a dense matrix show it to be singular
// to working precision (smallest |U_ii| below 1e-14 of the largest).
void checkRegular(const Eigen::PartialPivLU<Eigen::MatrixXd>& lu, const std::string& what);

}  // namespace sysid::shooting
