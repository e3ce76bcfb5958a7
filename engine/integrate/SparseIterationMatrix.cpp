#include "engine/integrate/SparseIterationMatrix.h"

#include <algorithm>

namespace sysid::integrate {

SparseIterationMatrix::SparseIterationMatrix(const eval::CompiledModelSource& source)
{
    const auto n = static_cast<Eigen::Index>(source.stateCount());
    const auto& entries = source.rhsStateJacobian.entries;
    std::vector<Eigen::Triplet<double>> triplets;
    for (const auto& e : entries)
        triplets.emplace_back(static_cast<int>(e.row), static_cast<int>(e.column), 1.0);
    jacobian_.resize(n, n);
    jacobian_.setFromTriplets(triplets.begin(), triplets.end());
    jacobian_.makeCompressed();
    for (Eigen::Index i = 0; i < n; ++i)
        triplets.emplace_back(static_cast<int>(i), static_cast<int>(i), 1.0);
    iteration_.resize(n, n);
    iteration_.setFromTriplets(triplets.begin(), triplets.end());
    iteration_.makeCompressed();
    for (const auto& e : entries) {
        const auto r = static_cast<Eigen::Index>(e.row), c = static_cast<Eigen::Index>(e.column);
        jacobianPosition_.push_back(&jacobian_.coeffRef(r, c) - jacobian_.valuePtr());
        iterationPosition_.push_back(&iteration_.coeffRef(r, c) - iteration_.valuePtr());
    }
    for (Eigen::Index i = 0; i < n; ++i)
        diagonalPosition_.push_back(&iteration_.coeffRef(i, i) - iteration_.valuePtr());
    std::fill(jacobian_.valuePtr(), jacobian_.valuePtr() + jacobian_.nonZeros(), 0.0);
    lu_.analyzePattern(iteration_);
}

void SparseIterationMatrix::setJacobian(Matrix& J, const std::vector<double>& values) const
{
    std::fill(J.valuePtr(), J.valuePtr() + J.nonZeros(), 0.0);
    for (std::size_t k = 0; k < values.size(); ++k)
        J.valuePtr()[jacobianPosition_[k]] += values[k];
}

bool SparseIterationMatrix::factorise(const Matrix& J, double c)
{
    std::fill(iteration_.valuePtr(), iteration_.valuePtr() + iteration_.nonZeros(), 0.0);
    for (std::size_t k = 0; k < jacobianPosition_.size(); ++k)
        iteration_.valuePtr()[iterationPosition_[k]] -= c * J.valuePtr()[jacobianPosition_[k]];
    for (auto p : diagonalPosition_)
        iteration_.valuePtr()[p] += 1.0;
    lu_.factorize(iteration_);
    return lu_.info() == Eigen::Success;
}

}  // namespace sysid::integrate
