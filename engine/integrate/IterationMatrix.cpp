#include "engine/integrate/IterationMatrix.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace sysid::integrate {

namespace {

// Below this many states a dense LU is cheaper than SparseLU's symbolic bookkeeping, and above a
// quarter of the entries the pattern is too full for the sparse one to gain anything.
constexpr std::size_t denseBelow = 40;

bool useDense(const JacobianPattern& pattern)
{
    const std::size_t n = pattern.rows;
    return n < denseBelow || pattern.size() * 4 > n * n;
}

using ColumnBlock = Eigen::MatrixXd;

// solution = A^-1 rhs for the factors of `lu`, with rhs and solution stored row by row. The
// operations are those of SparseLU::solve (SparseLU.h, SparseLU_SupernodalMatrix.h: row
// permutation, supernodal L, U, column permutation), each applied to a whole row of right-hand
// sides at once: every entry sees the same arithmetic in the same order, so the result is bit
// for bit SparseLU's, without its column-major copies, its in-place permutations (a cycle
// walk per column) and its strided scalar loops. Multi-column supernodes go through the same
// dense kernels as SparseLU on a column-major copy of their rows.
void sparseSolveRows(const IterationMatrix::Lu& lu, const IterationMatrix::RowBlock& rhs,
                     IterationMatrix::RowBlock& work, IterationMatrix::RowBlock& solution, ColumnBlock& block,
                     ColumnBlock& product)
{
    const Eigen::Index n = rhs.rows();
    const auto& rowPermutation = lu.rowsPermutation().indices();
    work.resize(n, rhs.cols());
    for (Eigen::Index i = 0; i < n; ++i)
        work.row(rowPermutation(i)) = rhs.row(i);

    const auto lower = lu.matrixL();
    const auto& L = lower.m_mapL;
    using LIterator = std::remove_cvref_t<decltype(L)>::InnerIterator;
    const double* values = L.valuePtr();
    for (Eigen::Index k = 0; k <= L.nsuper(); ++k) {
        const Eigen::Index first = L.supToCol()[k];
        const Eigen::Index columns = L.supToCol()[k + 1] - first;
        if (columns == 1) {
            LIterator it(L, first);
            ++it;  // the unit diagonal
            for (; it; ++it)
                work.row(it.row()) -= work.row(first) * it.value();
            continue;
        }
        const Eigen::Index start = L.rowIndexPtr()[first];
        const Eigen::Index below = L.rowIndexPtr()[first + 1] - start - columns;
        const Eigen::Index luptr = L.colIndexPtr()[first];
        const Eigen::Index lda = L.colIndexPtr()[first + 1] - luptr;
        using Stride = Eigen::OuterStride<>;
        Eigen::Map<const ColumnBlock, 0, Stride> diagonal(values + luptr, columns, columns, Stride(lda));
        block = work.middleRows(first, columns);
        block = diagonal.triangularView<Eigen::UnitLower>().solve(block);
        work.middleRows(first, columns) = block;
        Eigen::Map<const ColumnBlock, 0, Stride> offDiagonal(values + luptr + columns, below, columns, Stride(lda));
        product.noalias() = offDiagonal * block;
        for (Eigen::Index i = 0; i < below; ++i)
            work.row(L.rowIndex()[start + columns + i]) -= product.row(i);
    }

    const auto upper = lu.matrixU();
    const auto& U = upper.m_mapU;
    using UIterator = std::remove_cvref_t<decltype(U)>::InnerIterator;
    for (Eigen::Index k = L.nsuper(); k >= 0; --k) {
        const Eigen::Index first = L.supToCol()[k];
        const Eigen::Index columns = L.supToCol()[k + 1] - first;
        const Eigen::Index luptr = L.colIndexPtr()[first];
        const Eigen::Index lda = L.colIndexPtr()[first + 1] - luptr;
        if (columns == 1) {
            work.row(first) /= values[luptr];
        } else {
            using Stride = Eigen::OuterStride<>;
            Eigen::Map<const ColumnBlock, 0, Stride> diagonal(values + luptr, columns, columns, Stride(lda));
            block = work.middleRows(first, columns);
            block = diagonal.triangularView<Eigen::Upper>().solve(block);
            work.middleRows(first, columns) = block;
        }
        for (Eigen::Index column = first; column < first + columns; ++column)
            for (UIterator it(U, column); it; ++it)
                work.row(it.index()) -= work.row(column) * it.value();
    }

    const auto& columnPermutation = lu.colsPermutation().indices();
    solution.resize(n, rhs.cols());
    for (Eigen::Index i = 0; i < n; ++i)
        solution.row(i) = work.row(columnPermutation(i));
}

}  // namespace

