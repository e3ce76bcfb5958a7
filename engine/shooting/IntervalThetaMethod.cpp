#include "engine/shooting/IntervalThetaMethod.h"

#include "engine/data/Text.h"
#include "engine/integrate/IntegrationError.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace sysid::shooting {

void integrateIntervalThetaMethod(OdeSystem& system, double theta, std::size_t steps, double t0, double t1,
                                  std::vector<double>& z, bool variational,
                                  const std::function<void(double t, const std::vector<double>& z)>& afterStep,
                                  const std::string& where)
{
    using integrate::IntegrationError;
    const auto n = static_cast<Eigen::Index>(system.dimension());
    const std::size_t count = std::max<std::size_t>(steps, 1);
    const double h = (t1 - t0) / static_cast<double>(count);
    Eigen::VectorXd x0(n), f0(n), y(n), fy(n), G(n), delta(n);
    Eigen::MatrixXd J0(n, n), Jy(n, n), iteration(n, n);
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(n, n);
    auto fail = [&](double t, const std::string& what) {
        throw IntegrationError(IntegrationError::Reason::SolverFailure, t,
                               where + ": the implicit step to t = " + data::formatNumber(t, 10) + " " + what +
                                   "; use more steps per interval, more shooting points or a better starting guess");
    };
    for (std::size_t s = 0; s < count; ++s) {
        const double ta = t0 + static_cast<double>(s) * h;
        const double tb = s + 1 == count ? t1 : ta + h;
        const double step = tb - ta;
        x0 = Eigen::Map<const Eigen::VectorXd>(z.data(), n);
        system.rhsAndStateJacobian(ta, x0.data(), f0.data(), J0.data());
        const Eigen::VectorXd explicitPart = x0 + (1 - theta) * step * f0;
        // Newton from x0, not from an explicit predictor, which overshoots on the stiff modes.
        y = x0;
        bool converged = false;
        for (int k = 0; k < 25 && !converged; ++k) {
            system.rhsAndStateJacobian(tb, y.data(), fy.data(), Jy.data());
            if (!fy.allFinite() || !Jy.allFinite())
                fail(tb, "meets a non-finite f or df/dx");
            G = y - explicitPart - theta * step * fy;
            iteration = identity - theta * step * Jy;
            lu.compute(iteration);
            delta = lu.solve(G);
            if (!delta.allFinite())
                fail(tb, "has a singular iteration matrix I - theta h df/dx");
            y -= delta;
            converged = delta.lpNorm<Eigen::Infinity>() <= 1e-12 * (1.0 + y.lpNorm<Eigen::Infinity>());
        }
        if (!converged)
            fail(tb, "did not converge in 25 Newton iterations");
        Eigen::Map<Eigen::VectorXd>(z.data(), n) = y;
        if (variational) {
            // d x1/d x0 = (I - theta h J(x1))^-1 (I + (1 - theta) h J(x0)), at the converged x1.
            system.rhsAndStateJacobian(tb, y.data(), fy.data(), Jy.data());
            lu.compute(identity - theta * step * Jy);
            Eigen::Map<Eigen::MatrixXd> Phi(z.data() + n, n, n);
            const Eigen::MatrixXd propagated = Phi + (1 - theta) * step * (J0 * Phi);
            Phi = lu.solve(propagated);
        }
        afterStep(tb, z);
    }
}

}  // namespace sysid::shooting
