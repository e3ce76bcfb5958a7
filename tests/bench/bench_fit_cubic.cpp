// Fit benchmark for issue 3 (run by hand, never by CTest; run_fit_benchmark.sh runs it together
// with the SciPy reference fit_cubic_scipy.py on the same data and compares the two).
//
// Model: resources/examples/sdof_cubic.model, u'' + 2 gamma u' + Omega2 u + k3 u^3 = 0, with the
// initial velocity made known (the line "u(0) = 0, 5 estimate" becomes "u(0) = 0, 5"), so exactly
// the three parameters gamma, Omega2, k3 are estimated.
// Data: 2000 samples on [0, 5] s (dt = 5/1999) of the true response, integrated with rtol 1e-12,
// plus 5 % uniform noise as in seed note 004 (data::addNoise: uniform in [-a, a), a = 5 % of the
// RMS of the clean signal), written to a CSV file (t, u, u_true) that the Python script reads.
// Fit: output error, dopri5 with rtol 1e-8 / atol 1e-10, start 30 % off the truth (the starting
// values of resources/examples/sdof_cubic.sysid), output weight 1 (plain sum of squares), cost,
// step and gradient tolerances 1e-10 (SciPy's ftol, xtol, gtol), timed with std::chrono around
// estimate::fit() only (model compilation and data generation are not timed).
//
// Usage: bench_fit_cubic [--data FILE] [--json FILE] [--runs N] [--seed S]
//                        [--ftol X] [--xtol X] [--gtol X] [--rtol X] [--atol X] [--model-code C]
//                        [--sensitivity-error-control include|exclude]
//   --data  where to write the noisy data (default fit_cubic_data.csv)
//   --json  where to write the results for the comparison (default: not written)
//   --model-code native|interpreted   how the model is evaluated (default native; its compilation,
//           or loading from the cache, is done before the timed fits)
//   --sensitivity-error-control include|exclude   the sensitivities in the step-size control or not
//           (default: the integrator's default)
//
// bench_fit_cubic --project FILE.sysid [--runs N]: the fit a project describes, prepared once as
// `sysid fit` prepares it (model compiled, native code loaded, records mapped: job::PreparedFit,
// not timed) and then fitted N times, each timed (the solve alone); prints one JSON line (median
// seconds, iterations, estimates). run_cvodes_comparison.sh times it against cvodes_sdof_fit's own
// solve timing on the same problem.

#include "BenchSupport.h"

#include "engine/data/CsvWriter.h"
#include "engine/data/Noise.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/FitSettings.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeCode.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/PreparedFit.h"
#include "engine/model/ModelBuilder.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace sysid::bench;
namespace estimate = sysid::estimate;
namespace integrate = sysid::integrate;

constexpr std::size_t sampleCount = 2000;
constexpr double tEnd = 5.0;
constexpr double noisePercent = 5.0;

struct Options {
    std::string dataPath = "fit_cubic_data.csv";
    std::string jsonPath;
    std::string projectPath;  // --project: time this project's fit instead
    int runs = 5;
    unsigned long long seed = 3;  // issue 3
    double ftol = 1e-10, xtol = 1e-10, gtol = 1e-10;
    double rtol = 1e-8, atol = 1e-10;
    sysid::eval::ModelCode code = sysid::eval::ModelCode::Native;
    sysid::integrate::SensitivityErrorControl control = sysid::integrate::IntegratorSettings{}.sensitivityErrorControl;
};

