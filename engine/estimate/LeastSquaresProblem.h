#pragma once

#include <Eigen/Dense>

#include <stop_token>
#include <string>

namespace sysid::estimate {

// The local model of a least-squares merit function at one point: the merit is expected to
// be 1/2 |residuals + jacobian * step|^2 after a step. For plain least squares `residuals`
// are the residuals and merit = 1/2 |residuals|^2; a constrained problem (multiple shooting)
// condenses its constraints into them and adds a penalty to the merit.
struct Linearization {
    double merit = 0.0;
    double violation = 0.0;  // 1/2 |constraint defects|^2 (multiple shooting), not part of merit

    Eigen::VectorXd residuals;
    Eigen::MatrixXd jacobian;
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
