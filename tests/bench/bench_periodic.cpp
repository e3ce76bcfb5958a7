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
// Jacobian re-use (Vankan 1992, eq. 4.42; PeriodicSettings::jacobianReuse) in the same run: the
// three cases above, the periodic-response fit of resources/examples/duffing_periodic.sysid, and a
// sequence of 31 nearby orbits of chains of 1, 2 and 4 Duffing masses (warm-started, the Jacobian
// carried between solves, as in a fit) with variational and with differenced shooting Jacobians;
// each with jacobian_reuse off (a new Jacobian at every Newton iteration, as before), auto (the
// default) and on: time (median), Newton iterations, Jacobians built and re-used, modified steps,
// time relative to off, and the answer's distance from off's.
//
// --part cvodes: the orbit cvodes_duffing_periodic solves (w = 1.4, single shooting from (0, 0),
// rtol 1e-8 / atol 1e-10, Newton tolerance 1e-8, Floquet multipliers), the solve alone timed over
// --runs; one JSON line on stdout (run_cvodes_comparison.sh compares it with the peer's own timing).
//
// Usage: bench_periodic [--json FILE] [--runs N] [--part all|reuse|cvodes]

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
#include <stdexcept>
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

const char* const kConfigurations[] = {"off", "auto", "on"};  // before, the default, the rule always

void printCosts(const char* name, const NewtonCost (&cost)[3])
{
    for (int c = 0; c < 3; ++c)
        std::printf("  %-34s %-5s %10.3f ms %7zu %9zu %8zu %9zu   %.2f  %.1e\n", c == 0 ? name : "", kConfigurations[c],
                    1e3 * cost[c].seconds, cost[c].newton.iterations, cost[c].newton.jacobianBuilds,
                    cost[c].newton.jacobianReuses, cost[c].newton.modifiedSteps, cost[c].seconds / cost[0].seconds,
                    (cost[c].answer - cost[0].answer).cwiseAbs().maxCoeff());
}

shooting::JacobianReuse reuseOf(int configuration)
{
    return configuration == 0
        ? shooting::JacobianReuse::Never
        : (configuration == 1 ? shooting::JacobianReuse::Automatic : shooting::JacobianReuse::Always);
}

Eigen::VectorXd sweepAnswer(const shooting::ContinuationResult& sweep)
{
    Eigen::VectorXd all(static_cast<Eigen::Index>(2 * sweep.points.size()));
    for (std::size_t k = 0; k < sweep.points.size(); ++k)
        all.segment(static_cast<Eigen::Index>(2 * k), 2) = sweep.points[k].initialState;
    return all;
}

// A chain of m forced Duffing masses (2m states): x_i'' = -c x_i' - (x_i - x_{i-1}) - (x_i - x_{i+1})
// - k3 x_i^3 (+ F cos t on the first), ends free.
std::string duffingChain(int m)
{
    std::string text = "param c = 0.1\nparam k3 = 0.5\nparam F = 0.5\n";
    for (int i = 1; i <= m; ++i) {
        const std::string x = "x" + std::to_string(i);
        const std::string left = i == 1 ? "0" : "x" + std::to_string(i - 1);
        const std::string right = i == m ? x : "x" + std::to_string(i + 1);
        text += x + "'' = -c*" + x + "' - (" + x + " - " + left + ") - (" + x + " - " + right + ") - k3*" + x + "^3" +
            (i == 1 ? " + F*cos(t)" : "") + "\n" + x + "(0) = 0, 0\n";
    }
    return text + "output x1\n";
}

// 30 orbits 0.3 % apart in the damping, each warm-started from the last (a fit's or a sweep's
// sequence), with the factorised Jacobian carried in a ShootingJacobianStore.
Eigen::VectorXd orbitSequence(eval::CompiledModel& model, shooting::PeriodicSettings s)
{
    shooting::ShootingJacobianStore store;
    s.jacobianStore = &store;
    std::vector<double> p(model.parameters().begin(), model.parameters().end());
    Eigen::VectorXd z = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.stateCount()));
    for (int k = 0; k <= 30; ++k) {
        p[0] = 0.1 * (1 + 0.003 * k);
        model.setParameters(p);
        const auto r = shooting::findPeriodicSolution(model, z, s);
        if (!r.converged())
            throw std::runtime_error("orbit sequence: " + r.newton.termination.message);
        z = r.initialState;
    }
    return z;
}

