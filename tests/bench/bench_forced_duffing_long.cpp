// A long record (run by hand, never by CTest): the output-error fit of a forced Duffing oscillator
//   x'' + c x' + k x + a x^3 = B u(t)
// to 65 000 samples of x at 610 Hz (106.6 s), u a multisine (40 sines of equal amplitude, 0.5 to 15 Hz,
// random phases from a fixed seed, unit RMS) given as a sampled input column read linearly between its
// samples, as `sysid fit` reads it. Six unknowns: c, k, a, B and the initial state x(0), v(0) (v = x').
// Truth c = 2, k = 1000 (5.03 Hz), a = 5000, B = 50, x(0) = 0.05, x'(0) = 0; the data are simulated at
// rtol 1e-12 and get Gaussian noise of 1 % of x's RMS (seed 7). The fit starts 20 % off (c, k, a, B up,
// down, up, down) from x(0) = x'(0) = 0, at rtol 1e-8 (atol 1e-10), Levenberg-Marquardt as the product
// runs it. Prints per run: wall time, iterations, time per iteration, the estimates against the truth,
// and the peak resident memory of the process (VmHWM).
//
// Usage: bench_forced_duffing_long [--runs N] [--integrator dopri5|dop853] [--write DIR]
//   --write DIR  writes DIR/forced_duffing_long.model and DIR/forced_duffing_long.csv (t, u, x) and exits:
//                the same problem for `sysid fit DIR/forced_duffing_long.model --data DIR/forced_duffing_long.csv`
//                (the start is the model's values), and for the CVODES reference.

#include "BenchSupport.h"

#include "engine/data/CsvReader.h"
#include "engine/data/CsvWriter.h"
#include "engine/estimate/Fit.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeCode.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace sysid;

constexpr std::size_t kSamples = 65000;
constexpr double kRate = 610.0;

// The model as a user writes it, with the given starting values.
std::string modelText(double c, double k, double a, double B, double x0, double v0)
{
    char text[1024];
    std::snprintf(text, sizeof text,
                  "# Forced Duffing oscillator driven by a measured multisine u (long-record benchmark)\n"
                  "param c = %.17g [0, 100]\n"
                  "param k = %.17g [1, 1e5]\n"
                  "param a = %.17g [-1e6, 1e6]\n"
                  "param B = %.17g [0, 1e3]\n"
                  "input u\n"
                  "state x = %.17g [-10, 10] estimate\n"
                  "state v = %.17g [-100, 100] estimate\n"
                  "x' = v\n"
                  "v' = B*u - c*v - k*x - a*x^3\n"
                  "output x\n",
                  c, k, a, B, x0, v0);
    return text;
}

const std::vector<double> kTruth{2.0, 1000.0, 5000.0, 50.0, 0.05, 0.0};
const std::vector<double> kStart{2.4, 800.0, 6000.0, 40.0, 0.0, 0.0};

// 40 sines between 0.5 and 15 Hz, equal amplitudes, phases uniform on [0, 2 pi) (seed 1), scaled to unit RMS.
std::vector<double> multisine(const std::vector<double>& t)
{
    constexpr int lines = 40;
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> phase(0.0, 2 * std::numbers::pi);
    std::vector<double> f(lines), phi(lines);
    for (int i = 0; i < lines; ++i) {
        f[i] = 0.5 + (15.0 - 0.5) * i / (lines - 1);
        phi[i] = phase(rng);
    }
    std::vector<double> u(t.size(), 0.0);
    for (std::size_t s = 0; s < t.size(); ++s)
        for (int i = 0; i < lines; ++i)
            u[s] += std::sin(2 * std::numbers::pi * f[i] * t[s] + phi[i]);
    const double scale = std::sqrt(2.0 / lines);
    for (double& v : u)
        v *= scale;
    return u;
}

// The data table as `sysid fit --data` reads it: t, u and the noisy x.
data::DataTable makeData()
{
    std::vector<double> t(kSamples);
    for (std::size_t s = 0; s < kSamples; ++s)
        t[s] = static_cast<double>(s) / kRate;
    const std::vector<double> u = multisine(t);
    const auto truth = eval::compileModel(
        model::parseModel(modelText(kTruth[0], kTruth[1], kTruth[2], kTruth[3], kTruth[4], kTruth[5]), "duffing"));
    eval::CompiledModel model(truth);
    const integrate::InputSignals inputs({data::Signal(t, u)});
    integrate::SimulationRequest request;
    request.times = t;
    request.inputs = &inputs;
    integrate::IntegratorSettings reference;
    reference.relativeTolerance = 1e-12;
    reference.absoluteTolerance = 1e-14;
    const auto clean = integrate::simulate(model, request, reference);
    std::vector<double> x(kSamples);
    double rms = 0;
    for (std::size_t s = 0; s < kSamples; ++s) {
        x[s] = clean.outputs(static_cast<Eigen::Index>(s), 0);
        rms += x[s] * x[s];
    }
    rms = std::sqrt(rms / kSamples);
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.01 * rms);
    for (double& v : x)
        v += noise(rng);
    std::ostringstream csv;
    data::writeCsv(csv, {"t", "u", "x"}, {t, u, x});
    return data::parseCsv(csv.str(), "forced_duffing_long.csv");
}