// The model file with its initial velocity made known: the "estimate" on the x(0) line removed.
std::string knownInitialVelocity(const std::string& text)
{
    std::istringstream in(text);
    std::ostringstream out;
    std::string line;
    int changed = 0;
    while (std::getline(in, line)) {
        const std::string suffix = " estimate";
        if (line.rfind("u(0)", 0) == 0 && line.size() > suffix.size() &&
            line.compare(line.size() - suffix.size(), suffix.size(), suffix) == 0) {
            line.erase(line.size() - suffix.size());
            ++changed;
        }
        out << line << '\n';
    }
    if (changed != 1)
        throw std::runtime_error("expected exactly one line 'u(0) = ..., ... estimate' in the model file");
    return out.str();
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc)
            throw std::invalid_argument("option " + a + " needs a value (or is unknown)");
        const char* v = argv[++i];
        if (a == "--data")
            o.dataPath = v;
        else if (a == "--json")
            o.jsonPath = v;
        else if (a == "--project")
            o.projectPath = v;
        else if (a == "--runs")
            o.runs = std::max(1, static_cast<int>(parseNumber(v, "--runs")));
        else if (a == "--seed")
            o.seed = static_cast<unsigned long long>(parseNumber(v, "--seed"));
        else if (a == "--ftol")
            o.ftol = parseNumber(v, "--ftol");
        else if (a == "--xtol")
            o.xtol = parseNumber(v, "--xtol");
        else if (a == "--gtol")
            o.gtol = parseNumber(v, "--gtol");
        else if (a == "--rtol")
            o.rtol = parseNumber(v, "--rtol");
        else if (a == "--atol")
            o.atol = parseNumber(v, "--atol");
        else if (a == "--sensitivity-error-control") {
            const auto control = sysid::integrate::kSensitivityErrorControls.parse(v);
            if (!control)
                throw std::invalid_argument(
                    sysid::integrate::kSensitivityErrorControls.mustBe("--sensitivity-error-control", v));
            o.control = *control;
        }
        else if (a == "--model-code") {
            const auto code = sysid::eval::kModelCodes.parse(v);
            if (!code)
                throw std::invalid_argument(sysid::eval::kModelCodes.mustBe("--model-code", v));
            o.code = *code;
        }
        else
            throw std::invalid_argument("unknown option " + a);
    }
    return o;
}

