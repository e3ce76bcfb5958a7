// dopri5 against dop853 (run by hand, never by CTest), at rtol 1e-6, 1e-8 and 1e-10 (atol = rtol/100),
// on the problems users run:
//   cubic fit   the output-error fit of bench_fit_cubic (sdof_cubic.model with u'(0) = 5 known,
//               2000 samples on [0, 5] s, 5 % uniform noise, start 30 % off, three parameters)
//   periodic    the Duffing orbit of bench_periodic (duffing_frequency_response.model, w = 1) by
//               single shooting and by multiple shooting with 8 intervals
//   forced      a forced-Duffing simulation: the same model at w = 1.2 over [0, 300], sampled
//               every 0.01 (30 001 samples), with the sensitivities to c and a, and without
// For each: CPU time of the process (median of --runs), integration steps, right-hand-side
// evaluations and the error against a reference (dopri5 at rtol 1e-12 / atol 1e-14, sensitivities
// in the error control): of the estimates (relative), of the orbit's x(0), of the simulated x on the
// grid and, with sensitivities, of dx/d(c, a) (largest difference over the largest reference value).
// Every problem with sensitivities runs with them in the step-size control and without (CVODES'
// errconS; --sensitivity-error-control include|exclude|both, default both).
// --methods chooses the methods (comma-separated, default dopri5,dop853; rosenbrock4 too).
// The SciPy step counts on the same kinds of problem come from dop853_steps_scipy.py.
//
// Usage: bench_dop853 [--runs N] [--sensitivity-error-control include|exclude|both] [--methods LIST]

#include "BenchSupport.h"

#include "engine/data/Noise.h"
#include "engine/estimate/Fit.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"
#include "engine/shooting/PeriodicShooting.h"

#include <time.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace sysid;
using bench::Clock;
using integrate::IntegrationMethod;

constexpr double kTolerances[] = {1e-6, 1e-8, 1e-10};
std::vector<IntegrationMethod> g_methods{IntegrationMethod::Dopri5, IntegrationMethod::Dop853};
using integrate::SensitivityErrorControl;
std::vector<SensitivityErrorControl> g_controls{SensitivityErrorControl::Include, SensitivityErrorControl::Exclude};

integrate::IntegratorSettings integrator(IntegrationMethod method, double rtol,
                                         SensitivityErrorControl control = SensitivityErrorControl::Include)
{
    integrate::IntegratorSettings s;
    s.sensitivityErrorControl = control;
    s.method = method;
    s.methodChosen = true;
    s.relativeTolerance = rtol;
    s.absoluteTolerance = rtol / 100;
    return s;
}

struct Measurement {
    double seconds = 0, error = 0, sensitivityError = -1;
    std::size_t steps = 0, evaluations = 0;
};

// CPU time of this process: on a shared machine the wall time counts other processes' turns.
double processSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Median time of `runs` calls of `once`, which fills the other fields of the measurement.
Measurement timed(int runs, const std::function<void(Measurement&)>& once)
{
    Measurement m;
    std::vector<double> seconds;
    for (int r = 0; r < runs; ++r) {
        const double t0 = processSeconds();
        once(m);
        seconds.push_back(processSeconds() - t0);
    }
    m.seconds = bench::median(seconds);
    return m;
}

void printRow(const char* problem, IntegrationMethod method, double rtol, const Measurement& m, const char* errorName,
              SensitivityErrorControl control = SensitivityErrorControl::Include)
{
    std::printf("  %-22s %-7s %-7s rtol %.0e  %9.3f ms  steps %7zu  rhs %8zu  %s %.2e", problem,
                integrate::methodName(method).c_str(), std::string(integrate::kSensitivityErrorControls.name(control)).c_str(),
                rtol, 1e3 * m.seconds, m.steps, m.evaluations, errorName, m.error);
    if (m.sensitivityError >= 0)
        std::printf("  S %.2e", m.sensitivityError);
    std::printf("\n");
}