int reuseComparison(eval::CompiledModel& model, const Eigen::VectorXd& start, int runs)
{
    std::printf("\nJacobian re-use (Vankan 1992, eq. 4.42): off = a Jacobian every Newton iteration (before), auto = "
                "the default (re-use for differenced Jacobians), on = the rule always\n");
    std::printf("  %-34s %-5s %13s %7s %9s %8s %9s  %s  %s\n", "case", "", "time", "iter", "J built", "re-used",
                "modified", "t/off", "|x - off|");
    for (const auto& [name, intervals] : {std::pair{"single shooting, w = 1", std::size_t(1)},
                                          std::pair{"multiple shooting (8), w = 1", std::size_t(8)}}) {
        NewtonCost cost[3];
        for (int c = 0; c < 3; ++c) {
            auto settings = periodicSettings(1.0, intervals, false);
            settings.jacobianReuse = reuseOf(c);
            setW(model, 1.0);
            cost[c] = measure(runs, [&](core::NewtonStatistics&) {
                const auto s = shooting::findPeriodicSolution(model, start, settings);
                if (!s.converged())
                    throw std::runtime_error(std::string(name) + ": " + s.newton.termination.message);
                return Eigen::VectorXd(s.initialState);
            });
        }
        printCosts(name, cost);
    }
    {
        NewtonCost cost[3];
        for (int c = 0; c < 3; ++c) {
            auto settings = sweepSettings(false);
            settings.periodic.jacobianReuse = reuseOf(c);
            cost[c] = measure(std::max(1, runs / 5), [&](core::NewtonStatistics&) {
                const auto sweep = shooting::continuePeriodicSolutions(model, start, settings);
                if (sweep.points.size() != sweepPoints)
                    throw std::runtime_error("sweep: " + sweep.termination.message);
                return sweepAnswer(sweep);
            });
        }
        printCosts("frequency sweep (200 points)", cost);
    }
    {
        const auto project = project::loadProject(bench::examplePath("duffing_periodic.sysid"));
        NewtonCost cost[3];
        std::size_t iterations[3] = {0, 0, 0};
        for (int c = 0; c < 3; ++c) {
            job::FitJob fit = project::makeFitJob(project);
            fit.settings.periodic.jacobianReuse = reuseOf(c);
            cost[c] = measure(std::max(1, runs / 10), [&](core::NewtonStatistics& newton) {
                estimate::NullProgressSink sink;
                const auto r = fit.run(sink);
                if (!r.converged())
                    throw std::runtime_error("periodic-response fit: " + r.termination.message);
                iterations[c] = r.iterations;
                newton = r.statistics.newton;
                Eigen::VectorXd theta(static_cast<Eigen::Index>(r.parameters.size()));
                for (std::size_t i = 0; i < r.parameters.size(); ++i)
                    theta(static_cast<Eigen::Index>(i)) = r.parameters[i].value;
                return theta;
            });
        }
        printCosts("periodic-response fit (example)", cost);
        std::printf("  %-34s fit iterations %zu / %zu / %zu (duffing_periodic.sysid, 3 records)\n", "", iterations[0],
                    iterations[1], iterations[2]);
    }
    for (int m : {1, 2, 4}) {
        eval::CompiledModel chain(eval::compileModel(model::parseModel(duffingChain(m))));
        for (auto jacobian : {shooting::ShootingJacobian::Variational, shooting::ShootingJacobian::FiniteDifferences}) {
            NewtonCost cost[3];
            for (int c = 0; c < 3; ++c) {
                shooting::PeriodicSettings s;
                s.period = 2 * std::numbers::pi;
                s.samples = 2;
                s.newton.residualTolerance = 1e-10;
                s.jacobian = jacobian;
                s.jacobianReuse = reuseOf(c);
                cost[c] =
                    measure(std::max(1, runs / 10), [&](core::NewtonStatistics&) { return orbitSequence(chain, s); });
            }
            const std::string name = "31 orbits, " + std::to_string(2 * m) + " states, " +
                (jacobian == shooting::ShootingJacobian::Variational ? "variational" : "differenced");
            printCosts(name.c_str(), cost);
        }
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
            std::fprintf(stderr, "usage: bench_periodic [--json FILE] [--runs N] [--part all|reuse|cvodes]\n");
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
    if (part == "cvodes") {
        setW(model, 1.4);
        auto settings = periodicSettings(1.4, 1, false);
        settings.integrator.relativeTolerance = 1e-8;
        settings.integrator.absoluteTolerance = 1e-10;
        std::vector<double> times;
        shooting::PeriodicSolution s;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            s = shooting::findPeriodicSolution(model, start, settings);
            times.push_back(bench::secondsSince(t0));
        }
        std::printf("{\"program\":\"bench_periodic --part cvodes\",\"integrator\":\"%s\",\"wall_s\":%.6g,"
                    "\"wall_s_min\":%.6g,\"runs\":%d,\"converged\":%s,\"iterations\":%zu,"
                    "\"estimates\":{\"x0\":%.15g,\"v0\":%.15g},\"floquet\":[[%.10f,%.10f],[%.10f,%.10f]]}\n",
                    integrate::methodName(settings.integrator.method).c_str(), median(times),
                    *std::min_element(times.begin(), times.end()), runs, s.converged() ? "true" : "false",
                    s.newton.iterations, s.initialState(0), s.initialState(1), s.floquet.multipliers[0].real(),
                    s.floquet.multipliers[0].imag(), s.floquet.multipliers[1].real(), s.floquet.multipliers[1].imag());
        return s.converged() ? 0 : 1;
    }
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
