#pragma once

#include "engine/core/EnumTable.h"

#include <Eigen/Dense>

#include <array>
#include <cstddef>
#include <vector>

namespace sysid::estimate {

// The instruction sets the kernel of the sums is compiled for; the accumulator uses the widest the
// processor has, or the one the environment variable SYSID_GRAM_KERNEL names (kGramInstructions: a
// benchmarking aid). The two with fused multiply-adds give the same bits as each other; the
// baseline, without them, the same sums to rounding.
enum class GramInstructions { Baseline, Avx2, Avx512 };
inline constexpr core::EnumTable kGramInstructions{
    "J'J kernel", std::to_array<core::EnumSpelling<GramInstructions>>({
                      {GramInstructions::Baseline, "sse2", "the baseline x86-64 vectors, two doubles wide"},
                      {GramInstructions::Avx2, "avx2", "AVX2 vectors with FMA, four doubles wide"},
                      {GramInstructions::Avx512, "avx512", "AVX-512 vectors with FMA, eight doubles wide"},
                  })};
bool gramInstructionsAvailable(GramInstructions instructions);
// The lower triangle of C (p x p, column-major, leading dimension ldc) += B'B for B of k rows and p
// columns stored by rows (row r at b + r * ldb).
void addLowerGram(GramInstructions instructions, const double* b, Eigen::Index k, Eigen::Index p, Eigen::Index ldb,
                  double* c, Eigen::Index ldc);

// J'J and J'r of a least-squares problem summed block by block as its rows are produced, without
// the Jacobian: a fit of 200 outputs at 1000 samples to 200 parameters would otherwise hold a
// 200 000 x 200 Jacobian (320 MB) and the per-sample sensitivities it is copied from (320 MB more).
// Rows are gathered into a buffer of a thousand and added by addLowerGram (one triangle, as
// estimate::normalMatrix does for a whole Jacobian).
class NormalEquationsAccumulator {
public:
    // Zero sums over `parameters` unknowns.
    void reset(Eigen::Index parameters);
    // The rows that follow belong to an experiment whose Jacobian columns are `columns` (its unknowns
    // among all); the others are zero in those rows.
    void beginExperiment(const std::vector<std::size_t>& columns);
    // Appends rows factor_i * source.row(sourceRow_i) (source: rows x the experiment's columns) with
    // residuals residual_i.
    void addRows(const Eigen::MatrixXd& source, const std::vector<Eigen::Index>& sourceRows,
                 const std::vector<double>& factors, const double* residuals);
    // Adds the experiment's sums to the totals.
    void endExperiment();

    const Eigen::MatrixXd& matrix() const { return matrix_; }  // J'J, both triangles
    const Eigen::VectorXd& gradient() const { return gradient_; }  // J'r
    std::size_t rows() const { return rows_; }

private:
    void flush();

    Eigen::MatrixXd matrix_, local_;
    Eigen::VectorXd gradient_, localGradient_;
    // Buffered rows x the experiment's columns, by rows: each row of J contiguous for the kernel.
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> block_;
    Eigen::VectorXd blockResiduals_;
    Eigen::Index used_ = 0;
    std::vector<std::size_t> columns_;
    std::size_t rows_ = 0;
};

}  // namespace sysid::estimate
