// Maximum likelihood with estimated noise variances (issue 19) over many noise realisations, the larger run of
// tests/validation/test_ml_validation (run by hand, never by CTest).
//
// Model: x'' = -c x' - k x, x(0) = 1, 0, k 4, c 0.4, measured in position x and velocity v = x' over 10 s
// (201 samples), Gaussian noise sd 0.002 on x and 0.002 * RATIO on v, for each RATIO given. Each realisation
// (seed 1000 + r) is fitted from 30 % off by ml, by output error with equal weights 1 and 1, and by output error
// with its default weights (1/sigma^2 from the data's own noise estimate). Printed per method and parameter: the
// mean estimate, the sample sd over the realisations, the mean reported sd and their ratio; for ml also each
// output's noise sd (mean, bias %, sample sd, mean reported sd).
//
// Usage: bench_ml_monte_carlo [--realisations N] [--ratios 1,10,100]

#include "BenchSupport.h"
#include "tests/validation/MonteCarloSpread.h"

#include "engine/estimate/Fit.h"
#include "engine/estimate/FitSettings.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace sysid;

namespace {

using test::Spread;
using test::spreadOf;

std::vector<double> parseList(const std::string& text)
{
    std::vector<double> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        values.push_back(bench::parseNumber(text.substr(start, comma - start).c_str(), "--ratios"));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return values;
}

}  // namespace

int main(int argc, char** argv)
{
    std::size_t realisations = 1000;
    std::vector<double> ratios{1, 10, 100};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--realisations"))
            realisations = static_cast<std::size_t>(bench::parseNumber(argv[i + 1], "--realisations"));
        else if (!std::strcmp(argv[i], "--ratios"))
            ratios = parseList(argv[i + 1]);
    }
    std::printf("bench_ml_monte_carlo: %zu realisations, load %s\n", realisations, bench::loadAverage().c_str());
    bench::printBuildType();
    const auto src = eval::compileModel(model::parseModel("param k = 2.8 [0.1, 100]\n"
                                                          "param c = 0.28 [0, 10]\n"
                                                          "x'' = -c*x' - k*x\n"
                                                          "x(0) = 1, 0\n"
                                                          "output x\n"
                                                          "output v = x'\n",
                                                          "oscillator.model"));
    std::vector<double> times(201);
    for (std::size_t i = 0; i < times.size(); ++i)
        times[i] = 0.05 * static_cast<double>(i);
    eval::CompiledModel truthModel(src);
    const std::vector<double> truth{4.0, 0.4};
    truthModel.setParameters(truth);
    integrate::SimulationRequest request;
    request.times = times;
    integrate::IntegratorSettings tight;
    tight.relativeTolerance = 1e-12;
    tight.absoluteTolerance = 1e-14;
    const Eigen::MatrixXd clean = integrate::simulate(truthModel, request, tight).outputs;

    estimate::FitSettings ml;
    ml.method = estimate::EstimationMethod::MaximumLikelihood;
    estimate::FitSettings equal = ml;
    equal.method = estimate::EstimationMethod::OutputError;
    equal.outputWeights = {{"x", 1.0}, {"v", 1.0}};
    estimate::FitSettings automatic = equal;
    automatic.outputWeights.clear();
    const std::vector<estimate::FitSettings> methods{ml, equal, automatic};
    const char* names[] = {"ml", "equal weights", "noise-estimate weights"};

    for (const double ratio : ratios) {
        const double sx = 0.002, sv = 0.002 * ratio;
        std::vector<std::vector<estimate::FitResult>> results(methods.size(),
                                                              std::vector<estimate::FitResult>(realisations));
        std::vector<std::string> errors(realisations);
        const auto start = bench::Clock::now();
        auto work = [&](std::size_t first, std::size_t stride) {
            for (std::size_t r = first; r < realisations; r += stride) {
                try {
                    std::mt19937_64 rng(1000 + r);
                    std::normal_distribution<double> normal;
                    estimate::Experiment e;
                    e.times = times;
                    e.measured = clean;
                    e.outputMeasured = {true, true};
                    for (Eigen::Index i = 0; i < e.measured.rows(); ++i) {
                        e.measured(i, 0) += sx * normal(rng);
                        e.measured(i, 1) += sv * normal(rng);
                    }
                    for (std::size_t m = 0; m < methods.size(); ++m)
                        results[m][r] = estimate::fit(src, src->parameterValues, {e}, methods[m]);
                } catch (const std::exception& ex) {
                    errors[r] = ex.what();
                }
            }
        };
        const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < threads; ++t)
            pool.emplace_back(work, t, threads);
        work(0, threads);
        for (auto& t : pool)
            t.join();
        std::size_t failed = 0;
        for (const auto& e : errors)
            failed += e.empty() ? 0 : 1;
        std::printf("\nnoise sd x %g, v %g (ratio %g): %.1f s, %zu failed\n", sx, sv, ratio, bench::secondsSince(start),
                    failed);
        std::printf("%-24s %-4s %12s %12s %12s %8s %10s\n", "method", "par", "mean", "sample sd", "reported sd",
                    "ratio", "converged");
        for (std::size_t m = 0; m < methods.size(); ++m)
            for (std::size_t p = 0; p < 2; ++p) {
                std::vector<double> values, sds;
                std::size_t converged = 0;
                for (std::size_t r = 0; r < realisations; ++r) {
                    if (!errors[r].empty())
                        continue;
                    values.push_back(results[m][r].parameters[p].value);
                    sds.push_back(results[m][r].parameters[p].sd);
                    converged += results[m][r].converged() ? 1 : 0;
                }
                const Spread s = spreadOf(values, sds);
                std::printf("%-24s %-4s %12.6f %12.3e %12.3e %8.3f %6zu/%zu\n", names[m],
                            results[m][0].parameters[p].name.c_str(), s.mean, s.sampleSd, s.meanReportedSd, s.ratio(),
                            converged, values.size());
            }
        for (std::size_t j = 0; j < 2; ++j) {
            std::vector<double> values, sds;
            for (std::size_t r = 0; r < realisations; ++r)
                if (errors[r].empty()) {
                    values.push_back(results[0][r].noise[j].value);
                    sds.push_back(results[0][r].noise[j].sd);
                }
            const Spread s = spreadOf(values, sds);
            const double truth = j == 0 ? sx : sv;
            std::printf("ml noise sd of %-9s true %.4g: mean %.6g (%+.2f %%), sample sd %.3e, reported sd %.3e, "
                        "ratio %.3f\n",
                        results[0][0].noise[j].output.c_str(), truth, s.mean, 100 * (s.mean / truth - 1), s.sampleSd,
                        s.meanReportedSd, s.ratio());
        }
    }
    return 0;
}