IterationMatrix::IterationMatrix(const JacobianPattern& pattern, std::size_t algebraic) : dense_(useDense(pattern))
{
    mass_.assign(pattern.rows, 1.0);
    std::fill(mass_.end() - static_cast<std::ptrdiff_t>(std::min(algebraic, pattern.rows)), mass_.end(), 0.0);
    const auto n = static_cast<Eigen::Index>(pattern.rows);
    std::vector<Eigen::Triplet<double>> triplets;
    for (std::size_t k = 0; k < pattern.size(); ++k)
        triplets.emplace_back(static_cast<int>(pattern.row[k]), static_cast<int>(pattern.column[k]), 1.0);
    jacobian_.resize(n, n);
    jacobian_.setFromTriplets(triplets.begin(), triplets.end());
    jacobian_.makeCompressed();
    for (Eigen::Index i = 0; i < n; ++i)
        triplets.emplace_back(static_cast<int>(i), static_cast<int>(i), 1.0);
    iteration_.resize(n, n);
    iteration_.setFromTriplets(triplets.begin(), triplets.end());
    iteration_.makeCompressed();
    for (std::size_t k = 0; k < pattern.size(); ++k) {
        const auto r = static_cast<Eigen::Index>(pattern.row[k]), c = static_cast<Eigen::Index>(pattern.column[k]);
        jacobianPosition_.push_back(&jacobian_.coeffRef(r, c) - jacobian_.valuePtr());
        iterationPosition_.push_back(&iteration_.coeffRef(r, c) - iteration_.valuePtr());
    }
    for (Eigen::Index i = 0; i < n; ++i)
        diagonalPosition_.push_back(&iteration_.coeffRef(i, i) - iteration_.valuePtr());
    std::fill(jacobian_.valuePtr(), jacobian_.valuePtr() + jacobian_.nonZeros(), 0.0);
    if (!dense_)
        sparseLu_.analyzePattern(iteration_);
}

void IterationMatrix::setJacobian(Matrix& J, const double* values) const
{
    std::fill(J.valuePtr(), J.valuePtr() + J.nonZeros(), 0.0);
    for (std::size_t k = 0; k < jacobianPosition_.size(); ++k)
        J.valuePtr()[jacobianPosition_[k]] += values[k];
}

bool IterationMatrix::factorise(const Matrix& J, double c)
{
    std::fill(iteration_.valuePtr(), iteration_.valuePtr() + iteration_.nonZeros(), 0.0);
    for (std::size_t k = 0; k < jacobianPosition_.size(); ++k)
        iteration_.valuePtr()[iterationPosition_[k]] -= c * J.valuePtr()[jacobianPosition_[k]];
    for (std::size_t i = 0; i < diagonalPosition_.size(); ++i)
        iteration_.valuePtr()[diagonalPosition_[i]] += mass_[i];
    if (!dense_) {
        sparseLu_.factorize(iteration_);
        return sparseLu_.info() == Eigen::Success;
    }
    denseMatrix_ = Eigen::MatrixXd(iteration_);
    denseLu_.compute(denseMatrix_);
    // Partial pivoting leaves an exact zero (or a non-finite value) on U's diagonal of a singular matrix.
    const auto diagonal = denseLu_.matrixLU().diagonal();
    for (Eigen::Index i = 0; i < diagonal.size(); ++i)
        if (diagonal(i) == 0.0 || !std::isfinite(diagonal(i)))
            return false;
    return true;
}

Eigen::MatrixXd IterationMatrix::solve(const Eigen::MatrixXd& rhs) const
{
    if (dense_)
        return denseLu_.solve(rhs);
    return sparseLu_.solve(rhs);
}

void IterationMatrix::solveRows(const RowBlock& rhs, RowBlock& solution)
{
    if (!dense_) {
        sparseSolveRows(sparseLu_, rhs, work_, solution, block_, product_);
        return;
    }
    columns_ = rhs;
    solution = denseLu_.solve(columns_);
}

}  // namespace sysid::integrate
