#include "engine/estimate/StiffnessDiagnostics.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sysid::estimate {

std::size_t suggestedShootingPoints(double kappaMin, double span)
{
    if (!(kappaMin < 0) || !(span > 0))
        return 2;
    // kappa*dt = -2: dt = 2/|kappa|, so ceil(span |kappa| / 2) intervals.
    const double intervals = std::ceil(span * -kappaMin / 2.0 - 1e-9);
    if (!(intervals < 1e9))
        return static_cast<std::size_t>(1e9);
    return std::max<std::size_t>(2, static_cast<std::size_t>(intervals) + 1);
}

StiffnessDiagnostics stiffnessAlong(integrate::OdeSystem& system, const std::vector<double>& times,
                                    const Eigen::MatrixXd& states, std::size_t points)
{
    const auto n = static_cast<Eigen::Index>(system.dimension());
    if (states.rows() != static_cast<Eigen::Index>(times.size()) || states.cols() != n)
        throw std::invalid_argument("stiffness diagnostics: the trajectory does not match the system");
    StiffnessDiagnostics d;
    d.times = times;
    d.points = points;
    d.span = times.empty() ? 0.0 : times.back() - times.front();
    d.eigenvalues.resize(static_cast<Eigen::Index>(times.size()), n);
    d.kappaMin = std::numeric_limits<double>::infinity();
    Eigen::MatrixXd J(n, n);
    Eigen::VectorXd f(n), x(n);
    Eigen::EigenSolver<Eigen::MatrixXd> solver;
    for (std::size_t k = 0; k < times.size(); ++k) {
        const auto row = static_cast<Eigen::Index>(k);
        x = states.row(row).transpose();
        system.rhsAndStateJacobian(times[k], x.data(), f.data(), J.data());
        double kappa = std::numeric_limits<double>::quiet_NaN();
        if (J.allFinite()) {
            solver.compute(J, false);
            if (solver.info() == Eigen::Success) {
                Eigen::VectorXcd lambda = solver.eigenvalues();
                std::sort(lambda.begin(), lambda.end(),
                          [](const std::complex<double>& a, const std::complex<double>& b) {
                              return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
                          });
                d.eigenvalues.row(row) = lambda.transpose();
                kappa = lambda.size() > 0 ? lambda(0).real() : 0.0;
            }
        }
        if (std::isnan(kappa))
            d.eigenvalues.row(row).setConstant(std::complex<double>(kappa, 0.0));
        d.kappa.push_back(kappa);
        if (kappa < d.kappaMin) {
            d.kappaMin = kappa;
            d.kappaMinTime = times[k];
        }
    }
    if (!std::isfinite(d.kappaMin))
        d.kappaMin = std::numeric_limits<double>::quiet_NaN();
    d.suggestedPoints = std::isnan(d.kappaMin) ? 0 : suggestedShootingPoints(d.kappaMin, d.span);
    return d;
}

std::string describeStiffness(const StiffnessDiagnostics& d)
{
    if (d.empty())
        return "no points to diagnose";
    if (std::isnan(d.kappaMin))
        return "the Jacobian is not a finite matrix along the trajectory, so its eigenvalues are unknown";
    char text[320];
    if (!(d.kappaMin < 0)) {
        std::snprintf(text, sizeof text, "kappa = min Re(lambda) = %.4g at t = %.4g: no decaying mode, not stiff",
                      d.kappaMin, d.kappaMinTime);
        return text;
    }
    std::snprintf(text, sizeof text,
                  "kappa = min Re(lambda) = %.4g at t = %.4g; with %zu shooting points kappa*dt = %.3g; kappa*dt >= -2 "
                  "takes %zu points (Rutten 1993, sec. 5.3)",
                  d.kappaMin, d.kappaMinTime, d.points, d.kappaStep(), d.suggestedPoints);
    return text;
}

}  // namespace sysid::estimate
