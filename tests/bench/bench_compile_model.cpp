// What a run pays for the model's second derivatives when it compiles the model (eval::CompileOptions):
// per model, the CPU time of the symbolic compilation (eval::compileModel) and of writing its native C
// text (eval::nativeSource, which every run writes to find its cached library) with and without them.
// Usage: bench_compile_model [--runs N] [MODEL.model ...]  (default: the examples the CLI benchmarks run)

#include "BenchSupport.h"

#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeSource.h"
#include "engine/model/ModelBuilder.h"

#include <ctime>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

using namespace sysid;

namespace {

double threadSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Median CPU seconds of `runs` calls.
double medianSeconds(int runs, const std::function<void()>& call)
{
    std::vector<double> seconds;
    for (int k = 0; k < runs; ++k) {
        const double start = threadSeconds();
        call();
        seconds.push_back(threadSeconds() - start);
    }
    return bench::median(seconds);
}

}  // namespace

int main(int argc, char** argv)
{
    int runs = 41;
    std::vector<std::string> models;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--runs" && i + 1 < argc)
            runs = std::stoi(argv[++i]);
        else
            models.push_back(arg);
    }
    if (models.empty())
        for (const char* file : {"duffing_periodic.model", "sdof_cubic.model", "pendulum_lagrange.model",
                                 "pendulum_natural.model", "duffing_frequency_response.model"})
            models.push_back(bench::examplePath(file));
    std::cout << "bench_compile_model (" << SYSID_BENCH_BUILD_TYPE << " build), load " << bench::loadAverage()
              << ", median CPU of " << runs << " runs\n";
    std::printf("%-34s %9s %9s %9s %9s %9s %9s %8s\n", "model", "parse", "with [ms]", "without", "C with",
                "C without", "saved", "Hessian");
    for (const std::string& path : models) {
        const model::Model m = model::loadModel(path);
        const auto with = eval::compileModel(m);
        const auto without = eval::compileModel(m, {.secondDerivatives = false});
        const double parse = medianSeconds(runs, [&] { model::loadModel(path); });
        const double compileWith = medianSeconds(runs, [&] { eval::compileModel(m); });
        const double compileWithout = medianSeconds(runs, [&] { eval::compileModel(m, {.secondDerivatives = false}); });
        const double textWith = medianSeconds(runs, [&] { eval::nativeSource(*with); });
        const double textWithout = medianSeconds(runs, [&] { eval::nativeSource(*without); });
        const std::size_t entries = with->rhsStateHessian.entries.size() + with->rhsMixedHessian.entries.size() +
            with->rhsParamHessian.entries.size();
        const std::string name = path.substr(path.find_last_of('/') + 1);
        std::printf("%-34s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %8zu\n", name.c_str(), 1e3 * parse, 1e3 * compileWith,
                    1e3 * compileWithout, 1e3 * textWith, 1e3 * textWithout,
                    1e3 * ((compileWith + textWith) - (compileWithout + textWithout)), entries);
    }
    std::cout << "(ms of CPU; 'saved' = compilation and C text with minus without; 'Hessian' = entries of d2f/dx dz, "
                 "d2f/dp dz and d2f/dp2)\n";
    return 0;
}
