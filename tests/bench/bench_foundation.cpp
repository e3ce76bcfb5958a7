// Foundation benchmark (run by hand, never by CTest):
//  (a) cost of one evaluation of f (and of its Jacobians, and of the sensitivity right-hand side)
//      for the Duffing model through CompiledModel, interpreted (its ExpressionTape programs) and
//      as native code (NativeCode), against the same functions written by hand in C++, and the
//      time to compile the native code and to load it from the cache;
//  (b) cost of simulating Duffing over many forcing periods with dopri5 (and, for
//      information, rosenbrock4), without and with forward sensitivities.
// Plain std::chrono; every figure is the median of several repetitions.
//
// Usage: bench_foundation [--evaluation] [model-file]   (default: resources/examples/duffing.model;
//        --evaluation: part (a) only)

#include "BenchSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeCode.h"
#include "engine/integrate/ModelSystem.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <boost/version.hpp>

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace sysid::bench;
using sysid::eval::CompiledModel;
namespace integrate = sysid::integrate;

// Every timed loop's result ends up here, so no loop can be optimised away.
volatile double g_sink = 0.0;

void consume(double value)
{
    g_sink = g_sink + value;
}

// ---------------------------------------------------------------------------------------------
// Machine description

std::string firstLineWith(const char* file, const std::string& key)
{
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "?";
}

int usableCpus()  // what `nproc` prints: the CPUs this process may run on
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    return CPU_COUNT(&set);
}

