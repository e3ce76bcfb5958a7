#include "engine/integrate/SensitivitySystem.h"

#include <algorithm>
#include <stdexcept>

namespace sysid::integrate {

SensitivitySystem::SensitivitySystem(OdeSystem& system, std::vector<std::size_t> parameters, bool initialStateColumns) :
    system_(system), parameters_(std::move(parameters)), initialStateColumns_(initialStateColumns),
    n_(system.dimension()), columns_((initialStateColumns ? n_ : 0) + parameters_.size()),
    columnOfParameter_(system.parameterCount(), -1), jx_(n_, n_), dfdt_(n_)
{
    const std::size_t offset = initialStateColumns ? n_ : 0;
    for (std::size_t c = 0; c < parameters_.size(); ++c) {
        if (parameters_[c] >= system.parameterCount())
            throw std::invalid_argument("sensitivity requested for a parameter that does not exist");
        columnOfParameter_[parameters_[c]] = static_cast<int>(offset + c);
    }
    if (!parameters_.empty())
        jp_.resize(static_cast<Eigen::Index>(n_), static_cast<Eigen::Index>(system.parameterCount()));
    const auto& pattern = system.parameterPattern();
    parameterEntryColumn_.resize(pattern.size());
    for (std::size_t k = 0; k < pattern.size(); ++k)
        parameterEntryColumn_[k] = columnOfParameter_[pattern.column[k]];
    kernel_ = system.sensitivityKernel();
    if (kernel_ && columns_ > 0)
        kernelFunction_ = parameters_.empty() ? &kernel_->stateOnly : &kernel_->withParameters;
}

void SensitivitySystem::initialState(const double* x0, const double* dx0dp, double* z) const
{
    std::fill(z, z + size(), 0.0);
    std::copy(x0, x0 + n_, z);
    Eigen::Map<Eigen::MatrixXd> S(z + n_, static_cast<Eigen::Index>(n_), static_cast<Eigen::Index>(columns_));
    std::size_t c = 0;
    if (initialStateColumns_)
        for (; c < n_; ++c)
            S(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(c)) = 1.0;
    if (dx0dp && !parameters_.empty()) {
        Eigen::Map<const Eigen::MatrixXd> dx0(dx0dp, static_cast<Eigen::Index>(n_),
                                              static_cast<Eigen::Index>(system_.parameterCount()));
        for (std::size_t k = 0; k < parameters_.size(); ++k)
            S.col(static_cast<Eigen::Index>(c + k)) = dx0.col(static_cast<Eigen::Index>(parameters_[k]));
    }
}

void SensitivitySystem::formRhs(double t, const double* z, double* dz)
{
    if (columns_ == 0) {
        system_.rhs(t, z, dz);
        return;
    }
    if (system_.sensitivityRhs(t, z, z + n_, columns_, columnOfParameter_.data(), !parameters_.empty(), dz, dz + n_))
        return;
    if (parameters_.empty())
        system_.rhsAndStateJacobian(t, z, dz, jx_.data());
    else
        system_.rhsAndJacobians(t, z, dz, jx_.data(), jp_.data());
    const auto n = static_cast<Eigen::Index>(n_);
    const auto m = static_cast<Eigen::Index>(columns_);
    Eigen::Map<const Eigen::MatrixXd> S(z + n_, n, m);
    Eigen::Map<Eigen::MatrixXd> dS(dz + n_, n, m);
    if (n_ <= 8) {
        // Eigen's dynamic-size product spends most of its time on setup at this size: it was
        // 15 % of a 2-state periodic orbit's run for a 2 x 2 times 2 x 2 product.
        const double* J = jx_.data();
        for (std::size_t c = 0; c < columns_; ++c) {
            const double* s = z + n_ + c * n_;
            double* d = dz + n_ + c * n_;
            for (std::size_t r = 0; r < n_; ++r) {
                double sum = 0.0;
                for (std::size_t k = 0; k < n_; ++k)
                    sum += J[k * n_ + r] * s[k];
                d[r] = sum;
            }
        }
    } else {
        dS.noalias() = jx_ * S;
    }
    if (!parameters_.empty()) {
        const std::size_t offset = initialStateColumns_ ? n_ : 0;
        for (std::size_t k = 0; k < parameters_.size(); ++k)
            dS.col(static_cast<Eigen::Index>(offset + k)) += jp_.col(static_cast<Eigen::Index>(parameters_[k]));
    }
}

void SensitivitySystem::jacobian(double t, const double* z, double* J, double* dFdt)
{
    const std::size_t N = size();
    std::fill(J, J + N * N, 0.0);
    std::fill(dFdt, dFdt + N, 0.0);
    system_.jacobian(t, z, jx_.data(), dfdt_.data());
    // Diagonal blocks are df/dx; dF/dt of the state rows is the total df/dt.
    for (std::size_t block = 0; block <= columns_; ++block)
        for (std::size_t i = 0; i < n_; ++i)
            for (std::size_t j = 0; j < n_; ++j)
                J[(block * n_ + i) * N + block * n_ + j] =
                    jx_(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    std::copy(dfdt_.begin(), dfdt_.end(), dFdt);
    if (columns_ == 0)
        return;
    const double* S = z + n_;
    // Coupling of each sensitivity block to x and t through the second derivatives.
    auto accumulate = [&](std::size_t row, std::size_t depth, double value) {
        if (depth < n_)
            J[row * N + depth] += value;
        else
            dFdt[row] += value;
    };
    system_.secondDerivatives(t, z, second_);
    for (const auto& e : second_.stateEntries)
        for (std::size_t c = 0; c < columns_; ++c)
            accumulate((c + 1) * n_ + e.row, e.depth, e.value * S[c * n_ + e.column]);
    for (const auto& e : second_.parameterEntries) {
        const int c = columnOfParameter_[e.column];
        if (c >= 0)
            accumulate((static_cast<std::size_t>(c) + 1) * n_ + e.row, e.depth, e.value);
    }
}

}  // namespace sysid::integrate
