// Issue 7 benchmark (run by hand, never by CTest): identification of a spatially varying
// diffusivity, one parameter per node, on a 1-D grid.
//
// Model: s_t = alpha(x) s_xx on 0 < x < 1, s = 0 at both ends, s(x, 0) = sin(pi x) +
// 0.5 sin(3 pi x) + 0.25 sin(6 pi x), by the method of lines on N interior nodes (default 200)
// with alpha[i] per node: N states, N parameters. Data: the states at M samples (default
// 1000) over [0, T], simulated with the true alpha(x) = 0.1 + 0.1 x at rtol 1e-10, plus Gaussian
// noise of sd 1e-4 (fixed seed). Fit: estimate::fit (output error, Levenberg-Marquardt /
// Gauss-Newton) from alpha = 0.15 everywhere with the sparse-implicit integrator
// (rtol 1e-7, atol 1e-10), whose sensitivities share one sparse LU per step.
// Timed (std::chrono, one core): one simulation without and with the N sensitivity columns; the
// cost gradient from the sensitivities (one simulation) and by central finite differences (2N
// simulations) in the same run, their ratio and agreement; the fit, total and per iteration.
//
// Usage: bench_pde_identification [--nodes N] [--samples M] [--t-end T] [--no-fd] [--estimates FILE]
// (--estimates writes each alpha, its sd and the final cost to 17 digits, to compare two builds' fits).
#include "BenchSupport.h"

#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace {

using sysid::bench::Clock;
using sysid::bench::secondsSince;
namespace estimate = sysid::estimate;
namespace integrate = sysid::integrate;
namespace eval = sysid::eval;

// Process CPU time: the machine may be shared, and one core's worth of work is what the target is about.
double cpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

std::string modelText(int nodes)
{
    return "field s on x in [0, 1] nodes " + std::to_string(nodes) +
        "\nparam alpha(x) = 0.15 [0.01, 1]\ns_t = alpha(x) * s_xx\ns(0, t) = 0 ; s(1, t) = 0\n"
        "s(x, 0) = sin(pi*x) + 0.5*sin(3*pi*x) + 0.25*sin(6*pi*x)\noutput s\n";
}

integrate::IntegratorSettings sparse(double rtol, double atol)
{
    integrate::IntegratorSettings s;
    s.method = integrate::IntegrationMethod::SparseImplicit;
    s.relativeTolerance = rtol;
    s.absoluteTolerance = atol;
    return s;
}

// 1/2 sum of weighted squared residuals, and its gradient when the trajectory has dy/dp.
double cost(const integrate::Trajectory& r, const Eigen::MatrixXd& measured, double weight, Eigen::VectorXd* gradient)
{
    const Eigen::MatrixXd residual = r.outputs - measured;
    if (gradient) {
        gradient->setZero(static_cast<Eigen::Index>(r.sensitivityParameters.size()));
        for (std::size_t k = 0; k < r.outputParameterSensitivity.size(); ++k)
            gradient->noalias() += weight * r.outputParameterSensitivity[k].transpose() *
                residual.row(static_cast<Eigen::Index>(k)).transpose();
    }
    return 0.5 * weight * residual.squaredNorm();
}