void cubicFit(int runs)
{
    const std::string text = "param gamma = 0.5 [0, 5]\nparam Omega2 = 25 [1, 100]\nparam k3 = 2.5 [-20, 20]\n"
                             "u'' = -2*gamma*u' - Omega2*u - k3*u^3\nu(0) = 0, 5\noutput u\n";
    const auto source = eval::compileModel(model::parseModel(text, "sdof_cubic"));
    const std::vector<double> truth = source->parameterValues;
    const std::vector<double> start{truth[0] * 0.7, truth[1] * 1.3, truth[2] * 0.7};
    eval::CompiledModel truthModel(source);
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, 5.0, 5.0 / 1999);
    const auto clean = integrate::simulate(truthModel, request, integrator(IntegrationMethod::Dopri5, 1e-12));
    std::vector<double> u(request.times.size());
    for (std::size_t s = 0; s < u.size(); ++s)
        u[s] = clean.outputs(static_cast<Eigen::Index>(s), 0);
    std::mt19937_64 rng(1);
    data::addNoise(u, 5.0, data::NoiseDistribution::Uniform, rng);
    estimate::Experiment experiment;
    experiment.name = "sdof_cubic";
    experiment.times = request.times;
    experiment.measured = Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size()));
    experiment.outputMeasured = {true};
    const std::vector<estimate::Experiment> experiments{experiment};
    auto settingsWith = [](IntegrationMethod method, double rtol,
                           SensitivityErrorControl control = SensitivityErrorControl::Include) {
        estimate::FitSettings s;
        s.method = estimate::EstimationMethod::OutputError;
        s.integrator = integrator(method, rtol, control);
        s.maxIterations = 200;
        s.costTolerance = s.stepTolerance = s.gradientTolerance = 1e-10;
        s.outputWeights = {{"u", 1.0}};
        return s;
    };
    const auto reference = estimate::fit(source, start, experiments, settingsWith(IntegrationMethod::Dopri5, 1e-12));
    std::printf("cubic-oscillator fit (2000 samples, 3 parameters), reference estimates");
    for (const auto& p : reference.parameters)
        std::printf(" %s = %.12g", p.name.c_str(), p.value);
    std::printf("\n");
    for (double rtol : kTolerances)
        for (auto method : g_methods)
            for (auto control : g_controls) {
                std::size_t iterations = 0, integrations = 0;
                const auto m = timed(runs, [&](Measurement& out) {
                    const auto r = estimate::fit(source, start, experiments, settingsWith(method, rtol, control));
                    out.steps = r.statistics.integration.steps;
                    out.evaluations = r.statistics.integration.rhsEvaluations;
                    iterations = r.iterations;
                    integrations = r.statistics.integration.integrations;
                    out.error = 0;
                    for (std::size_t i = 0; i < r.parameters.size(); ++i)
                        out.error =
                            std::max(out.error, std::abs(r.parameters[i].value / reference.parameters[i].value - 1));
                });
                printRow("cubic fit", method, rtol, m, "max |p/p_ref - 1|", control);
                std::printf("      (%zu iterations, %zu integrations)\n", iterations, integrations);
            }
}

void periodicOrbit(int runs)
{
    eval::CompiledModel model(
        eval::compileModel(model::loadModel(bench::examplePath("duffing_frequency_response.model"))));
    auto settingsWith = [](const integrate::IntegratorSettings& integrator, std::size_t intervals) {
        shooting::PeriodicSettings s;
        s.period = 2 * std::numbers::pi;
        s.intervals = intervals;
        s.samples = 2;
        s.integrator = integrator;
        s.newton.residualTolerance = integrator.relativeTolerance <= 1e-12 ? 1e-12 : 1e-8;
        return s;
    };
    const Eigen::VectorXd start = Eigen::VectorXd::Zero(2);
    const auto reference =
        shooting::findPeriodicSolution(model, start, settingsWith(integrator(IntegrationMethod::Dopri5, 1e-12), 1));
    std::printf("Duffing periodic orbit (w = 1), reference x(0) = (%.12f, %.12f)\n", reference.initialState(0),
                reference.initialState(1));
    for (std::size_t intervals : {std::size_t(1), std::size_t(8)})
        for (double rtol : kTolerances)
            for (auto method : g_methods)
                for (auto control : g_controls) {
                const auto settings = settingsWith(integrator(method, rtol, control), intervals);
                auto m = timed(runs, [&](Measurement& out) {
                    const auto s = shooting::findPeriodicSolution(model, start, settings);
                    if (!s.converged())
                        throw std::runtime_error("orbit not found: " + s.newton.termination.message);
                    out.error = (s.initialState - reference.initialState).cwiseAbs().maxCoeff();
                });
                // Steps of one period with the variational equations, at the orbit.
                integrate::SimulationRequest r;
                r.times = {0.0, settings.period};
                r.initialState = std::vector<double>(reference.initialState.data(), reference.initialState.data() + 2);
                r.initialStateSensitivity = true;
                const auto period = integrate::simulate(model, r, settings.integrator);
                m.steps = period.statistics.steps;
                m.evaluations = period.statistics.rhsEvaluations;
                printRow(intervals == 1 ? "orbit, single" : "orbit, multiple (8)", method, rtol, m, "|x(0) - ref|",
                         control);
            }
    std::printf("  (steps and rhs: one period with the variational equations, at the orbit)\n");
}

