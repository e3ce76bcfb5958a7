#include "Rosenbrock4ControllerCheck.h"

#include "engine/integrate/Rosenbrock4AutonomousForm.h"
#include "engine/integrate/Rosenbrock4Controller.h"

#include <boost/numeric/odeint/stepper/rosenbrock4_controller.hpp>

#include <cstring>
#include <utility>

namespace sysid::test {

namespace odeint = boost::numeric::odeint;
using integrate::UblasMatrix;
using integrate::UblasVector;

namespace {

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

ControllerComparison compareWithOdeintController(integrate::SensitivitySystem& system, const std::vector<double>& z0,
                                                 double t0, double t1, double h0, double absoluteTolerance,
                                                 double relativeTolerance, double maxStep)
{
    const std::size_t N = system.size();
    integrate::Rosenbrock4AutonomousForm form(system);
    auto f = [&](const UblasVector& x, UblasVector& dx, double) { form.rhs(x, dx); };
    auto jac = [&](const UblasVector& x, UblasMatrix& M, double, UblasVector& dfdt) { form.jacobian(x, M, dfdt); };
    odeint::rosenbrock4_controller<odeint::rosenbrock4<double>> theirs(absoluteTolerance, relativeTolerance, maxStep);
    integrate::Rosenbrock4Controller ours(absoluteTolerance, relativeTolerance, maxStep, N + 1, 0);
    UblasVector xa(N + 1), xb(N + 1), newA(N + 1), newB(N + 1);
    for (std::size_t i = 0; i < N; ++i)
        xa(i) = xb(i) = z0[i];
    xa(N) = xb(N) = t0;
    double ta = t0, tb = t0, dta = h0, dtb = h0;
    ControllerComparison out;
    while (ta < t1 && out.attempts < 100000) {
        ++out.attempts;
        const auto ra = theirs.try_step(std::make_pair(f, jac), xa, ta, newA, dta);
        const auto rb = ours.try_step(std::make_pair(f, jac), xb, tb, newB, dtb);
        const std::string at = " at attempt " + std::to_string(out.attempts);
        if (ra != rb)
            out.difference = "accepted by one controller, rejected by the other" + at;
        else if (!sameBits(ta, tb) || !sameBits(dta, dtb))
            out.difference = "t or the next step differ" + at;
        else if (ra == odeint::success)
            for (std::size_t i = 0; i <= N && out.difference.empty(); ++i)
                if (!sameBits(newA(i), newB(i)))
                    out.difference = "component " + std::to_string(i) + " differs" + at;
        if (!out.difference.empty())
            return out;
        if (ra == odeint::success) {
            ++out.accepted;
            std::swap(xa, newA);
            std::swap(xb, newB);
        } else {
            ++out.rejected;
        }
    }
    return out;
}

}  // namespace sysid::test
