// Optimal estimation benchmark (seed 001 §3.4; run by hand, never by CTest).
//
// Model: resources/examples/msd_optimal.model, m s'' + b s' + k s = u, m, b, k estimated.
// Data: 0..10 s every 0.01 s, simulated with m = b = k = 1 from rest (dopri5, rtol 1e-11),
// input u from resources/examples/mass_spring_damper_input.csv (sum of three sines), no noise.
// Estimation: W = V = 1, W_a = 0, 101 shooting points, the default loose-to-tight stages
// (Euler 1 step -> dopri5 1e-6 -> dopri5 1e-11), starting values 10 and then 50 (the seed's
// two runs: RMUSN 8 and 11 iterations, 0.3 / 0.5 min on a 486DX/50). Timed around
// estimateOptimally() only, which includes the symbolic assembly and compilation.
//
// Usage: bench_optimal_estimation [--runs N] [--threads N] [--schedule default|dopri5] [--write-csv FILE] [--json FILE]
// [--points-sweep 1]
//   --write-csv  also write the data (t, u, s) to FILE (resources/examples/msd_optimal_data.csv)
//   --json       also solve a tight reference (one more stage: dopri5 rtol 1e-13, Newton 1e-10) and
//                write timings, estimates, their error against it and the data in full precision
//                to FILE, for optimal_estimation_scipy.py (run_optimal_estimation_benchmark.sh)
//   --points-sweep 1  also time one Newton iteration of the dopri5 1e-6 stage (with the stages'
//                factorisation hand-over off, so that each builds its Jacobian) against the
//                number of shooting points, 11..1001, from the start 10 (issue 5: it must grow linearly);
//                |dm| is the mass estimate's difference to the 101-point run's

#include "BenchSupport.h"
#include "NewtonIterationParts.h"

#include "engine/data/CsvReader.h"
#include "engine/data/CsvWriter.h"
#include "engine/estimate/OptimalEstimation.h"
#include "engine/estimate/OptimalEstimationHamiltonian.h"
#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace sysid;
using bench::Clock;
using bench::examplePath;

model::Model withParameters(double value)
{
    std::lock_guard lock(model::symbolicMutex());
    model::Model m = model::loadModel(examplePath("msd_optimal.model"));
    for (auto& p : m.parameters)
        p.value = value;
    return m;
}

}  // namespace

