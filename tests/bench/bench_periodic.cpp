// Periodic-solution benchmark for issue 5 (run by hand, never by CTest; run_periodic_benchmark.sh
// runs it together with the SciPy reference periodic_scipy.py and prints both timings).
//
// Model: resources/examples/duffing_frequency_response.model,
//   x'' + 0.1 x' + x + 0.5 x^3 = 0.5 cos(w t).
// Cases (dopri5 rtol 1e-8 / atol 1e-10, Newton residual tolerance 1e-8, start x(0) = (0, 0)):
//   single    the periodic solution at w = 1 by single shooting
//   multiple  the same by multiple shooting with 8 intervals (serial, and on 2 threads)
//   sweep     200 points of the frequency response, w = 0.5 ... 1.3 evenly (below the fold
//             region, so a warm-started sweep without arclength, as solve_bvp does, is fair),
//             natural continuation with a fixed step
// Accuracy: each result's x(0) is compared with a reference computed with rtol 1e-12 and a
// Newton tolerance 1e-12; the reference values go into the JSON so SciPy is held to them too.
// Timed with std::chrono around the solver calls only (model compilation is not timed).
//
// Jacobian re-use (Vankan 1992, eq. 4.42; NewtonSettings::reuseJacobian), before and after in the
// same run: the three cases above and the periodic-response fit of
// resources/examples/duffing_periodic.sysid, each with a new Jacobian at every Newton iteration
// (before) and with the re-use rule (after, the default): time (median), Newton iterations,
// Jacobians built and re-used, modified steps, and the result's distance from the other's.
//
// Usage: bench_periodic [--json FILE] [--runs N] [--part all|reuse]

#include "BenchSupport.h"

#include "engine/core/SolverStatistics.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/job/FitJob.h"
#include "engine/model/ModelBuilder.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/shooting/Continuation.h"
#include "engine/shooting/PeriodicShooting.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

using namespace sysid;
using bench::Clock;
using bench::median;

namespace {

constexpr std::size_t sweepPoints = 200;
constexpr double sweepStart = 0.5, sweepEnd = 1.3;

shooting::PeriodicSettings periodicSettings(double w, std::size_t intervals, bool reference)
{
    shooting::PeriodicSettings s;
    s.period = 2 * std::numbers::pi / w;
    s.intervals = intervals;
    s.samples = 2;
    if (reference) {
        s.integrator.relativeTolerance = 1e-12;
        s.integrator.absoluteTolerance = 1e-14;
        s.newton.residualTolerance = 1e-12;
    } else {
        s.newton.residualTolerance = 1e-8;
    }
    return s;
}

void setW(eval::CompiledModel& model, double w)
{
    std::vector<double> p(model.parameters().begin(), model.parameters().end());
    p[3] = w;
    model.setParameters(p);
}

shooting::ContinuationSettings sweepSettings(bool reference)
{
    shooting::ContinuationSettings s;
    s.parameter = 3;
    s.start = sweepStart;
    s.end = sweepEnd;
    s.method = shooting::ContinuationMethod::Natural;
    s.initialStep = s.maxStep = (sweepEnd - sweepStart) / static_cast<double>(sweepPoints - 1);
    s.minStep = 1e-6;
    s.maxPoints = sweepPoints;
    s.periodOf = shooting::forcingPeriodOfFrequency();
    s.periodic = periodicSettings(1.0, 1, reference);
    s.periodic.samples = 100;
    return s;
}

// One configuration's cost: median seconds, the Newton counts of one run and its answer.
struct NewtonCost {
    double seconds = 0.0;
    core::NewtonStatistics newton;
    Eigen::VectorXd answer;
};

// `run(newton)` returns the answer; a run that collects its own statistics (a fit) sets `newton`.
template <class Run>
NewtonCost measure(int runs, Run&& run)
{
    NewtonCost cost;
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        core::RunStatistics statistics;
        core::NewtonStatistics own;
        const auto t0 = Clock::now();
        {
            const core::StatisticsScope scope(&statistics);
            cost.answer = run(own);
        }
        times.push_back(bench::secondsSince(t0));
        cost.newton = own.iterations > 0 ? own : statistics.snapshot().newton;
    }
    cost.seconds = median(times);
    return cost;
}

void printCosts(const char* name, const NewtonCost& before, const NewtonCost& after)
{
    const double difference = (before.answer - after.answer).cwiseAbs().maxCoeff();
    for (const auto* c : {&before, &after})
        std::printf("  %-26s %-7s %10.3f ms %7zu %9zu %8zu %9zu\n", c == &before ? name : "", c == &before ? "before" : "after",
                    1e3 * c->seconds, c->newton.iterations, c->newton.jacobianBuilds, c->newton.jacobianReuses,
                    c->newton.modifiedSteps);
    std::printf("  %-26s time after / before %.2f, Jacobians built %.2f; max |after - before| = %.1e\n", "",
                after.seconds / before.seconds,
                static_cast<double>(after.newton.jacobianBuilds) / static_cast<double>(before.newton.jacobianBuilds),
                difference);
}

