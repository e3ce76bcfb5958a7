// Switches located as events against the ways around them (run by hand, never by CTest).
//
// (i)  The EMPS closed-loop output-error fit (resources/examples/emps_closed_loop.sysid: 24 841
//      samples, the four estimated parameters 20 % off) with the Coulomb friction written as
//      Fc*sign(q') and the controller's min/max saturation, against the bundled model's smoothed
//      Fc*tanh(q'/1e-4): seconds, their ratio, the estimates and their relative differences.
// (ii) The impacting cart's 1-periodic orbits (resources/examples/impact_cart.model, b = 2,
//      gamma = 1, w = 1) for wall stiffness kc = 1 ... 3000 by single shooting from (-0.5, 0.5):
//      rtol 1e-12 with the switches stepped across (the way before events: a finite-difference
//      shooting Jacobian), rtol 1e-12 located, and the default rtol 1e-8 located: milliseconds
//      (median of --runs), Newton iterations, integration steps, and the located default orbit's
//      distance from the stepped-across rtol 1e-12 one.
//
// Usage: bench_events [--part emps|cart|all] [--runs N]

#include "BenchSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/job/FitJob.h"
#include "engine/model/ModelBuilder.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/shooting/PeriodicShooting.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <numbers>
#include <string>
#include <vector>

using namespace sysid;
using bench::Clock;

namespace {

// Wall and processor seconds: on a loaded machine (other builds) the processor time is the fairer one.
struct TimedFit {
    estimate::FitResult result;
    double seconds = 0.0;
    double cpuSeconds = 0.0;
};

TimedFit timedFit(const job::FitJob& fit)
{
    estimate::NullProgressSink sink;
    const auto start = Clock::now();
    const std::clock_t cpuStart = std::clock();
    TimedFit t;
    t.result = fit.run(sink);
    t.seconds = bench::secondsSince(start);
    t.cpuSeconds = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    return t;
}

double estimateOf(const estimate::FitResult& r, const std::string& name)
{
    for (const auto& p : r.parameters)
        if (p.name == name)
            return p.value;
    throw std::invalid_argument("the fit has no estimate " + name);
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos)
        throw std::invalid_argument("'" + from + "' does not occur in the model");
    return text.replace(at, from.size(), to);
}

int benchEmps()
{
    const auto project = project::loadProject(bench::examplePath("emps_closed_loop.sysid"));
    const job::FitJob smoothed = project::makeFitJob(project);
    job::FitJob switched = smoothed;
    switched.modelText = replaced(smoothed.modelText, "Fc*tanh(q'/v0)", "Fc*sign(q')");
    const TimedFit a = timedFit(smoothed);
    const TimedFit b = timedFit(switched);
    std::printf("\n(i) EMPS closed loop, output error, %zu samples, start 20 %% off\n",
                smoothed.experiments.front().table.rowCount());
    std::printf("  %-22s %9s %9s %5s %12s %10s  %s\n", "friction", "wall s", "cpu s", "iter", "steps", "rejected",
                "stop");
    const auto row = [](const char* label, const TimedFit& fit) {
        std::printf("  %-22s %9.2f %9.2f %5zu %12zu %10zu  %s\n", label, fit.seconds, fit.cpuSeconds,
                    fit.result.iterations, fit.result.statistics.integration.steps,
                    fit.result.statistics.integration.rejectedSteps, fit.result.termination.message.c_str());
    };
    row("Fc*tanh(q'/1e-4)", a);
    row("Fc*sign(q'), events", b);
    std::printf("  time ratio sign / tanh: %.2f wall, %.2f processor (target <= 2)\n", b.seconds / a.seconds,
                b.cpuSeconds / a.cpuSeconds);
    std::printf("  %-8s %14s %14s %10s\n", "estimate", "tanh", "sign", "rel. diff");
    double worst = 0.0;
    for (const char* name : {"M", "Fv", "Fc", "offset"}) {
        const double x = estimateOf(a.result, name), y = estimateOf(b.result, name);
        const double d = std::abs(y - x) / std::abs(x);
        worst = std::max(worst, d);
        std::printf("  %-8s %14.6f %14.6f %9.3f %%\n", name, x, y, 100 * d);
    }
    std::printf("  largest relative difference %.3f %% (target <= 1 %%)\n", 100 * worst);
    return a.result.converged() && b.result.converged() ? 0 : 1;
}

struct CartRun {
    double seconds = 0.0;
    shooting::PeriodicSolution solution;
    std::size_t steps = 0;  // integration steps of one solve
};

