#include "engine/estimate/NormalEquationsAccumulator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
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

// The (W H) x Q tile of C at (i0, j0) += its part of B'B, summed over the rows in registers of W doubles.
template <class Packet, int W, int H, int Q>
inline __attribute__((always_inline)) void addTile(const double* b, Eigen::Index k, Eigen::Index ldb, double* c,
                                                   Eigen::Index ldc, Eigen::Index i0, Eigen::Index j0)
{
    Packet a[H][Q] = {};
    for (Eigen::Index r = 0; r < k; ++r) {
        const double* row = b + r * ldb;
        Packet x[H];
        for (int h = 0; h < H; ++h)
            std::memcpy(&x[h], row + i0 + W * h, sizeof(Packet));
        for (int q = 0; q < Q; ++q) {
            const double y = row[j0 + q];
            for (int h = 0; h < H; ++h)
                a[h][q] += x[h] * y;
        }
    }
    for (int q = 0; q < Q; ++q)
        for (int h = 0; h < H; ++h)
            for (int l = 0; l < W; ++l)
                c[(j0 + q) * ldc + i0 + W * h + l] += a[h][q][l];
}

// addLowerGram in tiles of H W rows x Width columns (then W, 4 and single rows at the end of a
// column) whose sums stay in registers. Every entry is summed over the k rows from zero in
// row order and then added, whatever the tile and the vector width. This file is compiled with
// -ffp-contract=fast: where the instruction set has FMA (the AVX2 and AVX-512 kernels) each
// product is added by one fused multiply-add, half the arithmetic, and those kernels give the same
// bits as each other; the baseline (SSE2, no FMA) rounds each product first, so a processor without
// FMA gives the sums to rounding, not bit for bit.
// The single entries are fused by std::fma where the kernel fuses (Fused): a compiler may keep the
// loop out of line, without the kernel's instruction set (clang did), and not contract it there.
template <class Packet, int W, int H, Eigen::Index Width, bool Fused>
inline __attribute__((always_inline)) void lowerGram(const double* b, Eigen::Index k, Eigen::Index p, Eigen::Index ldb,
                                                     double* c, Eigen::Index ldc)
{
    auto entry = [&](Eigen::Index i, Eigen::Index j) {
        double sum = 0.0;
        for (Eigen::Index r = 0; r < k; ++r) {
            if constexpr (Fused)
                sum = std::fma(b[r * ldb + i], b[r * ldb + j], sum);
            else
                sum += b[r * ldb + i] * b[r * ldb + j];
        }
        c[j * ldc + i] += sum;
    };
    Eigen::Index j0 = 0;
    for (; j0 + Width <= p; j0 += Width) {
        Eigen::Index i0 = j0;
        for (; i0 + H * W <= p; i0 += H * W)
            addTile<Packet, W, H, Width>(b, k, ldb, c, ldc, i0, j0);
        for (; i0 + W <= p; i0 += W)
            addTile<Packet, W, 1, Width>(b, k, ldb, c, ldc, i0, j0);
        if constexpr (W == 8) {
            if (i0 + 4 <= p) {
                addTile<Packet4, 4, 1, Width>(b, k, ldb, c, ldc, i0, j0);
                i0 += 4;
            }
        }
        for (; i0 < p; ++i0)
            for (Eigen::Index j = j0; j < j0 + Width && j <= i0; ++j)
                entry(i0, j);
    }
    for (; j0 < p; ++j0)
        for (Eigen::Index i = j0; i < p; ++i)
            entry(i, j0);
}

void lowerGramBaseline(const double* b, Eigen::Index k, Eigen::Index p, Eigen::Index ldb, double* c, Eigen::Index ldc)
{
    lowerGram<Packet2, 2, 2, 6, false>(b, k, p, ldb, c, ldc);
}

#if defined(__GNUC__) && defined(__x86_64__)
// J'J of 200 064 x 200 in blocks of 128 rows, one core: the baseline kernel 0.66 s; AVX2 0.30 s
// without FMA, 0.26 s with it; AVX-512 0.22 s without FMA in 16 x 6 tiles, 0.17 s with it, 0.125 s in
// 16 x 8 tiles (the tile shapes measured are in docs/DECISIONS.md).
__attribute__((target("avx2,fma"))) void lowerGramAvx2(const double* b, Eigen::Index k, Eigen::Index p,
                                                       Eigen::Index ldb, double* c, Eigen::Index ldc)
{
    lowerGram<Packet4, 4, 2, 6, true>(b, k, p, ldb, c, ldc);
}

__attribute__((target("avx512f,fma"))) void lowerGramAvx512(const double* b, Eigen::Index k, Eigen::Index p,
                                                            Eigen::Index ldb, double* c, Eigen::Index ldc)
{
    lowerGram<Packet8, 8, 2, 8, true>(b, k, p, ldb, c, ldc);
}
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
