#include "engine/integrate/RosenbrockIntegration.h"

#include "engine/integrate/DenseSegmentLoop.h"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <exception>

namespace sysid::integrate {

namespace odeint = boost::numeric::odeint;
using UblasVector = boost::numeric::ublas::vector<double>;
using UblasMatrix = boost::numeric::ublas::matrix<double>;

namespace {

// The system is integrated in autonomous form, with time as the last state (tau' = 1) and
// dF/dt as the last Jacobian column: odeint's non-autonomous path (dfdt) gave errors far
// above tolerance on forced problems (e.g. y' = -1000(y - cos t) - sin t), the autonomous
// one does not.
template <class Stepper>
void run(Stepper& stepper, const RosenbrockProblem& problem, const std::vector<double>& z0,
         const std::vector<double>& times, double initialStep)
{
    const std::size_t N = problem.size;
    std::vector<double> J(N * N), dFdt(N);
    auto f = [&problem, N](const UblasVector& x, UblasVector& dx, double) {
        problem.rhs(x(N), &x.data()[0], &dx.data()[0]);
        dx(N) = 1.0;
    };
    auto jac = [&](const UblasVector& x, UblasMatrix& M, double, UblasVector& dfdt) {
        problem.jacobian(x(N), &x.data()[0], J.data(), dFdt.data());
        for (std::size_t i = 0; i < N; ++i) {
            for (std::size_t j = 0; j < N; ++j)
                M(i, j) = J[i * N + j];
            M(i, N) = dFdt[i];
            M(N, i) = 0.0;
            dfdt(i) = 0.0;
        }
        M(N, N) = 0.0;
        dfdt(N) = 0.0;
    };
    UblasVector z(N + 1);
    std::copy(z0.begin(), z0.end(), z.begin());
    z(N) = times.front();
    try {
        integrateOverSegments(
            stepper, std::make_pair(f, jac), z, times, problem.boundaries, initialStep,
            [](const UblasVector& v) { return &v.data()[0]; }, problem.beginSegment, problem.record, problem.afterStep);
    } catch (const odeint::odeint_error& e) {
        problem.onFailure(stepper.current_time(), e.what());
        throw;
    }
}

}  // namespace

void integrateRosenbrock(const RosenbrockProblem& problem, const std::vector<double>& z0,
                         const std::vector<double>& times, double absoluteTolerance, double relativeTolerance,
                         double maxStep, double initialStep)
{
    if (maxStep > 0) {
        auto stepper =
            odeint::make_dense_output(absoluteTolerance, relativeTolerance, maxStep, odeint::rosenbrock4<double>());
        run(stepper, problem, z0, times, initialStep);
    } else {
        auto stepper = odeint::make_dense_output(absoluteTolerance, relativeTolerance, odeint::rosenbrock4<double>());
        run(stepper, problem, z0, times, initialStep);
    }
}

}  // namespace sysid::integrate
