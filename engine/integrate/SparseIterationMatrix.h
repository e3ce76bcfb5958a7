#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <cstddef>
#include <vector>

namespace sysid::integrate {

// The sparsity of df/dx (from the model's nonzero entries) and of the implicit steppers'
// iteration matrix I - c df/dx, with where each entry's value goes, so both are refilled from
// CompiledModel's Jacobian values at every step without searching, and the pattern is
// analysed for the sparse LU once. Used by sparse-implicit (Rosenbrock) and the theta methods.
class SparseIterationMatrix {
public:
    using Matrix = Eigen::SparseMatrix<double>;
    using Lu = Eigen::SparseLU<Matrix, Eigen::COLAMDOrdering<int>>;

    explicit SparseIterationMatrix(const eval::CompiledModelSource& source);

    // A matrix with the pattern of df/dx (zero values), for setJacobian().
    const Matrix& jacobianPattern() const { return jacobian_; }
    // J (with the pattern above) = df/dx from the values in source().rhsStateJacobian order.
    void setJacobian(Matrix& J, const std::vector<double>& values) const;
    // Factorises I - c J for J with the pattern above; false when the matrix is singular.
    bool factorise(const Matrix& J, double c);
    const Lu& lu() const { return lu_; }

private:
    Matrix jacobian_, iteration_;
    std::vector<std::ptrdiff_t> jacobianPosition_, iterationPosition_, diagonalPosition_;
    Lu lu_;
};

}  // namespace sysid::integrate
