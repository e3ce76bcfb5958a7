#include "engine/shooting/IntervalIntegrator.h"

#include "engine/data/Text.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/RosenbrockIntegration.h"
#include "engine/shooting/IntervalThetaMethod.h"

#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/euler.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace sysid::shooting {

namespace odeint = boost::numeric::odeint;
using integrate::IntegrationError;
using Reason = IntegrationError::Reason;

namespace {

bool allFinite(const std::vector<double>& z)
{
    return std::all_of(z.begin(), z.end(), [](double v) { return std::isfinite(v); });
}

// x' = f and, with the variational equations, Phi' = (df/dx) Phi.
class AugmentedSystem {
public:
    AugmentedSystem(OdeSystem& system, bool variational) :
        system_(system), n_(system.dimension()), variational_(variational), J_(n_ * n_), dfdt_(n_)
    {
    }

    std::size_t size() const { return variational_ ? n_ + n_ * n_ : n_; }

    void rhs(double t, const double* z, double* dz)
    {
        if (!variational_) {
            system_.rhs(t, z, dz);
            return;
        }
        system_.rhsAndStateJacobian(t, z, dz, J_.data());
        const auto n = static_cast<Eigen::Index>(n_);
        Eigen::Map<const Eigen::MatrixXd> J(J_.data(), n, n), Phi(z + n, n, n);
        // Coefficient-wise product: for the small n of shooting problems it beats the blocked GEMM kernel.
        Eigen::Map<Eigen::MatrixXd>(dz + n, n, n).noalias() = J.lazyProduct(Phi);
    }

    // Row-major Jacobian of the augmented system for Rosenbrock4. The second-derivative
    // block d(J Phi)/dx and d(J Phi)/dt come from forward differences of df/dx
    // (OdeSystem has no Hessians).
    void jacobian(double t, const double* z, double* A, double* dFdt)
    {
        const std::size_t N = size();
        std::fill(A, A + N * N, 0.0);
        system_.jacobian(t, z, J_.data(), dfdt_.data());
        for (std::size_t i = 0; i < n_; ++i) {
            for (std::size_t j = 0; j < n_; ++j)
                A[i * N + j] = J_[j * n_ + i];
            dFdt[i] = dfdt_[i];
        }
        if (!variational_)
            return;
        const std::size_t n = n_;
        // Phi block: d(J Phi)_{rc}/dPhi_{kc} = J_{rk}.
        for (std::size_t c = 0; c < n; ++c)
            for (std::size_t r = 0; r < n; ++r)
                for (std::size_t k = 0; k < n; ++k)
                    A[(n + c * n + r) * N + (n + c * n + k)] = J_[k * n + r];
        std::vector<double> shifted(z, z + n), Jq(n * n), scratch(n);
        const double root = std::sqrt(std::numeric_limits<double>::epsilon());
        auto directional = [&](std::size_t column, double h) {
            // (J(shifted) - J) / h times Phi, into column `column` of the Phi rows (or dFdt).
            for (std::size_t c = 0; c < n; ++c)
                for (std::size_t r = 0; r < n; ++r) {
                    double s = 0.0;
                    for (std::size_t k = 0; k < n; ++k)
                        s += (Jq[k * n + r] - J_[k * n + r]) * z[n + c * n + k];
                    const double value = s / h;
                    if (column == N)
                        dFdt[n + c * n + r] = value;
                    else
                        A[(n + c * n + r) * N + column] = value;
                }
        };
        for (std::size_t q = 0; q < n; ++q) {
            const double h = root * std::max(1.0, std::abs(z[q]));
            shifted[q] = z[q] + h;
            system_.jacobian(t, shifted.data(), Jq.data(), scratch.data());
            shifted[q] = z[q];
            directional(q, h);
        }
        const double ht = root * std::max(1.0, std::abs(t));
        system_.jacobian(t + ht, z, Jq.data(), scratch.data());
        directional(N, ht);
    }

private:
    OdeSystem& system_;
    std::size_t n_;
    bool variational_;
    std::vector<double> J_, dfdt_;
};

}  // namespace