CartRun timedOrbit(eval::CompiledModel& model, const shooting::PeriodicSettings& settings, int runs)
{
    std::vector<double> seconds;
    CartRun run;
    for (int r = 0; r < runs; ++r) {
        core::RunStatistics statistics;
        const core::StatisticsScope scope(&statistics);
        const auto start = Clock::now();
        Eigen::VectorXd guess(2);
        guess << -0.5, 0.5;
        run.solution = shooting::findPeriodicSolution(model, guess, settings);
        seconds.push_back(bench::secondsSince(start));
        run.steps = statistics.snapshot().integration.steps;
    }
    run.seconds = bench::median(seconds);
    return run;
}

shooting::PeriodicSettings cartSettings(bool tight, integrate::SwitchHandling switches)
{
    shooting::PeriodicSettings s;
    s.period = 2 * std::numbers::pi;
    s.integrator.switches = switches;
    if (tight) {  // test_periodic_validation's settings for the cart
        s.integrator.relativeTolerance = 1e-12;
        s.integrator.absoluteTolerance = 1e-14;
        s.newton.residualTolerance = 1e-9;
    }
    return s;
}

int benchCart(int runs)
{
    eval::CompiledModel model(eval::compileModel(model::loadModel(bench::examplePath("impact_cart.model"))));
    const auto& names = model.source().parameterNames;
    const auto index = [&](const char* name) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    };
    std::printf("\n(ii) impacting cart, b = 2, gamma = 1, w = 1, single shooting from (-0.5, 0.5), median of %d\n",
                runs);
    std::printf("  %6s | %-24s | %-24s | %-24s | %9s | %s\n", "kc", "1e-12 stepped across", "1e-12 located",
                "1e-8 located (default)", "|dx(0)|", "Floquet (default)");
    std::printf("  %6s | %-24s | %-24s | %-24s |\n", "", "ms  Newton  steps", "ms  Newton  steps", "ms  Newton  steps");
    std::vector<std::string> failures;
    for (double kc : {1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0}) {
        std::vector<double> p(model.parameters().begin(), model.parameters().end());
        p[index("kc")] = kc;
        p[index("gamma")] = 1.0;
        model.setParameters(p);
        using integrate::SwitchHandling;
        const CartRun before = timedOrbit(model, cartSettings(true, SwitchHandling::StepAcross), runs);
        const CartRun tight = timedOrbit(model, cartSettings(true, SwitchHandling::Locate), runs);
        const CartRun loose = timedOrbit(model, cartSettings(false, SwitchHandling::Locate), runs);
        const auto cell = [](const CartRun& r) {
            char text[64];
            if (r.solution.converged())
                std::snprintf(text, sizeof text, "%7.2f %4zu %8zu", 1e3 * r.seconds, r.solution.newton.iterations,
                              r.steps);
            else
                std::snprintf(text, sizeof text, "%7.2f FAILED", 1e3 * r.seconds);
            return std::string(text);
        };
        const double difference = before.solution.converged() && loose.solution.converged()
            ? (before.solution.initialState - loose.solution.initialState).cwiseAbs().maxCoeff()
            : NAN;
        std::printf("  %6g | %-24s | %-24s | %-24s | %9.1e | %s\n", kc, cell(before).c_str(), cell(tight).c_str(),
                    cell(loose).c_str(), difference, loose.solution.floquet.verdict.c_str());
        const std::pair<const char*, const CartRun*> runs3[] = {
            {"1e-12 stepped across", &before}, {"1e-12 located", &tight}, {"1e-8 located", &loose}};
        for (const auto& [label, run] : runs3)
            if (!run->solution.converged())
                failures.push_back("kc = " + std::to_string(static_cast<int>(kc)) + ", " + label + ": " +
                                   run->solution.newton.termination.message);
    }
    for (const auto& f : failures)
        std::printf("  %s\n", f.c_str());
    return failures.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    std::string part = "all";
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--part" && i + 1 < argc)
            part = argv[++i];
        else if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: bench_events [--part emps|cart|all] [--runs N]\n");
            return 2;
        }
    }
    if (part != "emps" && part != "cart" && part != "all") {
        std::fprintf(stderr, "--part is emps, cart or all, not %s\n", part.c_str());
        return 2;
    }
    std::printf("bench_events\n");
    bench::printBuildType();
    std::printf("  load average   : %s\n", bench::loadAverage().c_str());
    int status = 0;
    try {
        if (part != "cart")
            status |= benchEmps();
        if (part != "emps")
            status |= benchCart(runs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_events: %s\n", e.what());
        return 1;
    }
    return status;
}
