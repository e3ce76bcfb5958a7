#pragma once

#include "engine/estimate/LeastSquaresProblem.h"

#include <Eigen/Dense>

#include <limits>
#include <string>
#include <utility>

namespace sysid::test {

// r(theta) = b - M theta: a least-squares problem with a closed-form answer, with switches that
// break it in the ways a model can break.
class LinearProblem : public estimate::LeastSquaresProblem {
public:
    enum class Fault { None, NanJacobian, CostRises, CannotEvaluate };

    LinearProblem(Eigen::MatrixXd m, Eigen::VectorXd b, Eigen::VectorXd start, Fault fault = Fault::None) :
        m_(std::move(m)), b_(std::move(b)), theta_(std::move(start)), fault_(fault)
    {
    }
    Eigen::VectorXd parameters() const override { return theta_; }
    Eigen::VectorXd lower() const override { return Eigen::VectorXd::Constant(theta_.size(), -1e300); }
    Eigen::VectorXd upper() const override { return Eigen::VectorXd::Constant(theta_.size(), 1e300); }
    bool evaluate(const Eigen::VectorXd& step, estimate::Linearization& out, std::string& failure,
                  std::stop_token) override
    {
        const bool moved = step.norm() > 0;
        if (fault_ == Fault::CannotEvaluate && moved) {
            failure = "the model blew up";
            return false;
        }
        pending_ = theta_ + step;
        out.residuals = b_ - m_ * pending_;
        out.jacobian = -m_;
        out.merit = 0.5 * out.residuals.squaredNorm();
        if (fault_ == Fault::NanJacobian)
            out.jacobian(0, 0) = std::numeric_limits<double>::quiet_NaN();
        if (fault_ == Fault::CostRises && moved)
            out.merit += 1.0 + step.norm();  // the linearization promises a decrease the model never delivers
        return true;
    }
    void accept() override { theta_ = pending_; }

private:
    Eigen::MatrixXd m_;
    Eigen::VectorXd b_, theta_, pending_;
    Fault fault_;
};

// A well-conditioned M for LinearProblem: three residuals, two parameters.
inline Eigen::MatrixXd matrix3x2()
{
    Eigen::MatrixXd m(3, 2);
    m << 1.0, 0.5, -0.3, 2.0, 0.7, 0.2;
    return m;
}

}  // namespace sysid::test