int main(int argc, char** argv)
{
    int runs = 3;
    std::size_t threads = 0;
    std::string csv, json;
    bool pointsSweep = false;
    bool withoutEuler = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        if (option == "--runs")
            runs = std::max(1, std::stoi(argv[i + 1]));
        else if (option == "--threads")
            threads = static_cast<std::size_t>(std::stoul(argv[i + 1]));
        else if (option == "--write-csv")
            csv = argv[i + 1];
        else if (option == "--json")
            json = argv[i + 1];
        else if (option == "--points-sweep")
            pointsSweep = std::string(argv[i + 1]) != "0";
        else if (option == "--schedule")
            withoutEuler = std::string(argv[i + 1]) == "dopri5";
        else {
            std::fprintf(stderr, "unknown option %s\n", option.c_str());
            return 2;
        }
    }
    try {
        const auto inputs =
            integrate::InputSignals::fromTable({"u"}, data::readCsv(examplePath("mass_spring_damper_input.csv")));
        model::Model truthModel = withParameters(1.0);
        std::shared_ptr<const eval::CompiledModelSource> source;
        {
            std::lock_guard lock(model::symbolicMutex());
            source = eval::compileModel(truthModel);
        }
        eval::CompiledModel truth(source);
        integrate::SimulationRequest request;
        request.times = integrate::uniformGrid(0.0, 10.0, 0.01);
        request.inputs = &inputs;
        integrate::IntegratorSettings tight;
        tight.relativeTolerance = 1e-11;
        tight.absoluteTolerance = 1e-13;
        const auto trajectory = integrate::simulate(truth, request, tight);
        estimate::Experiment experiment;
        experiment.name = "msd";
        experiment.times = request.times;
        experiment.measured = trajectory.outputs;
        experiment.outputMeasured = {true};
        experiment.inputs = inputs;
        if (!csv.empty()) {
            std::vector<double> u(request.times.size()), s(request.times.size());
            for (std::size_t k = 0; k < u.size(); ++k) {
                inputs.values(request.times[k], &u[k]);
                s[k] = trajectory.outputs(static_cast<Eigen::Index>(k), 0);
            }
            data::writeCsvFile(csv, {"t", "u", "s"}, {request.times, u, s});
            std::printf("wrote %s\n", csv.c_str());
        }
        struct Case {
            double start = 0.0, median = 0.0, fastest = 0.0;
            estimate::OptimalEstimationResult result;
        };
        std::vector<Case> cases;
        double symbolicSeconds = 0.0;
        std::printf("bench_optimal_estimation (%s build): MSD, 1001 samples, 101 shooting points, 10 ODEs\n",
                    SYSID_BENCH_BUILD_TYPE);
        {
            // The symbolic part alone: assembly of the 10 Hamiltonian ODEs and their compilation.
            model::Model m = withParameters(10.0);
            std::lock_guard lock(model::symbolicMutex());
            const auto t0 = Clock::now();
            {
                const auto layout = estimate::augmentedLayout(m, {true});
                const model::Model h = estimate::hamiltonianModel(m, layout, {{1, 1, 1, 1, 1}, {1, 1, 1}});
                const auto compiled = eval::compileModel(h, {.secondDerivatives = false});  // as estimateOptimally
            }
            symbolicSeconds = bench::secondsSince(t0);
            std::printf("symbolic assembly + compilation: %.3f s\n", symbolicSeconds);
            m = {};
        }
        for (const double start : {10.0, 50.0}) {
            model::Model m = withParameters(start);
            estimate::OptimalEstimationSettings settings;
            settings.bvp.threads = threads;
            if (withoutEuler) {  // the non-stiff schedule: loose then tight dopri5, no Euler stage
                settings.stages = estimate::defaultOptimalEstimationStages();
                settings.stages.erase(settings.stages.begin());
            }
            std::vector<double> seconds;
            estimate::OptimalEstimationResult r;
            // Per stage of the last run: iterations and seconds in residuals, Jacobians, factor + solve.
            struct StageTime {
                std::size_t iterations = 0, jacobians = 0;
                double residual = 0, jacobian = 0, linear = 0;
            };
            std::vector<StageTime> stageTimes;
            for (int run = 0; run < runs; ++run) {
                stageTimes.assign(settings.stages.empty() ? estimate::defaultOptimalEstimationStages().size()
                                                          : settings.stages.size(),
                                  {});
                const auto t0 = Clock::now();
                r = estimate::estimateOptimally(m, experiment, settings, [&](const shooting::BvpIteration& it) {
                    auto& st = stageTimes.at(it.stage);
                    ++st.iterations;
                    st.jacobians += it.newton.jacobianReused ? 0 : 1;
                    st.residual += it.residualTime.count();
                    st.jacobian += it.jacobianTime.count();
                    st.linear += it.factorTime.count() + it.solveTime.count();
                });
                seconds.push_back(bench::secondsSince(t0));
            }
            std::sort(seconds.begin(), seconds.end());
            std::printf("start %4.0f: m = %.6f b = %.6f k = %.6f  %zu iterations  |F| = %.1e  %s  median %.3f s "
                        "(min %.3f, %d runs)\n",
                        start, r.parameters(0), r.parameters(1), r.parameters(2), r.iterations, r.residualNorm,
                        r.converged() ? "converged" : "NOT converged", seconds[seconds.size() / 2], seconds.front(),
                        runs);
            for (std::size_t k = 0; k < stageTimes.size(); ++k)
                std::printf("  stage %zu: %zu iterations (%zu Jacobians), residuals %.1f ms, Jacobians %.1f ms, "
                            "factor + solve %.1f ms\n",
                            k + 1, stageTimes[k].iterations, stageTimes[k].jacobians, 1e3 * stageTimes[k].residual,
                            1e3 * stageTimes[k].jacobian, 1e3 * stageTimes[k].linear);
            if (!r.converged())
                std::printf("  %s\n", r.termination.message.c_str());
            cases.push_back({start, seconds[seconds.size() / 2], seconds.front(), r});
            std::lock_guard lock(model::symbolicMutex());
            m = {};
        }
        if (pointsSweep) {
            std::printf(
                "per Newton iteration of the dopri5 1e-6 stage (mean over those that built a Jacobian, best of %d), "
                "ms, %zu thread(s)\n%6s %5s %10s %10s %10s %10s %12s %9s\n",
                runs, threads, "m", "iter", "residual", "jacobian", "factor", "solve", "total/(m-1)", "|dm|");
            for (const std::size_t points : {11, 51, 101, 201, 501, 1001}) {
                model::Model m = withParameters(10.0);
                estimate::OptimalEstimationSettings settings;
                settings.bvp.threads = threads;
                settings.shootingPoints = points;
                settings.bvp.reuseBetweenStages = false;  // every iteration of the timed stage builds a Jacobian
                const std::size_t last = 1;  // the dopri5 1e-6 stage
                bench::NewtonIterationParts parts;
                estimate::OptimalEstimationResult r;
                std::size_t lastIterations = 0;
                for (int run = 0; run < runs; ++run) {
                    bench::NewtonIterationSums sums;
                    lastIterations = 0;
                    r = estimate::estimateOptimally(m, experiment, settings, [&](const shooting::BvpIteration& it) {
                        if (it.stage != last)
                            return;
                        ++lastIterations;
                        sums.add(it);
                    });
                    parts.keepBest(sums);
                }
                {
                    std::lock_guard lock(model::symbolicMutex());
                    m = {};
                }
                if (!r.converged()) {
                    std::printf("%6zu failed: %s\n", points, r.termination.message.c_str());
                    continue;
                }
                parts.printRow(points, lastIterations, std::abs(r.parameters(0) - cases.front().result.parameters(0)));
            }
        }
        if (!json.empty()) {
            // Reference: the default stages and one tighter stage, so the estimates' error is
            // measured against a solution whose own integration error is two orders smaller.
            model::Model m = withParameters(10.0);
            estimate::OptimalEstimationSettings settings;
            settings.bvp.threads = threads;
            settings.stages = estimate::defaultOptimalEstimationStages();
            estimate::OptimalEstimationStage tighter = settings.stages.back();
            tighter.integrator.relativeTolerance = 1e-13;
            tighter.integrator.absoluteTolerance = 1e-15;
            tighter.newtonTolerance = 1e-10;
            settings.stages.push_back(tighter);
            const auto reference = estimate::estimateOptimally(m, experiment, settings);
            {
                std::lock_guard lock(model::symbolicMutex());
                m = {};
            }
            if (!reference.converged())
                throw std::runtime_error("the tight reference did not converge: " + reference.termination.message);
            std::printf("reference (+ dopri5 1e-13, Newton 1e-10): m = %.12f b = %.12f k = %.12f\n",
                        reference.parameters(0), reference.parameters(1), reference.parameters(2));
            std::ofstream out(json);
            if (!out)
                throw std::runtime_error("cannot write " + json);
            out.precision(17);
            out << "{\n  \"build\": \"" << SYSID_BENCH_BUILD_TYPE << "\",\n";
            out << "  \"shooting_points\": " << estimate::OptimalEstimationSettings{}.shootingPoints
                << ",\n  \"symbolic_seconds\": " << symbolicSeconds << ",\n";
            out << "  \"reference\": [" << reference.parameters(0) << ", " << reference.parameters(1) << ", "
                << reference.parameters(2) << "],\n  \"cases\": [";
            // JSON has no NaN: a non-finite number (a run that diverged) is written as null.
            const auto number = [](double x) {
                std::ostringstream text;
                text.precision(17);
                if (std::isfinite(x))
                    text << x;
                else
                    text << "null";
                return text.str();
            };
            for (std::size_t c = 0; c < cases.size(); ++c) {
                const auto& r = cases[c].result;
                const bool usable = r.parameters.size() == 3;
                const double error =
                    r.converged() && usable ? (r.parameters - reference.parameters).cwiseAbs().maxCoeff() : NAN;
                out << (c ? ",\n" : "\n") << "    {\"start\": " << cases[c].start
                    << ", \"seconds\": " << cases[c].median << ", \"min_seconds\": " << cases[c].fastest
                    << ", \"runs\": " << runs << ", \"converged\": " << (r.converged() ? "true" : "false")
                    << ", \"iterations\": " << r.iterations << ", \"estimates\": [";
                for (Eigen::Index i = 0; i < 3; ++i)
                    out << (i ? ", " : "") << number(usable ? r.parameters(i) : NAN);
                out << "], \"error\": " << number(error) << "}";
            }
            out << "\n  ],\n  \"t\": [";
            std::vector<double> u(request.times.size());
            for (std::size_t k = 0; k < u.size(); ++k) {
                inputs.values(request.times[k], &u[k]);
                out << (k ? ", " : "") << request.times[k];
            }
            out << "],\n  \"u\": [";
            for (std::size_t k = 0; k < u.size(); ++k)
                out << (k ? ", " : "") << u[k];
            out << "],\n  \"s\": [";
            for (std::size_t k = 0; k < u.size(); ++k)
                out << (k ? ", " : "") << trajectory.outputs(static_cast<Eigen::Index>(k), 0);
            out << "]\n}\n";
        }
        std::lock_guard lock(model::symbolicMutex());
        truthModel = {};
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_optimal_estimation: %s\n", e.what());
        return 1;
    }
    return 0;
}