void printMachine()
{
    std::printf("sysid bench_foundation\n");
    std::printf("  CPU            : %s\n", firstLineWith("/proc/cpuinfo", "model name").c_str());
    std::printf("  nproc          : %d (hardware_concurrency %u)\n", usableCpus(), std::thread::hardware_concurrency());
    std::printf("  load average   : %s (at start; other jobs on the machine distort timings)\n", loadAverage().c_str());
#if defined(__clang__)
    std::printf("  compiler       : clang %s\n", __VERSION__);
#elif defined(__GNUC__)
    std::printf("  compiler       : GCC %s\n", __VERSION__);
#else
    std::printf("  compiler       : %s\n", __VERSION__);
#endif
    printBuildType();
    std::printf("  libraries      : Boost %s, Eigen %d.%d.%d\n", BOOST_LIB_VERSION, EIGEN_WORLD_VERSION,
                EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
}

// ---------------------------------------------------------------------------------------------
// (a) one evaluation of f

struct DuffingParameters {
    double k, B;
};

// The same f and Jacobians as the model file, by hand. Out of line, like a right-hand side
// handed to an integrator; parameters are run-time values, not constants.
[[gnu::noinline]] void handRhs(double t, const double* x, const DuffingParameters& p, double* dx)
{
    dx[0] = x[1];
    dx[1] = -p.k * x[1] - x[0] * x[0] * x[0] + p.B * std::cos(t);
}

[[gnu::noinline]] void handStateJacobian(const double* x, const DuffingParameters& p, double* J)  // column-major 2x2
{
    J[0] = 0.0;
    J[1] = -3.0 * x[0] * x[0];
    J[2] = 1.0;
    J[3] = -p.k;
}

// f and the sensitivity right-hand side dS = df/dx S + df/dp for the columns dx/dk, dx/dB
// (column-major 2 x 2 after the state, as SensitivitySystem lays out z).
[[gnu::noinline]] void handSensitivityRhs(double t, const double* z, const DuffingParameters& p, double* dz)
{
    const double x0 = z[0], x1 = z[1], c = std::cos(t);
    dz[0] = x1;
    dz[1] = -p.k * x1 - x0 * x0 * x0 + p.B * c;
    const double j10 = -3.0 * x0 * x0, j11 = -p.k;
    for (int col = 0; col < 2; ++col) {
        const double* s = z + 2 + 2 * col;
        double* d = dz + 2 + 2 * col;
        d[0] = s[1];
        d[1] = j10 * s[0] + j11 * s[1];
    }
    dz[3] += -x1;  // df/dk
    dz[5] += c;  // df/dB
}

// Distinct evaluation points, cycled through, so nothing can be hoisted out of the loops.
struct Points {
    static constexpr std::size_t count = 1024;  // power of two
    std::vector<double> t, x;  // x: two states per point
};

Points makePoints()
{
    Points p;
    std::mt19937_64 random(20240601);
    std::uniform_real_distribution<double> time(0.0, 2000.0 * std::numbers::pi), position(-4.0, 4.0),
        velocity(-8.0, 8.0);
    for (std::size_t i = 0; i < Points::count; ++i) {
        p.t.push_back(time(random));
        p.x.push_back(position(random));
        p.x.push_back(velocity(random));
    }
    return p;
}

// CPU time of this thread: on a shared machine the wall time counts other processes' turns.
double threadSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Runs body(calls) `repeats` times after a warm-up; median nanoseconds (thread CPU time) per call.
template <class Body>
double nsPerCall(Body body, std::size_t calls, int repeats)
{
    consume(body(calls / 10));
    std::vector<double> samples;
    for (int r = 0; r < repeats; ++r) {
        const double start = threadSeconds();
        const double result = body(calls);
        const double seconds = threadSeconds() - start;
        consume(result);
        samples.push_back(seconds * 1e9 / static_cast<double>(calls));
    }
    return median(samples);
}

bool checkAgreement(CompiledModel& model, const Points& points, const DuffingParameters& p)
{
    double worst = 0.0;
    for (std::size_t i = 0; i < Points::count; ++i) {
        double a[2], b[2], Ja[4], Jb[4];
        model.setPoint(points.t[i], &points.x[2 * i], nullptr);
        model.rhs(a);
        model.stateJacobian(Ja);
        handRhs(points.t[i], &points.x[2 * i], p, b);
        handStateJacobian(&points.x[2 * i], p, Jb);
        for (int j = 0; j < 2; ++j)
            worst = std::max(worst, std::abs(a[j] - b[j]) / (1.0 + std::abs(b[j])));
        for (int j = 0; j < 4; ++j)
            worst = std::max(worst, std::abs(Ja[j] - Jb[j]) / (1.0 + std::abs(Jb[j])));
    }
    std::printf("  check: CompiledModel and hand-written f, df/dx agree to %.1e (relative) at %zu points\n", worst,
                Points::count);
    return worst < 1e-12;
}

struct EvaluationFigures {
    double rhs = 0, setPoint = 0, stateJacobian = 0, parameterJacobian = 0, sensitivity = 0;
    double rhsAt = 0, stateJacobianAt = 0, systemRhs = 0;  // at (t, x) directly; f through ModelSystem
};

EvaluationFigures timeEvaluations(CompiledModel& model, const Points& points)
{
    constexpr std::size_t calls = 2000000;
    constexpr int repeats = 9;
    const double* ts = points.t.data();
    const double* xs = points.x.data();
    constexpr std::size_t mask = Points::count - 1;
    EvaluationFigures f;
    f.rhs = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, dx[2];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                model.setPoint(ts[j], xs + 2 * j, nullptr);
                model.rhs(dx);
                acc += dx[0] + dx[1];
            }
            return acc;
        },
        calls, repeats);
    f.setPoint = nsPerCall(
        [&](std::size_t n) {
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                model.setPoint(ts[j], xs + 2 * j, nullptr);
            }
            return model.parameters()[0];
        },
        calls, repeats);
    f.stateJacobian = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, J[4];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                model.setPoint(ts[j], xs + 2 * j, nullptr);
                model.stateJacobian(J);
                acc += J[1] + J[3];
            }
            return acc;
        },
        calls, repeats);
    // The calls the integrators make (ModelSystem): at (t, x) directly, nothing copied.
    f.rhsAt = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, dx[2];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                model.rhs(ts[j], xs + 2 * j, dx);
                acc += dx[0] + dx[1];
            }
            return acc;
        },
        calls, repeats);
    f.stateJacobianAt = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, J[4];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                model.stateJacobian(ts[j], xs + 2 * j, J);
                acc += J[1] + J[3];
            }
            return acc;
        },
        calls, repeats);
    {
        integrate::ModelSystem system(model);
        integrate::OdeSystem& ode = system;
        f.systemRhs = nsPerCall(
            [&](std::size_t n) {
                double acc = 0.0, dx[2];
                for (std::size_t i = 0; i < n; ++i) {
                    const std::size_t j = i & mask;
                    ode.rhs(ts[j], xs + 2 * j, dx);
                    acc += dx[0] + dx[1];
                }
                return acc;
            },
            calls, repeats);
    }
    const std::size_t np = model.parameterCount();
    f.parameterJacobian = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0;
            std::vector<double> J(2 * np);
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                model.setPoint(ts[j], xs + 2 * j, nullptr);
                model.parameterJacobian(J.data());
                acc += J[1];
            }
            return acc;
        },
        calls, repeats);
    // The sensitivity right-hand side as the integrators call it: SensitivitySystem over the model.
    const auto& names = model.source().parameterNames;
    const auto index = [&](const char* name) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    };
    integrate::ModelSystem system(model);
    integrate::SensitivitySystem sensitivities(system, {index("k"), index("B")}, false);
    f.sensitivity = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, z[6] = {0, 0, 0.1, -0.2, 0.3, 0.05}, dz[6];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                z[0] = xs[2 * j];
                z[1] = xs[2 * j + 1];
                sensitivities.rhs(ts[j], z, dz);
                acc += dz[1] + dz[3] + dz[5];
            }
            return acc;
        },
        calls, repeats);
    return f;
}

