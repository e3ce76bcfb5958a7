// Multiple shooting: time of one Newton iteration (residual, Jacobian, factorisation, solve)
// against the number of shooting points m, for a 10-ODE system (seed 001, Fig. 3.8).
// The system is 5 uncoupled copies of x'' = w^2 (x + 0.1 x^3), x(0) = 1, x(T) = 0, with a fixed
// interval length 0.05 (T = 0.05 (m - 1)), so every part should grow linearly in m. A damped
// oscillator with x(0), x(T) conditions becomes singular at resonant lengths T; this saddle
// system is well conditioned for every T.
#include "NewtonIterationParts.h"

#include "engine/shooting/BoundaryValueProblem.h"

#include <Eigen/Dense>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace sysid;
using namespace sysid::shooting;

namespace {

constexpr std::size_t kCopies = 5, kN = 2 * kCopies;
double omega(std::size_t j)
{
    return 1.0 + 0.5 * static_cast<double>(j);
}

class Saddles : public OdeSystem {
public:
    std::size_t dimension() const override { return kN; }
    void rhs(double, const double* x, double* f) override
    {
        for (std::size_t j = 0; j < kCopies; ++j) {
            const double w2 = omega(j) * omega(j), q = x[2 * j];
            f[2 * j] = x[2 * j + 1];
            f[2 * j + 1] = w2 * (q + 0.1 * q * q * q);
        }
    }
    void jacobian(double, const double* x, double* J, double* dfdt) override
    {
        std::fill(J, J + kN * kN, 0.0);
        for (std::size_t j = 0; j < kCopies; ++j) {
            const double w2 = omega(j) * omega(j), q = x[2 * j];
            J[2 * j + kN * (2 * j + 1)] = 1.0;
            J[(2 * j + 1) + kN * (2 * j)] = w2 * (1.0 + 0.3 * q * q);
            dfdt[2 * j] = dfdt[2 * j + 1] = 0.0;
        }
    }
    std::unique_ptr<OdeSystem> clone() const override { return std::make_unique<Saddles>(*this); }
};

BoundaryConditions conditions()
{
    BoundaryConditions bc;
    bc.leftCount = kCopies;
    auto positions = [](const Eigen::VectorXd& x, double value) {
        Eigen::VectorXd g(kCopies);
        for (std::size_t j = 0; j < kCopies; ++j)
            g(static_cast<Eigen::Index>(j)) = x(static_cast<Eigen::Index>(2 * j)) - value;
        return g;
    };
    auto selector = [](const Eigen::VectorXd&) {
        Eigen::MatrixXd G = Eigen::MatrixXd::Zero(kCopies, kN);
        for (std::size_t j = 0; j < kCopies; ++j)
            G(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(2 * j)) = 1.0;
        return G;
    };
    bc.left = [positions](const Eigen::VectorXd& x) { return positions(x, 1.0); };
    bc.right = [positions](const Eigen::VectorXd& x) { return positions(x, 0.0); };
    bc.leftJacobian = selector;
    bc.rightJacobian = selector;
    return bc;
}

}  // namespace

int main(int argc, char** argv)
{
    // Usage: bench_bvp [THREADS [fd|var [METHOD]]]; "fd" builds J by forward differences
    // (seed 001, eq. 3.7); METHOD is dopri5 (default), rosenbrock4, rk4 or euler.
    const std::size_t threads = argc > 1 ? static_cast<std::size_t>(std::atoi(argv[1])) : 1;
    const bool differences = argc > 2 && std::string(argv[2]) == "fd";
    const auto method = integrate::parseIntegrationMethod(argc > 3 ? argv[3] : "dopri5");
    if (!method) {
        std::fprintf(stderr, "unknown integration method %s\n", argv[3]);
        return 2;
    }
    std::printf("bench_bvp (%s build): 10 ODEs, %s rtol 1e-8 atol 1e-10, %s Jacobian, %zu thread(s)\n",
                SYSID_BENCH_BUILD_TYPE, integrate::methodName(*method).c_str(),
                differences ? "finite-difference" : "variational", threads);
    std::printf(
        "per Newton iteration (mean over the iterations that built a Jacobian, best of 5 solves), milliseconds\n");
    std::printf("%6s %5s %10s %10s %10s %10s %12s %9s\n", "m", "iter", "residual", "jacobian", "factor", "solve",
                "total/(m-1)", "|F|");
    for (std::size_t m : {10, 50, 100, 200, 500, 1000}) {
        BvpSettings s;
        const double T = 0.05 * static_cast<double>(m - 1);
        s.shootingPoints = uniformShootingPoints(0.0, T, m);
        BvpStage stage;
        stage.integrator.method = *method;
        stage.stepsPerInterval = 5;  // fixed-step methods
        stage.integrator.relativeTolerance = 1e-8;
        stage.integrator.absoluteTolerance = 1e-10;
        stage.newtonTolerance = 1e-9;
        s.stages = {stage};
        s.threads = threads;
        s.jacobian = differences ? IntervalJacobian::FiniteDifferences : IntervalJacobian::Variational;
        Eigen::MatrixXd guess(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(kN));
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < kCopies; ++j) {
                const double e = std::exp(-omega(j) * s.shootingPoints[i]);
                guess(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(2 * j)) = e;
                guess(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(2 * j + 1)) = -omega(j) * e;
            }
        bench::NewtonIterationParts parts;  // each part's best of five solves
        BvpResult r;
        for (int repeat = 0; repeat < 5; ++repeat) {
            bench::NewtonIterationSums sums;
            r = solveBoundaryValueProblem(Saddles(), conditions(), guess, s,
                                          [&](const BvpIteration& it) { sums.add(it); });
            parts.keepBest(sums);
        }
        if (!r.converged()) {
            std::printf("%6zu failed: %s\n", m, r.message.c_str());
            continue;
        }
        parts.printRow(m, r.totalIterations, r.newton.residualNorm);
    }
    return 0;
}
