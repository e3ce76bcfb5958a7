// Time-discretisation benchmark (run by hand, never by CTest): cost of one Newton iteration
// (residuals, sparse Jacobian assembly, SparseLU factorisation and solve) for Ueda's Duffing
// x'' + 0.2 x' + x^3 = 0.3 cos t against the number of nodes, which should grow about linearly.
// Plain std::chrono; every figure is the median of several repetitions.

#include "BenchSupport.h"

#include "engine/discretise/DiscretisedPeriodicSystem.h"
#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <numbers>
#include <vector>

namespace {

using namespace sysid;
using bench::median;

// Median milliseconds of `work` over `repetitions` runs.
template <class Work>
double timed(int repetitions, Work work)
{
    std::vector<double> ms;
    for (int i = 0; i < repetitions; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return median(ms);
}

}  // namespace

int main()
try {
    eval::CompiledModel model(eval::compileModel(
        model::parseModel("param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\n")));
    const double T = 2.0 * std::numbers::pi;

    // A rough guess (the transient's 5th period), so every run needs several iterations.
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(4.0 * T, 5.0 * T, T / 200.0);
    request.times.insert(request.times.begin(), 0.0);
    const auto transient = integrate::simulate(model, request, {});
    std::vector<double> times(transient.times.begin() + 1, transient.times.end());
    const Eigen::MatrixXd states = transient.states.bottomRows(transient.states.rows() - 1);

    std::printf("bench_discretise (build %s): Duffing, time per Newton iteration, median of 5\n",
                SYSID_BENCH_BUILD_TYPE);
    std::printf("%-16s %8s %6s %14s %16s %10s\n", "scheme", "nodes", "iters", "ms/iteration", "us/iteration/node",
                "converged");
    for (auto scheme : {discretise::PeriodicScheme::CentralDifference, discretise::PeriodicScheme::HermiteSimpson}) {
        for (std::size_t nodes : {100, 200, 500, 1000, 2000, 5000, 10000}) {
            discretise::DiscretisationSettings s;
            s.period = T;
            s.nodes = nodes;
            s.scheme = scheme;
            std::vector<double> perIteration;
            shooting::PeriodicSolution r;
            for (int rep = 0; rep < 5; ++rep) {
                // Timed up to the last iteration, so the Floquet integration after it is left out.
                const auto start = std::chrono::steady_clock::now();
                auto last = start;
                r = discretise::findPeriodicSolutionByDiscretisation(
                    model, times, states, s,
                    [&](const shooting::NewtonIteration&) { last = std::chrono::steady_clock::now(); });
                const double ms = std::chrono::duration<double, std::milli>(last - start).count();
                perIteration.push_back(ms / static_cast<double>(std::max<std::size_t>(1, r.newton.iterations)));
            }
            const double ms = median(perIteration);
            std::printf("%-16s %8zu %6zu %14.3f %16.3f %10s\n",
                        scheme == discretise::PeriodicScheme::CentralDifference ? "central" : "hermite-simpson", nodes,
                        r.newton.iterations, ms, 1000.0 * ms / static_cast<double>(nodes),
                        r.converged() ? "yes" : "no");
        }
    }

    // The parts of one iteration, on a constant orbit (their cost does not depend on the values).
    std::printf("\nparts of one iteration (ms, median of 7)\n%-16s %8s %10s %10s %10s %12s\n", "scheme", "nodes",
                "residual", "linearise", "solve", "unknowns");
    for (auto scheme : {discretise::PeriodicScheme::CentralDifference, discretise::PeriodicScheme::HermiteSimpson}) {
        for (std::size_t nodes : {100, 200, 500, 1000, 2000, 5000, 10000}) {
            discretise::DiscretisedPeriodicSystem system(model, scheme, nodes, 0.0, T, std::nullopt);
            Eigen::MatrixXd constant(static_cast<Eigen::Index>(nodes), 2);
            constant.col(0).setConstant(0.3);
            constant.col(1).setZero();
            const Eigen::VectorXd X = system.pack(constant, T);
            Eigen::VectorXd F = system.residual(X);
            system.linearise(X);  // the pattern is analysed once, outside the timing
            const double residual = timed(7, [&] { F = system.residual(X); });
            const double linearise = timed(7, [&] { system.linearise(X); });
            Eigen::VectorXd dx;
            const double solve = timed(7, [&] { dx = system.solve(F); });
            std::printf("%-16s %8zu %10.3f %10.3f %10.3f %12zu\n",
                        scheme == discretise::PeriodicScheme::CentralDifference ? "central" : "hermite-simpson", nodes,
                        residual, linearise, solve, system.unknownCount());
        }
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "bench_discretise: %s\n", e.what());
    return 1;
}