EvaluationFigures timeHandWritten(const Points& points, const DuffingParameters& p)
{
    constexpr std::size_t calls = 2000000;
    constexpr int repeats = 9;
    const double* ts = points.t.data();
    const double* xs = points.x.data();
    constexpr std::size_t mask = Points::count - 1;
    EvaluationFigures f;
    f.rhs = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, dx[2];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                handRhs(ts[j], xs + 2 * j, p, dx);
                acc += dx[0] + dx[1];
            }
            return acc;
        },
        calls, repeats);
    f.stateJacobian = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, J[4];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                handStateJacobian(xs + 2 * j, p, J);
                acc += J[1] + J[3];
            }
            return acc;
        },
        calls, repeats);
    f.sensitivity = nsPerCall(
        [&](std::size_t n) {
            double acc = 0.0, z[6] = {0, 0, 0.1, -0.2, 0.3, 0.05}, dz[6];
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t j = i & mask;
                z[0] = xs[2 * j];
                z[1] = xs[2 * j + 1];
                handSensitivityRhs(ts[j], z, p, dz);
                acc += dz[1] + dz[3] + dz[5];
            }
            return acc;
        },
        calls, repeats);
    return f;
}

// The sensitivity right-hand side of the model (SensitivitySystem) against the hand-written one.
bool checkSensitivityAgreement(CompiledModel& model, const Points& points, const DuffingParameters& p)
{
    const auto& names = model.source().parameterNames;
    const auto index = [&](const char* name) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    };
    integrate::ModelSystem system(model);
    integrate::SensitivitySystem sensitivities(system, {index("k"), index("B")}, false);
    double worst = 0.0;
    for (std::size_t i = 0; i < Points::count; ++i) {
        double z[6] = {points.x[2 * i], points.x[2 * i + 1], 0.1, -0.2, 0.3, 0.05}, a[6], b[6];
        sensitivities.rhs(points.t[i], z, a);
        handSensitivityRhs(points.t[i], z, p, b);
        for (int j = 0; j < 6; ++j)
            worst = std::max(worst, std::abs(a[j] - b[j]) / (1.0 + std::abs(b[j])));
    }
    return worst < 1e-12;
}

// Seconds to compile the model's native code into an empty cache, and to load it from there.
void timeNativeBuild(const std::string& path)
{
    const auto directory = std::filesystem::temp_directory_path() / ("sysid-bench-native-" + std::to_string(::getpid()));
    ::setenv("SYSID_NATIVE_CACHE", directory.c_str(), 1);
    double compile = 0.0, load = 0.0;
    bool ok = true;
    for (int pass = 0; pass < 2; ++pass) {
        const auto source = sysid::eval::compileModel(sysid::model::loadModel(path));
        const auto start = Clock::now();
        sysid::eval::requestNativeCode(source, sysid::eval::ModelCode::Native);
        (pass == 0 ? compile : load) = secondsSince(start);
        ok = ok && source->native->functions() != nullptr;
    }
    std::error_code error;
    std::filesystem::remove_all(directory, error);
    ::unsetenv("SYSID_NATIVE_CACHE");
    std::printf("  native code: generate + compile %.0f ms; generate + load from the cache %.1f ms%s\n", compile * 1e3,
                load * 1e3, ok ? "" : " (FAILED: interpreted)");
}