class Clocked : public estimate::ProgressSink {
public:
    explicit Clocked(Clock::time_point start) : start_(start) {}
    void iteration(const estimate::IterationRecord& record) override
    {
        const double now = secondsSince(start_);
        std::printf("  iteration %2zu at %7.2f s: cost %.6e, lambda %.1e\n", record.iteration, now, record.cost,
                    record.lambda);
        std::fflush(stdout);
    }

private:
    Clock::time_point start_;
};

}  // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    int nodes = 200, samples = 1000;
    double tEnd = 0.5;
    bool finiteDifferences = true;
    std::string estimatesFile;
    for (int i = 1; i < argc; i += 2) {
        if (!std::strcmp(argv[i], "--no-fd")) {
            finiteDifferences = false;
            --i;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(
                stderr,
                "usage: bench_pde_identification [--nodes N] [--samples M] [--t-end T] [--no-fd] [--estimates FILE]\n");
            return 2;
        }
        if (!std::strcmp(argv[i], "--nodes"))
            nodes = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--samples"))
            samples = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--t-end"))
            tEnd = std::atof(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--estimates"))
            estimatesFile = argv[i + 1];
        else {
            std::fprintf(
                stderr,
                "usage: bench_pde_identification [--nodes N] [--samples M] [--t-end T] [--no-fd] [--estimates FILE]\n");
            return 2;
        }
    }
    std::printf("bench_pde_identification (%s build): %d nodes = %d parameters, %d samples on [0, %g]\n",
                SYSID_BENCH_BUILD_TYPE, nodes, nodes, samples, tEnd);

    auto start = Clock::now();
    const auto source = eval::compileModel(sysid::model::parseModel(modelText(nodes)));
    eval::CompiledModel model(source);
    std::printf("model parsed and compiled: %.2f s\n", secondsSince(start));

    const double dx = 1.0 / (nodes + 1);
    std::vector<double> truth(static_cast<std::size_t>(nodes)), guess(static_cast<std::size_t>(nodes), 0.15);
    for (int i = 0; i < nodes; ++i)
        truth[static_cast<std::size_t>(i)] = 0.1 + 0.1 * (i + 1) * dx;
    const auto times = integrate::uniformGrid(0, tEnd, tEnd / (samples - 1));

    model.setParameters(truth);
    integrate::SimulationRequest plain;
    plain.times = times;
    const auto data = integrate::simulate(model, plain, sparse(1e-10, 1e-13));
    const double noise = 1e-4;
    std::mt19937 rng(7);
    std::normal_distribution<double> gauss(0.0, noise);
    estimate::Experiment experiment;
    experiment.name = "simulated";
    experiment.times = times;
    experiment.measured = data.outputs;
    for (Eigen::Index k = 0; k < experiment.measured.size(); ++k)
        experiment.measured.data()[k] += gauss(rng);
    experiment.outputMeasured.assign(model.outputCount(), true);

    const auto settings = sparse(1e-7, 1e-10);
    model.setParameters(guess);
    start = Clock::now();
    const auto once = integrate::simulate(model, plain, settings);
    const double plainTime = secondsSince(start);
    integrate::SimulationRequest withSensitivities = plain;
    for (int i = 0; i < nodes; ++i)
        withSensitivities.sensitivityParameters.push_back(static_cast<std::size_t>(i));
    start = Clock::now();
    double cpu = cpuSeconds();
    const auto sensitive = integrate::simulate(model, withSensitivities, settings);
    const double sensitivityTime = secondsSince(start), sensitivityCpu = cpuSeconds() - cpu;
    std::printf("one simulation (sparse-implicit, rtol 1e-7): states only %.3f s (%zu steps); with %d sensitivity "
                "columns (%d equations) %.3f s, cpu %.3f s (%zu steps, %zu rejected)\n",
                plainTime, once.statistics.steps, nodes, nodes * (nodes + 1), sensitivityTime, sensitivityCpu,
                sensitive.statistics.steps, sensitive.statistics.rejectedSteps);

    // The cost gradient at the starting guess: sensitivities against central differences.
    const double weight = 1.0 / (noise * noise);
    start = Clock::now();
    Eigen::VectorXd gradient;
    const auto forGradient = integrate::simulate(model, withSensitivities, settings);
    cost(forGradient, experiment.measured, weight, &gradient);
    const double sensitivityGradientTime = secondsSince(start);
    start = Clock::now();
    Eigen::VectorXd fdGradient(nodes);
    for (int i = 0; i < (finiteDifferences ? nodes : 0); ++i) {
        auto p = guess;
        const double h = 1e-6;
        p[static_cast<std::size_t>(i)] = guess[static_cast<std::size_t>(i)] + h;
        model.setParameters(p);
        const double up =
            cost(integrate::simulate(model, plain, sparse(1e-10, 1e-13)), experiment.measured, weight, nullptr);
        p[static_cast<std::size_t>(i)] = guess[static_cast<std::size_t>(i)] - h;
        model.setParameters(p);
        const double down =
            cost(integrate::simulate(model, plain, sparse(1e-10, 1e-13)), experiment.measured, weight, nullptr);
        fdGradient(i) = (up - down) / (2 * h);
    }
    const double fdGradientTime = secondsSince(start);
    model.setParameters(guess);
    const double agreement = (gradient - fdGradient).norm() / fdGradient.norm();
    if (finiteDifferences)
        std::printf(
            "cost gradient at the guess: sensitivities %.3f s, central differences (%d simulations at rtol 1e-10) "
            "%.3f s, ratio %.1f; |g_sens - g_fd| / |g_fd| = %.2e\n",
            sensitivityGradientTime, 2 * nodes, fdGradientTime, fdGradientTime / sensitivityGradientTime, agreement);

    estimate::FitSettings fitSettings;
    fitSettings.integrator = settings;
    fitSettings.maxIterations = 50;
    fitSettings.costTolerance = 1e-9;
    for (const auto& name : source->outputNames)
        fitSettings.outputWeights[name] = weight;
    start = Clock::now();
    cpu = cpuSeconds();
    Clocked observer(start);
    const auto result = estimate::fit(source, guess, {experiment}, fitSettings, &observer);
    const double fitTime = secondsSince(start), fitCpu = cpuSeconds() - cpu;
    double worst = 0, rms = 0;
    for (int i = 0; i < nodes; ++i) {
        const double e = result.parameters[static_cast<std::size_t>(i)].value - truth[static_cast<std::size_t>(i)];
        worst = std::max(worst, std::abs(e));
        rms += e * e;
    }
    rms = std::sqrt(rms / nodes);
    std::printf("fit (Levenberg-Marquardt / Gauss-Newton, sparse-implicit): %zu iterations, %.2f s total, %.2f s per "
                "iteration (cpu %.2f s, %.2f s per iteration); converged %s (%s); final cost %.6e (%zu residuals)\n",
                result.iterations, fitTime, fitTime / std::max<std::size_t>(result.iterations, 1), fitCpu,
                fitCpu / static_cast<double>(std::max<std::size_t>(result.iterations, 1)),
                result.converged() ? "yes" : "no", result.termination.message.c_str(), result.cost,
                result.residualCount);
    std::printf(
        "alpha error against the truth 0.1 + 0.1 x: rms %.2e, max %.2e (alpha[%d] = %.5f, sd %.1e, true %.5f)\n", rms,
        worst, nodes / 2, result.parameters[static_cast<std::size_t>(nodes / 2 - 1)].value,
        result.parameters[static_cast<std::size_t>(nodes / 2 - 1)].sd, truth[static_cast<std::size_t>(nodes / 2 - 1)]);
    if (!estimatesFile.empty()) {
        std::FILE* out = std::fopen(estimatesFile.c_str(), "w");
        if (!out) {
            std::fprintf(stderr, "cannot write %s\n", estimatesFile.c_str());
            return 1;
        }
        std::fprintf(out, "cost %.17g iterations %zu\n", result.cost, result.iterations);
        for (const auto& p : result.parameters)
            std::fprintf(out, "%s %.17g %.17g\n", p.name.c_str(), p.value, p.sd);
        std::fclose(out);
    }
    return 0;
}
