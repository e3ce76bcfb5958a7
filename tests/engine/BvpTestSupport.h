#pragma once

#include "engine/shooting/BoundaryValueProblem.h"

#include <cmath>
#include <functional>
#include <memory>
#include <utility>

namespace sysid::test {

// An OdeSystem from two lambdas (copyable, so clone() is trivial).
class LambdaOde : public shooting::OdeSystem {
public:
    using Rhs = std::function<void(double t, const double* x, double* f)>;
    using Jacobian = std::function<void(double t, const double* x, double* J, double* dfdt)>;
    LambdaOde(std::size_t n, Rhs rhs, Jacobian jacobian) : n_(n), rhs_(std::move(rhs)), jacobian_(std::move(jacobian))
    {
    }
    std::size_t dimension() const override { return n_; }
    void rhs(double t, const double* x, double* f) override { rhs_(t, x, f); }
    void jacobian(double t, const double* x, double* J, double* dfdt) override { jacobian_(t, x, J, dfdt); }
    std::unique_ptr<shooting::OdeSystem> clone() const override { return std::make_unique<LambdaOde>(*this); }

private:
    std::size_t n_;
    Rhs rhs_;
    Jacobian jacobian_;
};

// y'' = c(t, y) as [y, y']' with J = [0 1; dc/dy 0].
inline LambdaOde secondOrder(std::function<double(double, double)> c, std::function<double(double, double)> dcdy)
{
    return LambdaOde(
        2,
        [c](double t, const double* x, double* f) {
            f[0] = x[1];
            f[1] = c(t, x[0]);
        },
        [dcdy](double t, const double* x, double* J, double* dfdt) {
            J[0] = 0.0;  // (0,0)
            J[1] = dcdy(t, x[0]);  // (1,0)
            J[2] = 1.0;  // (0,1)
            J[3] = 0.0;  // (1,1)
            dfdt[0] = dfdt[1] = 0.0;
        });
}

// y(a) = ya, y(b) = yb for a [y, y'] system.
inline shooting::BoundaryConditions dirichlet(double ya, double yb)
{
    shooting::BoundaryConditions bc;
    bc.leftCount = 1;
    bc.left = [ya](const Eigen::VectorXd& x) { return Eigen::VectorXd::Constant(1, x(0) - ya); };
    bc.right = [yb](const Eigen::VectorXd& x) { return Eigen::VectorXd::Constant(1, x(0) - yb); };
    bc.leftJacobian = [](const Eigen::VectorXd&) { return Eigen::MatrixXd(Eigen::MatrixXd::Identity(1, 2)); };
    bc.rightJacobian = [](const Eigen::VectorXd&) { return Eigen::MatrixXd(Eigen::MatrixXd::Identity(1, 2)); };
    return bc;
}

inline shooting::BvpStage stage(integrate::IntegrationMethod method, double rtol = 1e-12, double atol = 1e-12,
                                std::size_t steps = 1, double newtonTolerance = 1e-10)
{
    shooting::BvpStage s;
    s.integrator.method = method;
    s.integrator.relativeTolerance = rtol;
    s.integrator.absoluteTolerance = atol;
    s.stepsPerInterval = steps;
    s.newtonTolerance = newtonTolerance;
    return s;
}

// Nodes on a straight line from (ya, slope) at every shooting point.
inline Eigen::MatrixXd linearGuess(const std::vector<double>& points, double ya, double yb)
{
    Eigen::MatrixXd nodes(static_cast<Eigen::Index>(points.size()), 2);
    const double slope = (yb - ya) / (points.back() - points.front());
    for (std::size_t i = 0; i < points.size(); ++i) {
        nodes(static_cast<Eigen::Index>(i), 0) = ya + slope * (points[i] - points.front());
        nodes(static_cast<Eigen::Index>(i), 1) = slope;
    }
    return nodes;
}

}  // namespace sysid::test