// The solve alone of the fit a project describes (see the header): one JSON line on stdout.
int timeProjectFit(const Options& opt)
{
    sysid::eval::setNativeCodeWaits(true);
    const sysid::job::PreparedFit prepared(sysid::project::makeFitJob(sysid::project::loadProject(opt.projectPath)));
    std::vector<double> seconds;
    estimate::FitResult result;
    for (int run = 0; run < opt.runs; ++run) {
        const auto t0 = Clock::now();
        result = prepared.fit({});
        seconds.push_back(secondsSince(t0));
    }
    std::printf("{\"program\":\"bench_fit_cubic --project\",\"native\":%s,\"wall_s\":%.6g,\"wall_s_min\":%.6g,"
                "\"runs\":%d,\"iterations\":%zu,\"converged\":%s,\"cost\":%.15g,\"estimates\":{",
                prepared.model()->native && prepared.model()->native->functions() ? "true" : "false",
                median(seconds), *std::min_element(seconds.begin(), seconds.end()), opt.runs, result.iterations,
                result.converged() ? "true" : "false", result.cost);
    for (std::size_t i = 0; i < result.parameters.size(); ++i)
        std::printf("%s\"%s\":%.15g", i ? "," : "", result.parameters[i].name.c_str(), result.parameters[i].value);
    std::printf("}}\n");
    return result.converged() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        const Options opt = parseOptions(argc, argv);
        if (!opt.projectPath.empty())
            return timeProjectFit(opt);
        const std::string modelPath = examplePath("sdof_cubic.model");
        std::printf("sysid bench_fit_cubic\n");
        std::printf("  load average   : %s (at start), nproc %u\n", loadAverage().c_str(),
                    std::thread::hardware_concurrency());
        printBuildType();
        std::printf("  model          : %s, with u(0) = 0, 5 (initial velocity known)\n", modelPath.c_str());

        const std::string modelText = knownInitialVelocity(readFile(modelPath));
        const auto source = sysid::eval::compileModel(sysid::model::parseModel(modelText, "sdof_cubic (u'(0) known)"));
        sysid::eval::setNativeCodeWaits(true);
        sysid::eval::requestNativeCode(source, opt.code);
        std::printf("  model code     : %s%s\n", std::string(sysid::eval::kModelCodes.name(opt.code)).c_str(),
                    opt.code != sysid::eval::ModelCode::Native ? ""
                    : source->native->functions()
                        ? (source->native->fromCache() ? " (loaded from the cache)" : " (compiled now)")
                        : " (UNAVAILABLE: interpreted)");
        if (source->parameterCount() != 3 || source->outputCount() != 1 || source->outputNames[0] != "u" ||
            source->inputCount() != 0)
            throw std::runtime_error("expected 3 parameters, the single output u and no inputs");
        const std::vector<double> truth = source->parameterValues;
        std::vector<double> start(3);
        for (std::size_t i = 0; i < 3; ++i)  // 30 % off: gamma and k3 low, Omega2 high (as sdof_cubic.sysid)
            start[i] = truth[i] * (source->parameterNames[i] == "Omega2" ? 1.3 : 0.7);

        // Data: the true response (tight tolerances) plus seed-004 noise.
        const double dt = tEnd / static_cast<double>(sampleCount - 1);
        const std::vector<double> times = integrate::uniformGrid(0.0, tEnd, dt);
        if (times.size() != sampleCount)
            throw std::runtime_error("the grid has " + std::to_string(times.size()) + " samples, not 2000");
        sysid::eval::CompiledModel truthModel(source);
        truthModel.setParameters(truth);
        integrate::SimulationRequest request;
        request.times = times;
        integrate::IntegratorSettings tight;
        tight.relativeTolerance = 1e-12;
        tight.absoluteTolerance = 1e-14;
        const integrate::Trajectory clean = integrate::simulate(truthModel, request, tight);
        std::vector<double> uTrue(times.size()), u(times.size());
        for (std::size_t s = 0; s < times.size(); ++s)
            uTrue[s] = clean.outputs(static_cast<Eigen::Index>(s), 0);
        u = uTrue;
        std::mt19937_64 rng(opt.seed);
        sysid::data::addNoise(u, noisePercent, sysid::data::NoiseDistribution::Uniform, rng);
        sysid::data::writeCsvFile(opt.dataPath, {"t", "u", "u_true"}, {times, u, uTrue});
        std::printf("  data           : %zu samples, t = 0..%g s (dt = 5/1999), %g %% uniform noise "
                    "(a = %.6g, seed %llu), RMS(u_true) = %.6g\n",
                    times.size(), tEnd, noisePercent, noisePercent / 100 * sysid::data::rms(uTrue), opt.seed,
                    sysid::data::rms(uTrue));
        std::printf("                   written to %s\n", opt.dataPath.c_str());

        estimate::Experiment experiment;
        experiment.name = "sdof_cubic, 5 % uniform noise";
        experiment.times = times;
        experiment.measured = Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size()));
        experiment.outputMeasured = {true};

        estimate::FitSettings settings;
        settings.method = estimate::EstimationMethod::OutputError;
        settings.integrator.method = integrate::IntegrationMethod::Dopri5;
        settings.integrator.relativeTolerance = opt.rtol;
        settings.integrator.absoluteTolerance = opt.atol;
        settings.integrator.sensitivityErrorControl = opt.control;
        settings.maxIterations = 200;
        settings.costTolerance = opt.ftol;
        settings.stepTolerance = opt.xtol;
        settings.gradientTolerance = opt.gtol;
        settings.outputWeights = {{"u", 1.0}};
        std::printf("  fit            : output error, dopri5 rtol %g atol %g, cost/step/gradient tolerance %g/%g/%g,\n"
                    "                   weight 1 on u, start",
                    opt.rtol, opt.atol, opt.ftol, opt.xtol, opt.gtol);
        for (std::size_t i = 0; i < 3; ++i)
            std::printf(" %s = %g", source->parameterNames[i].c_str(), start[i]);
        std::printf("\n");

        // Accuracy of the fit's integrator: at the truth, against the tight-tolerance response.
        double integrationError = 0.0;
        {
            const integrate::Trajectory tr = integrate::simulate(truthModel, request, settings.integrator);
            for (std::size_t s = 0; s < times.size(); ++s)
                integrationError =
                    std::max(integrationError, std::abs(tr.outputs(static_cast<Eigen::Index>(s), 0) - uTrue[s]));
            std::printf("  integration    : at the truth, max |u - u_true| on the grid %.2e (%zu steps)\n",
                        integrationError, tr.statistics.steps);
        }

        // One simulation with the three sensitivities at the start (for the per-evaluation cost).
        std::vector<double> simSeconds;
        std::size_t simSteps = 0;
        {
            sysid::eval::CompiledModel m(source);
            m.setParameters(start);
            integrate::SimulationRequest r;
            r.times = times;
            r.sensitivityParameters = {0, 1, 2};
            for (int k = 0; k < 5; ++k) {
                const auto t0 = Clock::now();
                const auto tr = integrate::simulate(m, r, settings.integrator);
                simSeconds.push_back(secondsSince(t0));
                simSteps = tr.statistics.steps;
            }
        }

        std::vector<estimate::Experiment> experiments{experiment};
        std::vector<double> seconds;
        estimate::FitResult result;
        bool identical = true;
        for (int run = 0; run < opt.runs; ++run) {
            const auto t0 = Clock::now();
            estimate::FitResult r = estimate::fit(source, start, experiments, settings);
            seconds.push_back(secondsSince(t0));
            if (run > 0)
                for (std::size_t i = 0; i < r.parameters.size(); ++i)
                    identical = identical && r.parameters[i].value == result.parameters[i].value;
            result = std::move(r);
        }
        const double fitSeconds = median(seconds);

        std::printf("\n  sysid fit, %d runs: wall [ms]", opt.runs);
        for (double s : seconds)
            std::printf(" %.2f", s * 1e3);
        std::printf("; median %.2f ms, min %.2f ms\n", fitSeconds * 1e3,
                    *std::min_element(seconds.begin(), seconds.end()) * 1e3);
        std::printf("  iterations (accepted LM steps) %zu, converged %s: %s\n", result.iterations,
                    result.converged() ? "yes" : "NO", result.termination.message.c_str());
        std::printf("  cost 1/2 sum r^2 = %.12g, residual RMS %.6g (noise RMS a/sqrt(3) = %.6g)\n", result.cost,
                    result.residualRms[0], noisePercent / 100 * sysid::data::rms(uTrue) / std::sqrt(3.0));
        std::printf("  one simulation with 3 sensitivities at the start: %.3f ms, %zu steps (fit = %.1f such)\n",
                    median(simSeconds) * 1e3, simSteps, fitSeconds / median(simSeconds));
        std::printf("  runs bit-identical: %s\n", identical ? "yes" : "NO");
        std::printf("  %-8s %12s %22s %12s %12s\n", "param", "true", "estimate", "sd", "est/true-1");
        for (std::size_t i = 0; i < result.parameters.size(); ++i) {
            const auto& p = result.parameters[i];
            std::printf("  %-8s %12g %22.15g %12.4g %12.3e\n", p.name.c_str(), truth[i], p.value, p.sd,
                        p.value / truth[i] - 1);
        }

        if (!opt.jsonPath.empty()) {
            std::ofstream json(opt.jsonPath);
            char buffer[64];
            auto num = [&](double v) {
                std::snprintf(buffer, sizeof buffer, "%.17g", v);
                return std::string(buffer);
            };
            json << "{\n  \"seconds\": [";
            for (std::size_t k = 0; k < seconds.size(); ++k)
                json << (k ? ", " : "") << num(seconds[k]);
            json << "],\n  \"median_seconds\": " << num(fitSeconds) << ",\n  \"iterations\": " << result.iterations
                 << ",\n  \"converged\": " << (result.converged() ? "true" : "false") << ",\n  \"stop_reason\": \""
                 << result.termination.message << "\",\n  \"cost\": " << num(result.cost)
                 << ",\n  \"integration_error\": " << num(integrationError)
                 << ",\n  \"simulation_seconds\": " << num(median(simSeconds))
                 << ",\n  \"simulation_steps\": " << simSteps << ",\n  \"load_average\": \"" << loadAverage()
                 << "\",\n  \"names\": [";
            for (std::size_t i = 0; i < 3; ++i)
                json << (i ? ", " : "") << '"' << result.parameters[i].name << '"';
            json << "],\n  \"truth\": [" << num(truth[0]) << ", " << num(truth[1]) << ", " << num(truth[2])
                 << "],\n  \"start\": [" << num(start[0]) << ", " << num(start[1]) << ", " << num(start[2])
                 << "],\n  \"lower\": [";
            for (std::size_t i = 0; i < 3; ++i)
                json << (i ? ", " : "") << num(source->parameters[i].lower);
            json << "],\n  \"upper\": [";
            for (std::size_t i = 0; i < 3; ++i)
                json << (i ? ", " : "") << num(source->parameters[i].upper);
            json << "],\n  \"estimate\": [";
            for (std::size_t i = 0; i < 3; ++i)
                json << (i ? ", " : "") << num(result.parameters[i].value);
            json << "],\n  \"sd\": [";
            for (std::size_t i = 0; i < 3; ++i)
                json << (i ? ", " : "") << num(result.parameters[i].sd);
            json << "],\n  \"rtol\": " << num(opt.rtol) << ", \"atol\": " << num(opt.atol)
                 << ", \"ftol\": " << num(opt.ftol) << ", \"xtol\": " << num(opt.xtol)
                 << ", \"gtol\": " << num(opt.gtol) << "\n}\n";
            if (!json)
                throw std::runtime_error("cannot write " + opt.jsonPath);
        }
        return result.converged() ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_fit_cubic: %s\n", e.what());
        return 2;
    }
}
