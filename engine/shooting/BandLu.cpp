#include "engine/shooting/BandLu.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::shooting {

BandLu::BandLu(std::size_t size, std::size_t lower, std::size_t upper) :
    size_(size), lower_(lower), upper_(upper), width_(2 * lower + upper + 1), data_(size * width_),
    multipliers_(size * lower), pivots_(size)
{
}

void BandLu::setZero()
{
    std::fill(data_.begin(), data_.end(), 0.0);
}

// Band Gaussian elimination with partial pivoting (Golub & Van Loan, Matrix Computations,
// 4th ed., §4.3.5; LINPACK dgbfa): the multipliers of each column are kept apart and the
// row interchanges are replayed in solve(), so L is never formed.
void BandLu::factorize()
{
    const std::size_t n = size_;
    if (!std::all_of(data_.begin(), data_.end(), [](double v) { return std::isfinite(v); }))
        throw std::runtime_error("the shooting matrix contains non-finite entries");
    if (n == 0)
        return;
    std::fill(multipliers_.begin(), multipliers_.end(), 0.0);
    auto& A = *this;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t lastRow = std::min(n - 1, k + lower_);
        const std::size_t lastColumn = std::min(n - 1, k + upper_ + lower_);
        std::size_t p = k;
        for (std::size_t i = k + 1; i <= lastRow; ++i)
            if (std::abs(A(i, k)) > std::abs(A(p, k)))
                p = i;
        pivots_[k] = p;
        if (!(std::abs(A(p, k)) > 0.0))
            throw std::runtime_error("the shooting matrix is singular (column " + std::to_string(k + 1) + " of " +
                                     std::to_string(n) + " has no nonzero pivot)");
        if (p != k)
            for (std::size_t j = k; j <= lastColumn; ++j)
                std::swap(A(k, j), A(p, j));
        const double pivot = A(k, k);
        for (std::size_t i = k + 1; i <= lastRow; ++i) {
            const double l = A(i, k) / pivot;
            multipliers_[k * lower_ + (i - k - 1)] = l;
            A(i, k) = 0.0;
            if (l != 0.0)
                for (std::size_t j = k + 1; j <= lastColumn; ++j)
                    A(i, j) -= l * A(k, j);
        }
    }
    // The same test as checkRegular() applies to dense LU factors: smallest |U_kk| against the largest.
    double smallest = std::abs(A(0, 0)), largest = smallest;
    std::size_t where = 0;
    for (std::size_t k = 1; k < n; ++k) {
        const double u = std::abs(A(k, k));
        largest = std::max(largest, u);
        if (u < smallest) {
            smallest = u;
            where = k;
        }
    }
    if (!(smallest > 1e-14 * largest))
        throw std::runtime_error("the shooting matrix is singular to working precision (pivot " +
                                 std::to_string(where + 1) + " of " + std::to_string(n) + ")");
}

Eigen::VectorXd BandLu::solve(const Eigen::VectorXd& rhs) const
{
    const std::size_t n = size_;
    Eigen::VectorXd x = rhs;
    for (std::size_t k = 0; k < n; ++k) {
        const auto p = static_cast<Eigen::Index>(pivots_[k]);
        const auto kk = static_cast<Eigen::Index>(k);
        if (p != kk)
            std::swap(x(kk), x(p));
        const std::size_t lastRow = std::min(n - 1, k + lower_);
        for (std::size_t i = k + 1; i <= lastRow; ++i)
            x(static_cast<Eigen::Index>(i)) -= multipliers_[k * lower_ + (i - k - 1)] * x(kk);
    }
    const auto& A = *this;
    for (std::size_t k = n; k-- > 0;) {
        const std::size_t lastColumn = std::min(n - 1, k + upper_ + lower_);
        double s = x(static_cast<Eigen::Index>(k));
        for (std::size_t j = k + 1; j <= lastColumn; ++j)
            s -= A(k, j) * x(static_cast<Eigen::Index>(j));
        x(static_cast<Eigen::Index>(k)) = s / A(k, k);
    }
    return x;
}

}  // namespace sysid::shooting
