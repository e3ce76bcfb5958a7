#include "engine/estimate/NormalEquationsAccumulator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif
// g++ only: the header's inline functions return C's _Bool, which clang++ does not accept in C++.
#if defined(__x86_64__) && defined(__GLIBC__) && !defined(__clang__) && __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define SYSID_GLIBC_CPU_FEATURES 1
#endif

namespace sysid::estimate {

namespace {

// Rows buffered before they are added (1024 rows x 200 columns: 1.6 MB, in the second-level cache).
constexpr Eigen::Index kBlockRows = 1024;
// Rows per pass of the kernel below: 128 rows of 200 columns (200 kB) stay in cache across its
// passes over the column tiles.
constexpr Eigen::Index kKernelRows = 128;

// Vectors of the width each instruction set holds in a register: a wider one in a narrower set is
// split by the compiler through memory (the SSE2 kernel with 4-wide vectors took 10 times as long).
using Packet2 = double __attribute__((vector_size(16)));
using Packet4 = double __attribute__((vector_size(32)));
using Packet8 = double __attribute__((vector_size(64)));

// The baseline (SSE2, no FMA): each product rounded, then added. A processor without FMA gives the
// fused kernels' sums to rounding, not bit for bit.
namespace baseline {
inline Packet2 madd(Packet2 x, double y, Packet2 a) { return a + x * y; }
inline double fusedOrNot(double x, double y, double a) { return a + x * y; }
#include "engine/estimate/LowerGramKernel.inc"
}  // namespace baseline

void lowerGramBaseline(const double* b, Eigen::Index k, Eigen::Index p, Eigen::Index ldb, double* c, Eigen::Index ldc)
{
    baseline::lowerGram<Packet2, 2, 2, 6>(b, k, p, ldb, c, ldc);
}

#if defined(__GNUC__) && defined(__x86_64__)
// J'J of 200 064 x 200 in blocks of 128 rows, one core: the baseline kernel 0.66 s; AVX2 0.30 s
// without FMA, 0.26 s with it; AVX-512 0.22 s without FMA in 16 x 6 tiles, 0.17 s with it, 0.125 s in
// 16 x 8 tiles (the tile shapes measured are in docs/DECISIONS.md).
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
namespace avx2 {
inline Packet4 madd(Packet4 x, double y, Packet4 a)
{
    return reinterpret_cast<Packet4>(
        _mm256_fmadd_pd(reinterpret_cast<__m256d>(x), _mm256_set1_pd(y), reinterpret_cast<__m256d>(a)));
}
inline double fusedOrNot(double x, double y, double a) { return std::fma(x, y, a); }
#include "engine/estimate/LowerGramKernel.inc"
}  // namespace avx2

void lowerGramAvx2(const double* b, Eigen::Index k, Eigen::Index p, Eigen::Index ldb, double* c, Eigen::Index ldc)
{
    avx2::lowerGram<Packet4, 4, 2, 6>(b, k, p, ldb, c, ldc);
}
#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx512f,fma"))), apply_to = function)
#else
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f,fma")
#endif
namespace avx512 {
inline Packet8 madd(Packet8 x, double y, Packet8 a)
{
    return reinterpret_cast<Packet8>(
        _mm512_fmadd_pd(reinterpret_cast<__m512d>(x), _mm512_set1_pd(y), reinterpret_cast<__m512d>(a)));
}
// The 4-wide tile at the end of a column and the single entries: AVX2's, which AVX-512 includes.
using avx2::fusedOrNot;
using avx2::madd;
#include "engine/estimate/LowerGramKernel.inc"
}  // namespace avx512

void lowerGramAvx512(const double* b, Eigen::Index k, Eigen::Index p, Eigen::Index ldb, double* c, Eigen::Index ldc)
{
    avx512::lowerGram<Packet8, 8, 2, 8>(b, k, p, ldb, c, ldc);
}
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

// glibc's record of the processor (read once by the dynamic loader, "active" meaning the processor
// and the kernel both support it) where the compiler can read it, not __builtin_cpu_supports: that
// links libgcc's own detector, whose constructor runs cpuid at every start of every program, about
// 0.2 ms in a virtual machine. Other x86-64 builds (clang's, for the sanitizers) use the builtin.
GramInstructions fastest()
{
#if defined(SYSID_GLIBC_CPU_FEATURES)
    if (CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(FMA))
        return GramInstructions::Avx512;
    if (CPU_FEATURE_ACTIVE(AVX2) && CPU_FEATURE_ACTIVE(FMA))
        return GramInstructions::Avx2;
#elif defined(__GNUC__) && defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"))
        return GramInstructions::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return GramInstructions::Avx2;
#endif
    return GramInstructions::Baseline;
}

// The kernel the accumulator uses: the fastest, unless SYSID_GRAM_KERNEL names one (kGramInstructions),
// a benchmarking aid to time the narrower kernels on a wider processor. The baseline kernel's sums
// differ from the others' by rounding (no FMA).
GramInstructions chosen()
{
    const char* value = std::getenv("SYSID_GRAM_KERNEL");
    if (!value || !*value)
        return fastest();
    const std::string name(value);
    const auto wanted = kGramInstructions.parse(name);
    if (!wanted)
        throw std::invalid_argument("SYSID_GRAM_KERNEL=" + name + ": expected " + kGramInstructions.choiceSentence());
    if (!gramInstructionsAvailable(*wanted))
        throw std::invalid_argument("SYSID_GRAM_KERNEL=" + name + ": this processor lacks these instructions");
    return *wanted;
}

}  // namespace

bool gramInstructionsAvailable(GramInstructions instructions)
{
    static const GramInstructions best = fastest();
    return static_cast<int>(instructions) <= static_cast<int>(best);
}

void addLowerGram(GramInstructions instructions, const double* b, Eigen::Index k, Eigen::Index p, Eigen::Index ldb,
                  double* c, Eigen::Index ldc)
{
    if (!gramInstructionsAvailable(instructions))
        throw std::logic_error("addLowerGram: the processor lacks these instructions");
    switch (instructions) {
#if defined(__GNUC__) && defined(__x86_64__)
    case GramInstructions::Avx512: lowerGramAvx512(b, k, p, ldb, c, ldc); return;
    case GramInstructions::Avx2: lowerGramAvx2(b, k, p, ldb, c, ldc); return;
#endif
    default: lowerGramBaseline(b, k, p, ldb, c, ldc);
    }
}

void NormalEquationsAccumulator::reset(Eigen::Index parameters)
{
    matrix_.setZero(parameters, parameters);
    gradient_.setZero(parameters);
    rows_ = 0;
    used_ = 0;
    columns_.clear();
}

void NormalEquationsAccumulator::beginExperiment(const std::vector<std::size_t>& columns)
{
    columns_ = columns;
    const auto k = static_cast<Eigen::Index>(columns_.size());
    local_.setZero(k, k);
    localGradient_.setZero(k);
    if (block_.cols() != k)
        block_.resize(0, k);
    used_ = 0;
}

void NormalEquationsAccumulator::addRows(const Eigen::MatrixXd& source, const std::vector<Eigen::Index>& sourceRows,
                                         const std::vector<double>& factors, const double* residuals)
{
    const auto k = static_cast<Eigen::Index>(columns_.size());
    if (source.cols() != k || factors.size() != sourceRows.size())
        throw std::logic_error("NormalEquationsAccumulator::addRows: the rows do not match the experiment's columns");
    const auto count = static_cast<Eigen::Index>(sourceRows.size());
    rows_ += sourceRows.size();
    if (k == 0)
        return;
    if (used_ + count > block_.rows())
        flush();
    // Grown only when empty: resizing drops what it holds.
    if (block_.rows() < std::max(kBlockRows, count)) {
        block_.resize(std::max(kBlockRows, count), k);
        blockResiduals_.resize(block_.rows());
    }
    for (Eigen::Index i = 0; i < count; ++i) {
        const double factor = factors[static_cast<std::size_t>(i)];
        const Eigen::Index from = sourceRows[static_cast<std::size_t>(i)];
        double* to = block_.row(used_ + i).data();
        for (Eigen::Index c = 0; c < k; ++c)
            to[c] = factor * source(from, c);
    }
    std::copy(residuals, residuals + count, blockResiduals_.data() + used_);
    used_ += count;
}

void NormalEquationsAccumulator::flush()
{
    if (used_ == 0)
        return;
    static const GramInstructions instructions = chosen();
    const auto rows = block_.topRows(used_);
    for (Eigen::Index r = 0; r < used_; r += kKernelRows)
        addLowerGram(instructions, block_.row(r).data(), std::min(kKernelRows, used_ - r), block_.cols(), block_.cols(),
                     local_.data(), local_.rows());
    localGradient_.noalias() += rows.transpose() * blockResiduals_.head(used_);
    used_ = 0;
}

void NormalEquationsAccumulator::endExperiment()
{
    flush();
    const auto k = static_cast<Eigen::Index>(columns_.size());
    for (Eigen::Index b = 0; b < k; ++b) {
        const auto cb = static_cast<Eigen::Index>(columns_[static_cast<std::size_t>(b)]);
        gradient_(cb) += localGradient_(b);
        for (Eigen::Index a = b; a < k; ++a) {
            const auto ca = static_cast<Eigen::Index>(columns_[static_cast<std::size_t>(a)]);
            matrix_(ca, cb) += local_(a, b);
            if (ca != cb)
                matrix_(cb, ca) += local_(a, b);
        }
    }
    columns_.clear();
}

}  // namespace sysid::estimate
