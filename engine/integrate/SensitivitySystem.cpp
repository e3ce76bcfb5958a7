#include "engine/integrate/SensitivitySystem.h"

#include <algorithm>

namespace sysid::integrate {

SensitivitySystem::SensitivitySystem(eval::CompiledModel& model, const InputSignals* inputs,
                                     std::vector<std::size_t> parameters, bool initialStateColumns) :
    model_(model),
    inputs_(inputs), parameters_(std::move(parameters)), initialStateColumns_(initialStateColumns),
    n_(model.stateCount()), columns_((initialStateColumns ? model.stateCount() : 0) + parameters_.size()),
    columnOfParameter_(model.parameterCount(), -1), u_(model.inputCount(), 0.0), du_(model.inputCount(), 0.0),
    jx_(n_, n_), jp_(n_, model.parameterCount()), jtu_(n_, 1 + model.inputCount())
{
    const std::size_t offset = initialStateColumns ? n_ : 0;
    for (std::size_t c = 0; c < parameters_.size(); ++c)
        columnOfParameter_.at(parameters_[c]) = static_cast<int>(offset + c);
}

void SensitivitySystem::holdInputsOnSegment(double start, double end)
{
    if (!inputs_)
        return;
    heldAt_ = 0.5 * (start + end);
    heldValue_.resize(inputs_->size());
    heldSlope_.resize(inputs_->size());
    inputs_->values(heldAt_, heldValue_.data());
    inputs_->slopes(heldAt_, heldSlope_.data());
    inputsHeld_ = true;
}

std::vector<double> SensitivitySystem::inputBreakpoints(double t0, double tEnd) const
{
    std::vector<double> breakpoints;
    if (!inputs_)
        return breakpoints;
    // Kinks within rounding of an end or of each other would make segments of a few ulps,
    // shorter than any step an integrator can take: they are merged away.
    const double rounding = 1e-12 * std::max({1.0, std::abs(t0), std::abs(tEnd)});
    std::vector<double> all;
    for (std::size_t i = 0; i < inputs_->size(); ++i)
        for (double t : inputs_->signal(i).time())
            if (t > t0 + rounding && t < tEnd - rounding)
                all.push_back(t);
    std::sort(all.begin(), all.end());
    for (double t : all)
        if (breakpoints.empty() || t - breakpoints.back() > rounding)
            breakpoints.push_back(t);
    return breakpoints;
}

void SensitivitySystem::inputValues(double t, double* u, double* du) const
{
    if (!inputs_)
        return;
    if (inputsHeld_) {
        for (std::size_t i = 0; i < heldValue_.size(); ++i) {
            u[i] = heldValue_[i] + heldSlope_[i] * (t - heldAt_);
            if (du)
                du[i] = heldSlope_[i];
        }
        return;
    }
    inputs_->values(t, u);
    if (du)
        inputs_->slopes(t, du);
}

void SensitivitySystem::setPointFor(double t, const double* x)
{
    inputValues(t, u_.data(), nullptr);
    model_.setPoint(t, x, u_.data());
}

void SensitivitySystem::initialState(const double* x0, bool x0FromModel, double* z) const
{
    std::fill(z, z + size(), 0.0);
    std::copy(x0, x0 + n_, z);
    Eigen::Map<Eigen::MatrixXd> S(z + n_, static_cast<Eigen::Index>(n_), static_cast<Eigen::Index>(columns_));
    std::size_t c = 0;
    if (initialStateColumns_)
        for (; c < n_; ++c)
            S(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(c)) = 1.0;
    if (x0FromModel && !parameters_.empty()) {
        Eigen::MatrixXd dx0(n_, model_.parameterCount());
        model_.initialStateJacobian(dx0.data());
        for (std::size_t k = 0; k < parameters_.size(); ++k)
            S.col(static_cast<Eigen::Index>(c + k)) = dx0.col(static_cast<Eigen::Index>(parameters_[k]));
    }
}

void SensitivitySystem::rhs(double t, const double* z, double* dz)
{
    setPointFor(t, z);
    if (columns_ == 0) {
        model_.rhs(dz);
        return;
    }
    if (parameters_.empty())
        model_.rhsAndStateJacobian(dz, jx_.data());
    else
        model_.rhsAndJacobians(dz, jx_.data(), jp_.data());
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
    inputValues(t, u_.data(), du_.data());
    model_.setPoint(t, z, u_.data());
    model_.stateJacobian(jx_.data());
    model_.timeInputJacobian(jtu_.data());
    const std::size_t nu = u_.size();
    // Diagonal blocks are df/dx; dF/dt of the state rows is f_t + f_u u'.
    for (std::size_t block = 0; block <= columns_; ++block)
        for (std::size_t i = 0; i < n_; ++i)
            for (std::size_t j = 0; j < n_; ++j)
                J[(block * n_ + i) * N + block * n_ + j] =
                    jx_(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    for (std::size_t i = 0; i < n_; ++i) {
        double v = jtu_(static_cast<Eigen::Index>(i), 0);
        for (std::size_t r = 0; r < nu; ++r)
            v += jtu_(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(1 + r)) * du_[r];
        dFdt[i] = v;
    }
    if (columns_ == 0)
        return;
    const double* S = z + n_;
    // Coupling of each sensitivity block to x, t and u through the second derivatives.
    auto accumulate = [&](std::size_t row, std::size_t depth, double value) {
        if (depth < n_)
            J[row * N + depth] += value;
        else if (depth == n_)
            dFdt[row] += value;
        else
            dFdt[row] += value * du_[depth - n_ - 1];
    };
    const auto& hessian = model_.source().rhsStateHessian.entries;
    hessian_.resize(hessian.size());
    model_.stateHessianValues(hessian_.data());
    for (std::size_t e = 0; e < hessian.size(); ++e)
        for (std::size_t c = 0; c < columns_; ++c)
            accumulate((c + 1) * n_ + hessian[e].row, hessian[e].depth, hessian_[e] * S[c * n_ + hessian[e].column]);
    const auto& mixed = model_.source().rhsMixedHessian.entries;
    mixed_.resize(mixed.size());
    model_.mixedHessianValues(mixed_.data());
    for (std::size_t e = 0; e < mixed.size(); ++e) {
        const int c = columnOfParameter_[mixed[e].column];
        if (c >= 0)
            accumulate((static_cast<std::size_t>(c) + 1) * n_ + mixed[e].row, mixed[e].depth, mixed_[e]);
    }
}

}  // namespace sysid::integrate