Eigen::VectorXd sweepAnswer(const shooting::ContinuationResult& sweep)
{
    Eigen::VectorXd all(static_cast<Eigen::Index>(2 * sweep.points.size()));
    for (std::size_t k = 0; k < sweep.points.size(); ++k)
        all.segment(static_cast<Eigen::Index>(2 * k), 2) = sweep.points[k].initialState;
    return all;
}

int reuseComparison(eval::CompiledModel& model, const Eigen::VectorXd& start, int runs)
{
    std::printf("\nJacobian re-use (Vankan 1992, eq. 4.42): before = a Jacobian every Newton iteration, after = "
                "the re-use rule (default)\n");
    std::printf("  %-26s %-7s %13s %7s %9s %8s %9s\n", "case", "", "time", "iter", "J built", "re-used", "modified");
    for (const auto& [name, intervals] : {std::pair{"single shooting", std::size_t(1)},
                                          std::pair{"multiple shooting (8)", std::size_t(8)}}) {
        NewtonCost cost[2];
        for (int after = 0; after < 2; ++after) {
            auto settings = periodicSettings(1.0, intervals, false);
            settings.newton.reuseJacobian = after == 1;
            setW(model, 1.0);
            cost[after] = measure(runs, [&](core::NewtonStatistics&) {
                const auto s = shooting::findPeriodicSolution(model, start, settings);
                if (!s.converged())
                    throw std::runtime_error(std::string(name) + ": " + s.newton.termination.message);
                return Eigen::VectorXd(s.initialState);
            });
        }
        printCosts(name, cost[0], cost[1]);
    }
    {
        NewtonCost cost[2];
        for (int after = 0; after < 2; ++after) {
            auto settings = sweepSettings(false);
            settings.periodic.newton.reuseJacobian = after == 1;
            cost[after] = measure(std::max(1, runs / 5), [&](core::NewtonStatistics&) {
                const auto sweep = shooting::continuePeriodicSolutions(model, start, settings);
                if (sweep.points.size() != sweepPoints)
                    throw std::runtime_error("sweep: " + sweep.termination.message);
                return sweepAnswer(sweep);
            });
        }
        printCosts("frequency sweep (200)", cost[0], cost[1]);
    }
    {
        const auto project = project::loadProject(bench::examplePath("duffing_periodic.sysid"));
        NewtonCost cost[2];
        std::size_t iterations[2] = {0, 0};
        for (int after = 0; after < 2; ++after) {
            job::FitJob fit = project::makeFitJob(project);
            fit.settings.periodic.reuseJacobian = after == 1;
            cost[after] = measure(std::max(1, runs / 10), [&](core::NewtonStatistics& newton) {
                estimate::NullProgressSink sink;
                const auto r = fit.run(sink);
                newton = r.statistics.newton;
                if (!r.converged())
                    throw std::runtime_error("periodic-response fit: " + r.termination.message);
                iterations[after] = r.iterations;
                Eigen::VectorXd theta(static_cast<Eigen::Index>(r.parameters.size()));
                for (std::size_t i = 0; i < r.parameters.size(); ++i)
                    theta(static_cast<Eigen::Index>(i)) = r.parameters[i].value;
                return theta;
            });
        }
        printCosts("periodic-response fit", cost[0], cost[1]);
        std::printf("  %-26s fit iterations %zu before, %zu after (duffing_periodic.sysid, 3 records)\n", "",
                    iterations[0], iterations[1]);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    std::string json;
    std::string part = "all";
    int runs = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc)
            json = argv[++i];
        else if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--part" && i + 1 < argc)
            part = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_periodic [--json FILE] [--runs N] [--part all|reuse]\n");
            return 2;
        }
    }
    eval::CompiledModel model(
        eval::compileModel(model::loadModel(bench::examplePath("duffing_frequency_response.model"))));
    if (model.source().parameterNames[3] != "w") {
        std::fprintf(stderr, "unexpected parameter order in the example model\n");
        return 1;
    }
    const Eigen::VectorXd start = Eigen::VectorXd::Zero(2);
    if (part == "reuse") {
        std::printf("bench_periodic (%s build), load %s\n", SYSID_BENCH_BUILD_TYPE, bench::loadAverage().c_str());
        return reuseComparison(model, start, runs);
    }

    setW(model, 1.0);
    const auto reference = shooting::findPeriodicSolution(model, start, periodicSettings(1.0, 1, true));
    std::printf("bench_periodic (%s build)\n", SYSID_BENCH_BUILD_TYPE);
    std::printf("Duffing x'' + 0.1x' + x + 0.5x^3 = 0.5cos(wt), w = 1: reference x(0) = (%.12f, %.12f), %s\n",
                reference.initialState(0), reference.initialState(1), reference.floquet.verdict.c_str());

    struct Case {
        const char* name;
        std::size_t intervals;
        double seconds = 0, error = 0;
        std::size_t iterations = 0;
        std::size_t threads = 1;
    } cases[] = {{"single shooting", 1}, {"multiple shooting (8)", 8}, {"multiple (8), 2 threads", 8, 0, 0, 0, 2}};
    for (auto& c : cases) {
        std::vector<double> times;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            auto settings = periodicSettings(1.0, c.intervals, false);
            settings.threads = c.threads;
            const auto s = shooting::findPeriodicSolution(model, start, settings);
            times.push_back(bench::secondsSince(t0));
            if (!s.converged()) {
                std::fprintf(stderr, "%s did not converge: %s\n", c.name, s.newton.termination.message.c_str());
                return 1;
            }
            c.error = (s.initialState - reference.initialState).cwiseAbs().maxCoeff();
            c.iterations = s.newton.iterations;
        }
        c.seconds = median(times);
        std::printf("  %-24s %9.3f ms  (median of %d)  %zu Newton iterations  |x(0) - ref| = %.1e\n", c.name,
                    1e3 * c.seconds, runs, c.iterations, c.error);
    }

    // Sweep: reference first (not timed), then the timed runs.
    const auto refSweep = shooting::continuePeriodicSolutions(model, start, sweepSettings(true));
    if (refSweep.points.size() != sweepPoints) {
        std::fprintf(stderr, "reference sweep: %zu points (%s)\n", refSweep.points.size(),
                     refSweep.termination.message.c_str());
        return 1;
    }
    const int sweepRuns = std::max(1, runs / 5);
    std::vector<double> sweepTimes;
    double sweepError = 0;
    std::size_t sweepIterations = 0;
    for (int r = 0; r < sweepRuns; ++r) {
        const auto t0 = Clock::now();
        const auto sweep = shooting::continuePeriodicSolutions(model, start, sweepSettings(false));
        sweepTimes.push_back(bench::secondsSince(t0));
        if (sweep.points.size() != sweepPoints) {
            std::fprintf(stderr, "sweep: %zu points (%s)\n", sweep.points.size(), sweep.termination.message.c_str());
            return 1;
        }
        sweepError = 0;
        sweepIterations = 0;
        for (const auto& point : sweep.points)
            sweepIterations += point.iterations;
        for (std::size_t k = 0; k < sweepPoints; ++k)
            sweepError = std::max(
                sweepError, (sweep.points[k].initialState - refSweep.points[k].initialState).cwiseAbs().maxCoeff());
    }
    const double sweepSeconds = median(sweepTimes);
    std::printf("  %-24s %9.3f ms  (median of %d)  %zu points w = %.1f..%.1f  %.2f Newton iterations per point  "
                "max |x(0) - ref| = %.1e\n",
                "frequency sweep", 1e3 * sweepSeconds, sweepRuns, sweepPoints, sweepStart, sweepEnd,
                static_cast<double>(sweepIterations) / static_cast<double>(sweepPoints), sweepError);

    if (reuseComparison(model, start, runs) != 0)
        return 1;

    if (!json.empty()) {
        std::ofstream out(json);
        out.precision(17);
        out << "{\n  \"build\": \"" << SYSID_BENCH_BUILD_TYPE << "\",\n";
        out << "  \"reference\": [" << reference.initialState(0) << ", " << reference.initialState(1) << "],\n";
        out << "  \"single_seconds\": " << cases[0].seconds << ", \"single_error\": " << cases[0].error << ",\n";
        out << "  \"multiple_seconds\": " << cases[1].seconds << ", \"multiple_error\": " << cases[1].error << ",\n";
        out << "  \"sweep_seconds\": " << sweepSeconds << ", \"sweep_error\": " << sweepError << ",\n";
        out << "  \"sweep_w\": [";
        for (std::size_t k = 0; k < sweepPoints; ++k)
            out << (k ? ", " : "") << refSweep.points[k].parameter;
        out << "],\n  \"sweep_reference\": [";
        for (std::size_t k = 0; k < sweepPoints; ++k)
            out << (k ? ", " : "") << "[" << refSweep.points[k].initialState(0) << ", "
                << refSweep.points[k].initialState(1) << "]";
        out << "]\n}\n";
    }
    return 0;
}
