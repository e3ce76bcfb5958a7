#pragma once

#include "engine/integrate/OdeSystem.h"

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <cstddef>

namespace sysid::integrate {

// The iteration matrix I - c df/dx of the implicit steppers (theta methods, sparse-implicit) and its
// LU factorisation, behind one interface with two linear solvers, as SUNDIALS pairs its integrators
// with pluggable dense and sparse ones: a dense partial-pivoting LU for small or dense df/dx, a
// sparse LU (pattern analysed once) for large sparse ones such as the method of lines. df/dx is
// kept as a sparse matrix with the system's pattern, refilled from its values without searching.
class IterationMatrix {
public:
    using Matrix = Eigen::SparseMatrix<double>;
    using RowBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Lu = Eigen::SparseLU<Matrix, Eigen::COLAMDOrdering<int>>;

    // `algebraic`: the last rows belong to algebraic variables, whose mass is 0 (M - c J for the
    // mass matrix M = diag(I, 0) of a semi-explicit DAE).
    explicit IterationMatrix(const JacobianPattern& pattern, std::size_t algebraic = 0);

    bool dense() const { return dense_; }
    // A matrix with the pattern of df/dx (zero values), for setJacobian().
    const Matrix& jacobianPattern() const { return jacobian_; }
    // J (with the pattern above) = df/dx from values in the pattern's order (repeated positions add).
    void setJacobian(Matrix& J, const double* values) const;
    // Factorises M - c J for J with the pattern above; false when the matrix is singular.
    bool factorise(const Matrix& J, double c);
    // (I - c J)^-1 rhs with the last factorisation: a column-major block and a row-major block.
    Eigen::MatrixXd solve(const Eigen::MatrixXd& rhs) const;
    void solveRows(const RowBlock& rhs, RowBlock& solution);

private:
    bool dense_;
    Matrix jacobian_, iteration_;
    std::vector<std::ptrdiff_t> jacobianPosition_, iterationPosition_, diagonalPosition_;
    std::vector<double> mass_;  // the diagonal of M
    Lu sparseLu_;
    Eigen::MatrixXd denseMatrix_;
    Eigen::PartialPivLU<Eigen::MatrixXd> denseLu_;
    RowBlock work_;
    Eigen::MatrixXd block_, product_, columns_;
};

}  // namespace sysid::integrate
