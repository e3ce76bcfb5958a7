#pragma once

#include <Eigen/Dense>

#include <stop_token>
#include <string>

namespace sysid::estimate {

// The local model of a merit function at one point: after a step the merit is expected to fall by
// gap + 1/2 |residuals|^2 - 1/2 |residuals + jacobian * step|^2. For plain least squares `residuals`
// are the residuals, merit = 1/2 |residuals|^2 and gap = 0; a constrained problem (multiple shooting)
// condenses its constraints into them and adds a penalty to the merit, which the gap holds.
struct Linearization {
    double merit = 0.0;
    double violation = 0.0;  // 1/2 |constraint defects|^2 (multiple shooting), not part of merit
    double gap = 0.0;  // what a zero parameter step still gains (multiple shooting's continuity gaps)
    // Maximum likelihood with estimated noise variances: merit is -log L, of any sign, and the residuals
    // are weighted by the variances estimated at this point. With those weights frozen the weighted
    // cost has the gradient of -log L there and lies above it (-log L is concave in each output's sum
    // of squares), so its local model predicts -log L's decrease and every decrease of it is one of
    // -log L (a majorise-minimise step, Lange 2016, ch. 1).
    bool likelihood = false;

    Eigen::VectorXd residuals;
    Eigen::MatrixXd jacobian;
    // Curvature the residuals' model leaves out, subtracted from J'J (empty: none): the local model becomes
    // 1/2 |residuals + jacobian * step|^2 - 1/2 step' curvature step. Maximum likelihood's frozen weights miss
    // the curvature of ln M_jj, sum_j (2/n_j) g_j g_j' with g_j = J_j' r_j (weighted, output j's rows); without
    // it the reweighting converges only linearly. A minimiser uses it only where J'J - curvature stays
    // positive definite (normalEquations).
    Eigen::MatrixXd curvature;
    // A large problem may form its normal equations while it computes the residuals and leave `jacobian`
    // empty (ResponseFitProblem::NormalForm): then normalMatrix = J'J and normalGradient = J'r over all rows,
    // and dataNormalMatrix = J'J over the data rows alone (the uncertainty's).
    bool normalForm = false;
    Eigen::MatrixXd normalMatrix, dataNormalMatrix;
    Eigen::VectorXd normalGradient;

    // The squared column norms of J (Marquardt's diagonal): J'J's diagonal.
    Eigen::VectorXd columnSquares() const;
    // 1/2 |residuals + jacobian * step|^2, the residuals' part of the local model after `step`.
    double modelHalfSquares(const Eigen::VectorXd& step) const;

    // What the relative tests measure a change against: the merit of least squares; for maximum
    // likelihood the frozen weighted cost 1/2 |residuals|^2 (the samples / 2 plus the prior rows).
    double scale() const { return likelihood ? gap + 0.5 * residuals.squaredNorm() : merit; }
};

class LeastSquaresProblem {
public:
    virtual ~LeastSquaresProblem() = default;

    virtual Eigen::VectorXd parameters() const = 0;  // the current point
    virtual Eigen::VectorXd lower() const = 0;
    virtual Eigen::VectorXd upper() const = 0;

    // Linearizes at the current point moved by `step` (a zero step: the current point).
    // Returns false, with a reason, when the model cannot be evaluated there.
    virtual bool evaluate(const Eigen::VectorXd& step, Linearization& out, std::string& failure,
                          std::stop_token stop) = 0;
    // Moves the current point by the step last passed to a successful evaluate().
    virtual void accept() = 0;

    // A problem whose steps also move hidden unknowns (multiple shooting's nodes) is minimised by
    // dampedGaussNewton, which damps the whole step by a length instead of Levenberg-Marquardt
    // damping of the parameters: evaluate(alpha * full step) after setStepLength(alpha) moves the
    // hidden unknowns by alpha too.
    virtual void setStepLength(double /*alpha*/) {}
};

}  // namespace sysid::estimate
