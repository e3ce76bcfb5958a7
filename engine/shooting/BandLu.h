#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace sysid::shooting {

// A square band matrix with `lower` sub- and `upper` superdiagonals, factorised in place by
// Gaussian elimination with partial pivoting. Storage and work are linear in the size, so
// the multiple shooting matrix (block bidiagonal plus boundary rows) never becomes dense.
class BandLu {
public:
    BandLu() = default;
    BandLu(std::size_t size, std::size_t lower, std::size_t upper);

    std::size_t size() const { return size_; }
    std::size_t lower() const { return lower_; }
    std::size_t upper() const { return upper_; }

    void setZero();
    // Entry (i, j); |i - j| must lie within the band given to the constructor.
    double& operator()(std::size_t i, std::size_t j) { return data_[i * width_ + (j + lower_ - i)]; }
    double operator()(std::size_t i, std::size_t j) const { return data_[i * width_ + (j + lower_ - i)]; }

    // Throws std::runtime_error when the matrix is singular to working precision (smallest
    // |U_kk| below 1e-14 of the largest, as checkRegular() for dense factors).
    void factorize();
    Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const;

private:
    std::size_t size_ = 0, lower_ = 0, upper_ = 0;
    std::size_t width_ = 0;  // lower + upper + lower: the upper band grows by `lower` under pivoting
    std::vector<double> data_;  // row i holds columns i - lower ... i + upper + lower
    std::vector<double> multipliers_;  // column k: rows k + 1 ... k + lower
    std::vector<std::size_t> pivots_;
};

}  // namespace sysid::shooting