bool benchmarkEvaluation(const std::shared_ptr<const sysid::eval::CompiledModelSource>& source,
                         const DuffingParameters& p, const std::string& path)
{
    const Points points = makePoints();
    std::printf("\n(a) One evaluation of f for Duffing (n = 2 states), 2000000 calls per run, median of 9 runs\n");
    std::printf("  f as compiled: dx0 = %s ; dx1 = %s\n", source->rhs[0].c_str(), source->rhs[1].c_str());
    timeNativeBuild(path);

    auto tapeSource = std::make_shared<sysid::eval::CompiledModelSource>(*source);
    tapeSource->native = nullptr;
    CompiledModel tape(tapeSource);
    tape.setParameters(std::vector<double>(source->parameterValues));
    sysid::eval::requestNativeCode(source, sysid::eval::ModelCode::Native);
    CompiledModel native(source);
    if (!native.native())
        std::printf("  NATIVE CODE UNAVAILABLE: %s\n", source->native->failure().c_str());
    const bool agree = checkAgreement(tape, points, p) && checkAgreement(native, points, p) &&
        checkSensitivityAgreement(tape, points, p) && checkSensitivityAgreement(native, points, p);

    const EvaluationFigures hand = timeHandWritten(points, p);
    const EvaluationFigures t = timeEvaluations(tape, points);
    const EvaluationFigures n = timeEvaluations(native, points);
    std::printf("\n  %-44s %12s %12s %12s %10s %10s\n", "evaluation [ns / call]", "hand-written", "interpreted",
                "native", "interp/hand", "native/hand");
    auto row = [](const char* what, double h, double i, double nat) {
        if (h > 0)
            std::printf("  %-44s %12.1f %12.1f %12.1f %10.2f %10.2f\n", what, h, i, nat, i / h, nat / h);
        else
            std::printf("  %-44s %12s %12.1f %12.1f %10s %10s\n", what, "-", i, nat, "-", "-");
    };
    row("f (rhs at t, x)", hand.rhs, t.rhsAt, n.rhsAt);
    row("df/dx (stateJacobian at t, x)", hand.stateJacobian, t.stateJacobianAt, n.stateJacobianAt);
    row("sensitivity rhs, dx/d(k,B) (SensitivitySystem)", hand.sensitivity, t.sensitivity, n.sensitivity);
    row("f through ModelSystem (virtual OdeSystem::rhs)", hand.rhs, t.systemRhs, n.systemRhs);
    row("f (setPoint + rhs)", hand.rhs, t.rhs, n.rhs);
    row("df/dx (setPoint + stateJacobian)", hand.stateJacobian, t.stateJacobian, n.stateJacobian);
    row("df/dp (setPoint + parameterJacobian)", 0, t.parameterJacobian, n.parameterJacobian);
    row("   setPoint alone", 0, t.setPoint, n.setPoint);
    std::printf("  (per-thread CPU time; the first three rows are the calls the integrators make)\n");
    const double worst =
        std::max({n.rhsAt / hand.rhs, n.stateJacobianAt / hand.stateJacobian, n.sensitivity / hand.sensitivity});
    std::printf("\n  native / hand-written, worst of f, df/dx, sensitivity rhs: %.2fx (target <= 1.3x): %s\n", worst,
                worst <= 1.3 ? "MET" : "NOT MET");
    return agree;
}

// ---------------------------------------------------------------------------------------------
// (b) simulation

struct SimulationCase {
    const char* label;
    integrate::IntegrationMethod method;
    double periods;
    std::vector<std::size_t> parameters;
    bool initialState;
};

struct SimulationFigures {
    double seconds = 0.0;
    std::size_t steps = 0;
    std::size_t samples = 0;
    double largestSensitivity = -1.0;  // max |dx/dp|, |dx/dx0| at the last sample; -1 without
    std::string failure;
};

SimulationFigures runSimulation(CompiledModel& model, const SimulationCase& c, int repeats)
{
    constexpr double period = 2.0 * std::numbers::pi;
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, c.periods * period, period / 100.0);
    request.sensitivityParameters = c.parameters;
    request.initialStateSensitivity = c.initialState;
    integrate::IntegratorSettings settings;
    settings.method = c.method;
    settings.relativeTolerance = 1e-8;
    settings.absoluteTolerance = 1e-10;

    SimulationFigures figures;
    figures.samples = request.times.size();
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
        const double start = threadSeconds();
        try {
            const integrate::Trajectory trajectory = integrate::simulate(model, request, settings);
            seconds.push_back(threadSeconds() - start);
            figures.steps = trajectory.statistics.steps;
            consume(trajectory.states(trajectory.states.rows() - 1, 0));
            figures.largestSensitivity = -1.0;
            if (!trajectory.stateParameterSensitivity.empty())
                figures.largestSensitivity = trajectory.stateParameterSensitivity.back().cwiseAbs().maxCoeff();
            if (!trajectory.stateInitialSensitivity.empty())
                figures.largestSensitivity = std::max(figures.largestSensitivity,
                                                      trajectory.stateInitialSensitivity.back().cwiseAbs().maxCoeff());
        } catch (const integrate::IntegrationError& e) {
            figures.failure = e.what();
            seconds.push_back(threadSeconds() - start);
            break;
        }
    }
    figures.seconds = median(seconds);
    return figures;
}