void forcedSimulation(int runs)
{
    eval::CompiledModel model(
        eval::compileModel(model::loadModel(bench::examplePath("duffing_frequency_response.model"))));
    auto values = model.source().parameterValues;
    values[3] = 1.2;  // w
    model.setParameters(values);
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, 300.0, 0.01);
    auto withSensitivities = request;
    withSensitivities.sensitivityParameters = {0, 1};
    withSensitivities.recordStateSensitivity = true;
    const auto reference = integrate::simulate(model, withSensitivities, integrator(IntegrationMethod::Dopri5, 1e-12));
    double largest = 0.0;
    for (const auto& S : reference.stateParameterSensitivity)
        largest = std::max(largest, S.cwiseAbs().maxCoeff());
    std::printf("forced Duffing simulation (w = 1.2, t = 0..300, %zu samples), largest |dx/d(c, a)| %.3g\n",
                request.times.size(), largest);
    for (bool sensitivities : {false, true}) {
        const auto& r = sensitivities ? withSensitivities : request;
        for (double rtol : kTolerances)
            for (auto method : g_methods)
                for (auto control : sensitivities ? g_controls : std::vector<SensitivityErrorControl>{SensitivityErrorControl::Include}) {
                const auto m = timed(runs, [&](Measurement& out) {
                    const auto tr = integrate::simulate(model, r, integrator(method, rtol, control));
                    out.steps = tr.statistics.steps;
                    out.evaluations = tr.statistics.rhsEvaluations;
                    out.error = (tr.states.col(0) - reference.states.col(0)).cwiseAbs().maxCoeff();
                    if (sensitivities) {
                        double worst = 0.0;
                        for (std::size_t k = 0; k < tr.stateParameterSensitivity.size(); ++k)
                            worst = std::max(worst, (tr.stateParameterSensitivity[k] - reference.stateParameterSensitivity[k])
                                                        .cwiseAbs()
                                                        .maxCoeff());
                        out.sensitivityError = worst / largest;
                    }
                });
                printRow(sensitivities ? "forced, dx/d(c, a)" : "forced", method, rtol, m, "max |x - ref|", control);
            }
    }
}

}  // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, static_cast<int>(bench::parseNumber(argv[++i], "--runs")));
        else if (a == "--sensitivity-error-control" && i + 1 < argc) {
            const std::string v = argv[++i];
            if (v != "both")
                g_controls = {integrate::kSensitivityErrorControls.parse(v).value_or(SensitivityErrorControl::Include)};
        } else if (a == "--methods" && i + 1 < argc) {
            g_methods.clear();
            std::stringstream list(argv[++i]);
            for (std::string name; std::getline(list, name, ',');) {
                const auto method = integrate::kIntegrationMethods.parse(name);
                if (!method) {
                    std::fprintf(stderr, "bench_dop853: unknown method '%s'\n", name.c_str());
                    return 2;
                }
                g_methods.push_back(*method);
            }
        } else {
            std::fprintf(stderr, "usage: bench_dop853 [--runs N] [--sensitivity-error-control include|exclude|both] "
                                 "[--methods LIST]\n");
            return 2;
        }
    }
    try {
        std::printf("bench_dop853, load %s\n", bench::loadAverage().c_str());
        bench::printBuildType();
        cubicFit(runs);
        periodicOrbit(runs);
        forcedSimulation(runs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_dop853: %s\n", e.what());
        return 1;
    }
    return 0;
}
