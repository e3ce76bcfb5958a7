#pragma once
// What the benchmarks share: where the sources are, how the binary was built (printed with the
// results: only an optimised build's timings mean anything), the machine's load, timing and its
// statistics, and reading numbers given on the command line.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef SYSID_SOURCE_DIR
#define SYSID_SOURCE_DIR "."
#endif
#ifndef SYSID_BENCH_BUILD_TYPE
#define SYSID_BENCH_BUILD_TYPE "unknown"
#endif

namespace sysid::bench {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The middle value; of an even count, the mean of the two middle values.
inline double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

inline std::string examplePath(const std::string& file)
{
    return std::string(SYSID_SOURCE_DIR) + "/resources/examples/" + file;
}

inline std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The 1, 5 and 15 minute load averages ("?" where /proc has none): other jobs on the machine
// distort timings.
inline std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return in ? one + " " + five + " " + fifteen : "?";
}

// The number given to a command-line option; anything else is an std::invalid_argument naming it.
inline double parseNumber(const char* text, const char* option)
{
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v))
        throw std::invalid_argument(std::string("bad number for ") + option + ": " + text);
    return v;
}

// "  build type     : Release, optimised, NDEBUG": inline, so that the macros are the benchmark's own.
inline void printBuildType()
{
    std::printf("  build type     : %s", SYSID_BENCH_BUILD_TYPE);
#ifdef __OPTIMIZE__
    std::printf(", optimised");
#else
    std::printf(", NOT optimised");
#endif
#ifdef NDEBUG
    std::printf(", NDEBUG\n");
#else
    std::printf(", assertions on\n");
#endif
}

}  // namespace sysid::bench