void benchmarkSimulation(CompiledModel& model)
{
    const auto& names = model.source().parameterNames;
    const auto index = [&](const char* name) {
        return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    };
    const std::size_t k = index("k"), B = index("B");
    if (k >= names.size() || B >= names.size()) {
        std::printf("\n(b) skipped: the model has no parameters k and B\n");
        return;
    }
    using M = integrate::IntegrationMethod;
    const std::vector<SimulationCase> cases{
        {"dopri5      x", M::Dopri5, 1000, {}, false},
        {"dopri5      x, dx/d(k,B)", M::Dopri5, 1000, {k, B}, false},
        {"dopri5      x, dx/d(k,B), dx/dx0", M::Dopri5, 1000, {k, B}, true},
        {"rosenbrock4 x", M::Rosenbrock4, 10, {}, false},
        {"rosenbrock4 x, dx/d(k,B)", M::Rosenbrock4, 10, {k, B}, false},
        {"rosenbrock4 x, dx/d(k,B), dx/dx0", M::Rosenbrock4, 10, {k, B}, true},
    };
    constexpr int repeats = 5;
    std::printf("\n(b) Simulating Duffing, t from 0 to periods*2pi, output every period/100, rtol 1e-8, atol 1e-10,\n"
                "    median of %d runs (per-thread CPU time; it includes recording every sample)\n\n",
                repeats);
    std::printf("  %-34s %7s %8s %9s %10s %10s %12s\n", "method / integrated", "periods", "samples", "steps",
                "CPU [ms]", "us / step", "max|S| end");
    for (const auto& c : cases) {
        const SimulationFigures f = runSimulation(model, c, repeats);
        if (!f.failure.empty()) {
            std::printf("  %-34s %7.0f %8zu  FAILED after %.1f ms: %s\n", c.label, c.periods, f.samples,
                        f.seconds * 1e3, f.failure.c_str());
            continue;
        }
        char sensitivity[32] = "-";
        if (f.largestSensitivity >= 0)
            std::snprintf(sensitivity, sizeof sensitivity, "%.2e", f.largestSensitivity);
        std::printf("  %-34s %7.0f %8zu %9zu %10.1f %10.3f %12s\n", c.label, c.periods, f.samples, f.steps,
                    f.seconds * 1e3, f.seconds * 1e6 / static_cast<double>(std::max<std::size_t>(f.steps, 1)),
                    sensitivity);
    }
    std::printf("\n  steps = accepted steps (rejected attempts are not counted but their cost is in the time);\n"
                "  dopri5 costs 6 evaluations of the (sensitivity) right-hand side per accepted step;\n"
                "  max|S| end = largest |dx/dp| or |dx/dx0| entry at t_end (growth along the trajectory).\n");
}

}  // namespace

int main(int argc, char** argv)
{
    // --evaluation: part (a) only.
    bool evaluationOnly = false;
    std::string path = examplePath("duffing.model");
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--evaluation")
            evaluationOnly = true;
        else
            path = argv[i];
    }
    try {
        printMachine();
        std::printf("  model          : %s\n", path.c_str());
        const sysid::model::Model parsed = sysid::model::loadModel(path);
        const auto source = sysid::eval::compileModel(parsed);
        CompiledModel model(source);
        if (model.stateCount() != 2 || model.inputCount() != 0) {
            std::fprintf(stderr, "bench_foundation: expected the Duffing model (2 states, no inputs)\n");
            return 2;
        }
        const auto& names = model.source().parameterNames;
        const auto value = [&](const char* name) {
            const auto it = std::find(names.begin(), names.end(), name);
            return it == names.end() ? std::nan("") : model.parameters()[static_cast<std::size_t>(it - names.begin())];
        };
        const DuffingParameters p{value("k"), value("B")};
        std::printf("  parameters     : k = %g, B = %g\n", p.k, p.B);

        sysid::eval::setNativeCodeWaits(true);
        const bool agree = benchmarkEvaluation(source, p, path);
        if (evaluationOnly)
            return agree ? 0 : 1;
        auto tapeSource = std::make_shared<sysid::eval::CompiledModelSource>(*source);
        tapeSource->native = nullptr;
        CompiledModel tape(tapeSource);
        std::printf("\n(b) interpreted model code");
        benchmarkSimulation(tape);
        std::printf("\n(b) native model code%s", model.native() ? "" : " (UNAVAILABLE: interpreted)");
        benchmarkSimulation(model);
        if (!agree) {
            std::fprintf(stderr, "bench_foundation: CompiledModel and the hand-written f disagree\n");
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_foundation: %s\n", e.what());
        return 1;
    }
    return 0;
}