// CPU seconds of the process: the machine is shared, and the fit runs on one thread.
double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double peakMegabytes()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) / 1024.0;
    return NAN;
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        int runs = 3;
        std::string method = "dopri5", writeDir;
        for (int i = 1; i < argc; ++i) {
            if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
                runs = static_cast<int>(bench::parseNumber(argv[++i], "--runs"));
            else if (!std::strcmp(argv[i], "--integrator") && i + 1 < argc)
                method = argv[++i];
            else if (!std::strcmp(argv[i], "--write") && i + 1 < argc)
                writeDir = argv[++i];
            else
                throw std::invalid_argument(std::string("unknown option ") + argv[i]);
        }
        const data::DataTable table = makeData();
        if (!writeDir.empty()) {
            std::filesystem::create_directories(writeDir);
            std::ofstream(writeDir + "/forced_duffing_long.model")
                << modelText(kStart[0], kStart[1], kStart[2], kStart[3], kStart[4], kStart[5]);
            data::writeCsvFile(writeDir + "/forced_duffing_long.csv", {"t", "u", "x"},
                               {table.time(), table.column("u"), table.column("x")});
            std::printf("wrote %s/forced_duffing_long.model and .csv (%zu samples)\n", writeDir.c_str(), kSamples);
            return 0;
        }
        const auto source = eval::compileModel(
            model::parseModel(modelText(kStart[0], kStart[1], kStart[2], kStart[3], kStart[4], kStart[5]),
                              "forced_duffing_long"));
        eval::setNativeCodeWaits(true);
        eval::requestNativeCode(source, eval::ModelCode::Native);
        const std::vector<estimate::Experiment> experiments{estimate::makeExperiment(*source, table, {}, "long")};
        estimate::FitSettings settings;
        settings.integrator.method = integrate::kIntegrationMethods.parse(method).value();
        settings.integrator.methodChosen = true;
        settings.integrator.relativeTolerance = 1e-8;
        settings.integrator.absoluteTolerance = 1e-10;
        settings.outputWeights = {{"x", 1.0}};
        std::printf("forced Duffing, %zu samples at %.0f Hz, 6 unknowns, %s rtol 1e-8 atol 1e-10\n", kSamples, kRate,
                    method.c_str());
        bench::printBuildType();
        std::printf("  load           : %s\n", bench::loadAverage().c_str());
        std::vector<double> seconds, perIteration, cpu, cpuPerIteration;
        estimate::FitResult result;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = bench::Clock::now();
            const double c0 = cpuSeconds();
            result = estimate::fit(source, source->parameterValues, experiments, settings);
            const double s = bench::secondsSince(t0);
            cpu.push_back(cpuSeconds() - c0);
            cpuPerIteration.push_back(cpu.back() / static_cast<double>(std::max<std::size_t>(result.iterations, 1)));
            seconds.push_back(s);
            perIteration.push_back(s / static_cast<double>(std::max<std::size_t>(result.iterations, 1)));
            std::printf("  run %d: %.3f s (CPU %.3f s), %zu iterations, %zu evaluations, %.4f s per iteration (CPU %.4f s), "
                        "%zu steps, %zu rhs\n",
                        r + 1, s, cpu.back(), result.iterations, result.evaluations, perIteration.back(),
                        cpuPerIteration.back(),
                        result.statistics.integration.steps, result.statistics.integration.rhsEvaluations);
        }
        std::printf("median total %.3f s (CPU %.3f s), median per iteration %.4f s (CPU %.4f s), iterations %zu, cost "
                    "%.12e, %s\n",
                    bench::median(seconds), bench::median(cpu), bench::median(perIteration),
                    bench::median(cpuPerIteration), result.iterations, result.cost,
                    core::describe(result.termination).c_str());
        // Estimated initial values are named per experiment; match them by order after the four parameters.
        for (std::size_t i = 0; i < result.parameters.size(); ++i)
            std::printf("  %-12s %.12g  (truth %.6g, sd %.3g)\n", result.parameters[i].name.c_str(),
                        result.parameters[i].value, i < kTruth.size() ? kTruth[i] : NAN,
                        result.parameters[i].sd);
        std::printf("peak memory (VmHWM) %.1f MB\n", peakMegabytes());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_forced_duffing_long: %s\n", e.what());
        return 1;
    }
}
