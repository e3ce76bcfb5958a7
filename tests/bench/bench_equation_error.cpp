// Equation-error benchmark for issue 6 (run by hand, never by CTest).
//
// Model: seed 004's quadratic + cubic oscillator, u'' + 2 gamma u' + Omega2 u + alpha1 u^2 +
// alpha2 u^3 = 0, u(0) = 0, u'(0) = 5, true (gamma, Omega2, alpha1, alpha2) = (0.5, 25, 0.5, 2.5),
// started from the seed's (0.35, 22.5, 1.0, 1.0). Data: displacement and velocity over 5 s,
// integrated with rtol 1e-12, for N = 335 with 5 % uniform noise (seed 004's model) and N = 100 000
// without and with it.
// Timed (std::chrono, median of --runs): each method's estimate::fit() with the fitted-model
// simulation off ("fit") and on ("fit + simulation", which adds one integration of the record
// for the residual RMS); output error (the seed's direct method, dopri5 rtol 1e-8) for comparison.
// Reported: ms per fit, iterations, and ns per sample per iteration (the O(N) constant).
//
// Usage: bench_equation_error [--runs N] [--samples N]
#include "BenchSupport.h"

#include "engine/data/Noise.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using sysid::bench::Clock;
using sysid::bench::median;
namespace estimate = sysid::estimate;
namespace integrate = sysid::integrate;

const char* modelText = R"(
param gamma = 0.5 [0, 5]
param Omega2 = 25 [1, 100]
param alpha1 = 0.5 [-20, 20]
param alpha2 = 2.5 [-20, 20]
u'' = -2*gamma*u' - Omega2*u - alpha1*u^2 - alpha2*u^3
u(0) = 0, 5
output u
output v = u'
)";

estimate::Experiment record(const std::shared_ptr<const sysid::eval::CompiledModelSource>& source, std::size_t samples,
                            double noisePercent)
{
    sysid::eval::CompiledModel model(source);
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, 5.0, 5.0 / static_cast<double>(samples - 1));
    request.times.resize(samples);
    integrate::IntegratorSettings tight;
    tight.relativeTolerance = 1e-12;
    tight.absoluteTolerance = 1e-14;
    const auto trajectory = integrate::simulate(model, request, tight);
    estimate::Experiment e;
    e.name = "quadratic-cubic";
    e.times = request.times;
    e.measured = trajectory.outputs;
    e.outputMeasured = {true, true};
    std::mt19937_64 rng(6);
    for (Eigen::Index j = 0; j < 2; ++j) {
        std::vector<double> column(e.measured.col(j).data(), e.measured.col(j).data() + e.measured.rows());
        sysid::data::addNoise(column, noisePercent, sysid::data::NoiseDistribution::Uniform, rng);
        e.measured.col(j) = Eigen::Map<const Eigen::VectorXd>(column.data(), e.measured.rows());
    }
    return e;
}

struct Method {
    const char* name;
    estimate::EstimationMethod method;
    estimate::EquationErrorFormula formula;
};

}  // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    std::vector<std::pair<std::size_t, double>> cases{{335, 5.0}, {100000, 0.0}, {100000, 5.0}};
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        if (option == "--runs")
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (option == "--samples")
            cases = {{static_cast<std::size_t>(std::atol(argv[i + 1])), 5.0}};
    }
    const auto source = sysid::eval::compileModel(sysid::model::parseModel(modelText, "<bench>"));
    std::vector<double> start = source->parameterValues;
    start[0] = 0.35;
    start[1] = 22.5;
    start[2] = 1.0;
    start[3] = 1.0;
    const std::vector<Method> methods{
        {"single-step heun", estimate::EstimationMethod::SingleStep, estimate::EquationErrorFormula::Heun},
        {"single-step rk4", estimate::EstimationMethod::SingleStep, estimate::EquationErrorFormula::RungeKutta4},
        {"multistep newton-cotes-6", estimate::EstimationMethod::Multistep,
         estimate::EquationErrorFormula::NewtonCotes6},
        {"multistep simpson", estimate::EstimationMethod::Multistep, estimate::EquationErrorFormula::Simpson},
        {"output error (dopri5)", estimate::EstimationMethod::OutputError, estimate::EquationErrorFormula::Heun},
    };
    std::printf("build %s, %d runs per case (median), one thread\n", SYSID_BENCH_BUILD_TYPE, runs);
    std::printf("%-26s %8s %6s %6s %12s %14s %16s   gamma Omega2 alpha1 alpha2\n", "method", "samples", "noise", "iter",
                "fit [ms]", "ns/sample/iter", "fit+sim [ms]");
    for (const auto& [n, noise] : cases) {
        const std::vector<estimate::Experiment> data{record(source, n, noise)};
        for (const auto& m : methods) {
            estimate::FitSettings settings;
            settings.method = m.method;
            // Output error takes no formula (the settings check rejects a one-step formula as the multistep one).
            if (m.method == estimate::EstimationMethod::SingleStep)
                settings.equationError.oneStep = m.formula;
            else if (m.method == estimate::EstimationMethod::Multistep)
                settings.equationError.multistep = m.formula;
            settings.integrator.relativeTolerance = 1e-8;
            settings.integrator.absoluteTolerance = 1e-10;
            std::vector<double> core, full;
            estimate::FitResult result;
            for (int r = 0; r < runs; ++r) {
                settings.equationError.simulateFit = false;
                auto t0 = Clock::now();
                result = estimate::fit(source, start, data, settings);
                core.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                settings.equationError.simulateFit = true;
                t0 = Clock::now();
                estimate::fit(source, start, data, settings);
                full.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                if (m.method == estimate::EstimationMethod::OutputError && n > 10000)
                    break;  // seconds per fit: one run says enough
            }
            // Evaluations: the start plus one per iteration (line-search retries are rare here).
            const double evaluations = static_cast<double>(result.iterations + 1);
            const double perSample = median(core) * 1e6 / (static_cast<double>(n) * evaluations);
            std::printf("%-26s %8zu %5.0f%% %6zu %12.2f %14.0f %16.2f  ", m.name, n, noise, result.iterations,
                        median(core), perSample, median(full));
            for (const auto& p : result.parameters)
                if (p.name != "u'(0)")
                    std::printf(" %.4f", p.value);
            std::printf("\n");
        }
    }
    return 0;
}