std::vector<double> integrateInterval(OdeSystem& system, const BvpStage& stage, double t0, double t1, const double* x0,
                                      bool variational, std::stop_token stop, const std::string& where)
{
    AugmentedSystem augmented(system, variational);
    const std::size_t n = system.dimension();
    const std::size_t N = augmented.size();
    std::vector<double> z(N, 0.0);
    std::copy(x0, x0 + n, z.begin());
    if (variational)
        for (std::size_t i = 0; i < n; ++i)
            z[n + i * n + i] = 1.0;
    if (!allFinite(z))
        throw IntegrationError(Reason::NonFiniteState, t0, where + ": the initial value is not finite");

    const auto& settings = stage.integrator;
    std::size_t steps = 0;
    auto guard = [&](double t, const std::vector<double>& state) {
        if (stop.stop_requested())
            throw IntegrationError(Reason::Cancelled, t, where + ": cancelled at t = " + data::formatNumber(t, 10));
        if (!allFinite(state))
            throw IntegrationError(Reason::NonFiniteState, t,
                                   where +
                                       ": the solution overflows (is not finite) at t = " + data::formatNumber(t, 10) +
                                       "; use more shooting points or a better starting guess");
        if (++steps > settings.maxSteps)
            throw IntegrationError(Reason::TooManySteps, t,
                                   where + ": more than " + std::to_string(settings.maxSteps) +
                                       " steps by t = " + data::formatNumber(t, 10));
    };
    auto rhs = [&augmented](const std::vector<double>& x, std::vector<double>& dx, double t) {
        augmented.rhs(t, x.data(), dx.data());
    };

    switch (settings.method) {
    case integrate::IntegrationMethod::Euler:
    case integrate::IntegrationMethod::RK4: {
        odeint::runge_kutta4<std::vector<double>> rk4;
        odeint::euler<std::vector<double>> euler;
        const std::size_t count = std::max<std::size_t>(stage.stepsPerInterval, 1);
        const double h = (t1 - t0) / static_cast<double>(count);
        for (std::size_t s = 0; s < count; ++s) {
            const double t = t0 + static_cast<double>(s) * h;
            if (settings.method == integrate::IntegrationMethod::RK4)
                rk4.do_step(rhs, z, t, h);
            else
                euler.do_step(rhs, z, t, h);
            guard(s + 1 == count ? t1 : t + h, z);
        }
        break;
    }
    case integrate::IntegrationMethod::Dopri5: {
        auto stepper = odeint::make_controlled(settings.absoluteTolerance, settings.relativeTolerance,
                                               odeint::runge_kutta_dopri5<std::vector<double>>());
        double t = t0;
        double dt = settings.maxStep > 0 ? std::min(settings.maxStep, t1 - t0) : t1 - t0;
        std::vector<double> previous;
        std::size_t rejected = 0;
        std::vector<double> stops = system.breakpoints(t0, t1);
        stops.push_back(t1);
        std::size_t next = 0;
        while (t < t1) {
            while (stops[next] <= t)
                ++next;
            const double target = stops[next];
            const bool last = dt >= target - t;
            double used = last ? target - t : dt;
            const double before = t;
            previous = z;
            const auto outcome = stepper.try_step(rhs, z, t, used);
            if (outcome == odeint::success && allFinite(z)) {
                if (last)
                    t = target;
                guard(t, z);
                dt = settings.maxStep > 0 ? std::min(used, settings.maxStep) : used;
                rejected = 0;
                continue;
            }
            if (outcome == odeint::success) {
                // A finite error estimate can accept an overflowing step: undo it and shrink.
                z = previous;
                t = before;
                stepper.reset();
                used = (last ? target - before : dt) * 0.1;
            }
            if (!std::isfinite(used) || used <= 1e-14 * std::max(1.0, std::abs(t)) || ++rejected > 200) {
                if (stop.stop_requested())
                    throw IntegrationError(Reason::Cancelled, t,
                                           where + ": cancelled at t = " + data::formatNumber(t, 10));
                const double size = std::accumulate(z.begin(), z.end(), 0.0,
                                                    [](double a, double v) { return std::max(a, std::abs(v)); });
                if (size > 1e200)
                    throw IntegrationError(Reason::NonFiniteState, t,
                                           where + ": the solution overflows at t = " + data::formatNumber(t, 10) +
                                               " (|x| = " + data::formatNumber(size, 10) +
                                               "); use more shooting points or a better starting guess");
                throw IntegrationError(Reason::StepSizeUnderflow, t,
                                       where + ": the step size became too small at t = " + data::formatNumber(t, 10) +
                                           " (the solution overflows or the problem is too stiff for dopri5); use "
                                           "more shooting points, a better starting guess or rosenbrock4");
            }
            dt = used;
        }
        break;
    }
    // Fixed-step implicit stages for stiff problems (seed 001 §5.4 allows a stiff integrator in
    // the loose-to-tight schedule): the trapezoidal rule is symmetric, so it keeps both the decaying
    // state modes and the growing costate modes of a Hamiltonian BVP bounded where explicit Euler
    // amplifies them (Ascher, Mattheij & Russell, Numerical Solution of BVPs for ODEs, 1995, §5.7).
    case integrate::IntegrationMethod::ImplicitEuler:
    case integrate::IntegrationMethod::CrankNicolson:
        integrateIntervalThetaMethod(system, settings.method == integrate::IntegrationMethod::ImplicitEuler ? 1.0 : 0.5,
                                     stage.stepsPerInterval, t0, t1, z, variational, guard, where);
        break;
    // The shooting intervals' augmented systems are dense (n + n^2): the sparse method brings
    // nothing there, so it falls back to rosenbrock4.
    case integrate::IntegrationMethod::SparseImplicit:
    case integrate::IntegrationMethod::Rosenbrock4: {
        integrate::RosenbrockProblem problem;
        problem.size = N;
        problem.rhs = [&augmented](double t, const double* x, double* dx) { augmented.rhs(t, x, dx); };
        problem.jacobian = [&augmented](double t, const double* x, double* A, double* dFdt) {
            augmented.jacobian(t, x, A, dFdt);
        };
        std::vector<double> end;
        problem.record = [&end, N](std::size_t sample, const double* x) {
            if (sample == 1)
                end.assign(x, x + N);
        };
        std::vector<double> check(N);
        problem.afterStep = [&](double t, const double* x, double) {
            check.assign(x, x + N);
            guard(t, check);
        };
        problem.onFailure = [&where](double t, const char* what) {
            throw IntegrationError(Reason::SolverFailure, t,
                                   where + ": integration failed at t = " + data::formatNumber(t, 10) + ": " + what);
        };
        problem.boundaries = {t0};
        for (double b : system.breakpoints(t0, t1))
            problem.boundaries.push_back(b);
        problem.boundaries.push_back(t1);
        problem.beginSegment = [](double, double) {};
        const double initial = settings.maxStep > 0 ? std::min(settings.maxStep, (t1 - t0) / 10) : (t1 - t0) / 10;
        integrate::integrateRosenbrock(problem, z, {t0, t1}, settings.absoluteTolerance, settings.relativeTolerance,
                                       settings.maxStep, initial);
        if (end.size() != N || !allFinite(end))
            throw IntegrationError(Reason::NonFiniteState, t1,
                                   where +
                                       ": the solution overflows (is not finite) at t = " + data::formatNumber(t1, 10));
        z = std::move(end);
        break;
    }
    }
    return z;
}

}  // namespace sysid::shooting
