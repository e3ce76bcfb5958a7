#include "engine/discretise/DiscretisedPeriodicSystem.h"

#include "engine/core/SolverStatistics.h"
#include "engine/integrate/Simulator.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sysid::discretise {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

DiscretisedPeriodicSystem::DiscretisedPeriodicSystem(eval::CompiledModel& model, PeriodicScheme scheme,
                                                     std::size_t nodes, double startTime, double period,
                                                     std::optional<Anchor> anchor,
                                                     const integrate::InputSignals* inputs) :
    model_(model),
    inputs_(inputs), scheme_(scheme), M_(nodes), t0_(startTime), fixedPeriod_(period), anchor_(std::move(anchor)),
    n_(model.stateCount()), roles_(n_)
{
    // Only the central-difference scheme needs the pairs: on first-order form it would split into
    // two decoupled odd/even grids, while z'' = (z- - 2z + z+)/d^2 couples neighbours directly.
    // The velocity is eliminated through z' = (z+ - z-)/2d rather than kept as an unknown with that
    // relation as an equation: the same discrete solution (seed 000 eq. 3.8-3.9), half the unknowns.
    std::vector<std::optional<std::size_t>> velocityOfState(n_);
    if (scheme_ == PeriodicScheme::CentralDifference) {
        for (const auto& pair : findSecondOrderPairs(model.source())) {
            roles_[pair.velocity].eliminated = true;
            velocityOfState[pair.position] = pair.velocity;
        }
    }
    for (std::size_t s = 0; s < n_; ++s) {
        if (roles_[s].eliminated)
            continue;
        roles_[s].column = freeStates_.size();
        freeStates_.push_back(s);
        velocityOf_.push_back(velocityOfState[s]);
    }
    for (std::size_t s = 0; s < n_; ++s)
        if (roles_[s].eliminated)
            for (std::size_t c = 0; c < freeStates_.size(); ++c)
                if (velocityOf_[c] == s)
                    roles_[s].column = c;
}

std::size_t DiscretisedPeriodicSystem::unknownCount() const
{
    return M_ * freeStates_.size() + (anchor_ ? 1 : 0);
}

std::size_t DiscretisedPeriodicSystem::wrap(std::size_t j, int offset) const
{
    const auto shifted = static_cast<long long>(j + M_) + offset;  // offset is -1, 0 or +1
    return static_cast<std::size_t>(shifted) % M_;
}

// Nodes are stored folded, 0, M-1, 1, M-2, ..., so the periodic wrap lies inside a band of twice
// the width instead of in the corners: LU with the natural ordering then fills only inside the band
// and costs O(M).
Index DiscretisedPeriodicSystem::col(std::size_t node, std::size_t column) const
{
    const std::size_t half = (M_ + 1) / 2;
    const std::size_t position = node < half ? 2 * node : 2 * (M_ - 1 - node) + 1;
    return static_cast<Index>(position * freeStates_.size() + column);
}

double DiscretisedPeriodicSystem::period(const VectorXd& X) const
{
    return anchor_ ? X(X.size() - 1) : fixedPeriod_;
}

double DiscretisedPeriodicSystem::stepOf(const VectorXd& X) const
{
    const double P = period(X);
    if (!(P > 0.0) || !std::isfinite(P))
        throw std::runtime_error("the period became " + std::to_string(P));
    return P / static_cast<double>(M_);
}

VectorXd DiscretisedPeriodicSystem::pack(const MatrixXd& nodeStates, double period) const
{
    VectorXd X(static_cast<Index>(unknownCount()));
    for (std::size_t j = 0; j < M_; ++j)
        for (std::size_t c = 0; c < freeStates_.size(); ++c)
            X(col(j, c)) = nodeStates(static_cast<Index>(j), static_cast<Index>(freeStates_[c]));
    if (anchor_)
        X(X.size() - 1) = period;
    return X;
}

VectorXd DiscretisedPeriodicSystem::fullState(const VectorXd& X, std::size_t j, double h) const
{
    VectorXd x(static_cast<Index>(n_));
    for (std::size_t s = 0; s < n_; ++s) {
        const auto c = roles_[s].column;
        x(static_cast<Index>(s)) =
            roles_[s].eliminated ? (X(col(wrap(j, 1), c)) - X(col(wrap(j, -1), c))) / (2.0 * h) : X(col(j, c));
    }
    return x;
}

MatrixXd DiscretisedPeriodicSystem::nodeStates(const VectorXd& X) const
{
    const double h = stepOf(X);
    MatrixXd states(static_cast<Index>(M_), static_cast<Index>(n_));
    for (std::size_t j = 0; j < M_; ++j)
        states.row(static_cast<Index>(j)) = fullState(X, j, h).transpose();
    return states;
}

DiscretisedPeriodicSystem::Entries DiscretisedPeriodicSystem::stateEntries(std::size_t j, std::size_t state,
                                                                           double h) const
{
    const auto c = roles_[state].column;
    if (!roles_[state].eliminated)
        return {{col(j, c), 1.0}};
    return {{col(wrap(j, 1), c), 1.0 / (2.0 * h)}, {col(wrap(j, -1), c), -1.0 / (2.0 * h)}};
}

double DiscretisedPeriodicSystem::stateStepDerivative(const NodeValues& node, std::size_t state, double h) const
{
    return roles_[state].eliminated ? -node.x(static_cast<Index>(state)) / h : 0.0;
}

DiscretisedPeriodicSystem::NodeValues DiscretisedPeriodicSystem::evaluateAt(double t, const VectorXd& x,
                                                                            bool withJacobian)
{
    NodeValues v;
    v.t = t;
    v.x = x;
    v.f.resize(static_cast<Index>(n_));
    integrate::setModelPoint(model_, t, x.data(), inputs_);
    model_.rhs(v.f.data());
    if (withJacobian) {
        v.J.resize(static_cast<Index>(n_), static_cast<Index>(n_));
        model_.stateJacobian(v.J.data());
        VectorXd timeInput(static_cast<Index>(n_ * (1 + model_.inputCount())));
        model_.timeInputJacobian(timeInput.data());
        v.ft = timeInput.head(static_cast<Index>(n_));  // column 0 is d/dt
    }
    return v;
}

void DiscretisedPeriodicSystem::evaluate(const VectorXd& X, bool withJacobian)
{
    const double h = stepOf(X);
    nodes_.resize(M_);
    for (std::size_t j = 0; j < M_; ++j)
        nodes_[j] = evaluateAt(t0_ + static_cast<double>(j) * h, fullState(X, j, h), withJacobian);
    if (scheme_ != PeriodicScheme::HermiteSimpson)
        return;
    midpoints_.resize(M_);
    for (std::size_t j = 0; j < M_; ++j) {
        const auto& a = nodes_[j];
        const auto& b = nodes_[wrap(j, 1)];
        midpoints_[j] = evaluateAt(a.t + 0.5 * h, 0.5 * (a.x + b.x) + h / 8.0 * (a.f - b.f), withJacobian);
    }
}

VectorXd DiscretisedPeriodicSystem::assembleResidual(const VectorXd& X) const
{
    const double h = stepOf(X);
    VectorXd F(static_cast<Index>(unknownCount()));
    for (std::size_t j = 0; j < M_; ++j) {
        const auto& a = nodes_[j];
        const auto& b = nodes_[wrap(j, 1)];
        if (scheme_ == PeriodicScheme::HermiteSimpson) {
            // Hermite-Simpson in compressed form, fourth order (Betts, Practical Methods for Optimal Control
            // Using Nonlinear Programming, 2nd ed.); it is the 3-stage Lobatto IIIA method (Hairer-Wanner II).
            F.segment(col(j, 0), static_cast<Index>(n_)) = b.x - a.x - h / 6.0 * (a.f + 4.0 * midpoints_[j].f + b.f);
            continue;
        }
        for (std::size_t c = 0; c < freeStates_.size(); ++c) {
            const auto s = static_cast<Index>(freeStates_[c]);
            if (velocityOf_[c]) {
                // Seed 000 eq. 3.9 times d^2: q- - 2q + q+ = h^2 q''(t_j).
                F(col(j, c)) = X(col(wrap(j, -1), c)) - 2.0 * X(col(j, c)) + X(col(wrap(j, 1), c)) -
                    h * h * a.f(static_cast<Index>(*velocityOf_[c]));
            } else {
                // Trapezoidal rule, second order (Ascher & Petzold, Computer Methods for ODEs and DAEs, 1998).
                F(col(j, c)) = b.x(s) - a.x(s) - 0.5 * h * (a.f(s) + b.f(s));
            }
        }
    }
    if (anchor_)
        F(F.size() - 1) = anchor_->direction.dot(nodes_[0].x - anchor_->point);
    return F;
}

VectorXd DiscretisedPeriodicSystem::residual(const VectorXd& X)
{
    evaluate(X, false);
    return assembleResidual(X);
}

void DiscretisedPeriodicSystem::assembleJacobian(const VectorXd& X, std::vector<Eigen::Triplet<double>>& triplets) const
{
    const double h = stepOf(X);
    const double dhdP = 1.0 / static_cast<double>(M_);
    const auto P = static_cast<Index>(unknownCount()) - 1;  // column of the period, when unknown
    const auto n = static_cast<Index>(n_);
    auto add = [&](Index row, Index column, double value) { triplets.emplace_back(row, column, value); };
    // d(row)/dX from sum_k weight_k · x_j[k], expanded through the eliminated velocities.
    auto addState = [&](Index row, std::size_t j, const Eigen::Ref<const VectorXd>& weight) {
        for (std::size_t k = 0; k < n_; ++k)
            for (const auto& [column, d] : stateEntries(j, k, h))
                add(row, column, weight(static_cast<Index>(k)) * d);
    };
    auto stepDerivative = [&](const NodeValues& node, const Eigen::Ref<const VectorXd>& weight) {
        double sum = 0.0;
        for (std::size_t k = 0; k < n_; ++k)
            sum += weight(static_cast<Index>(k)) * stateStepDerivative(node, k, h);
        return sum;
    };

    for (std::size_t j = 0; j < M_; ++j) {
        const std::size_t jp = wrap(j, 1);
        const auto& a = nodes_[j];
        const auto& b = nodes_[jp];
        // Node jp is evaluated at its own time t0 + jp·h (the wrap at t0, as in the residual).
        const double ja = static_cast<double>(j), jb = static_cast<double>(jp);
        if (scheme_ == PeriodicScheme::HermiteSimpson) {
            const auto& m = midpoints_[j];
            const MatrixXd I = MatrixXd::Identity(n, n);
            const MatrixXd A = -I - h / 6.0 * (a.J + 4.0 * m.J * (0.5 * I + h / 8.0 * a.J));
            const MatrixXd B = I - h / 6.0 * (b.J + 4.0 * m.J * (0.5 * I - h / 8.0 * b.J));
            for (Index r = 0; r < n; ++r)
                for (Index k = 0; k < n; ++k) {
                    add(col(j, 0) + r, col(j, 0) + k, A(r, k));
                    add(col(j, 0) + r, col(jp, 0) + k, B(r, k));
                }
            if (anchor_) {
                const VectorXd S = a.f + 4.0 * m.f + b.f;
                const VectorXd dxm = (a.f - b.f) / 8.0 + h / 8.0 * (a.ft * ja - b.ft * jb);
                const VectorXd dS = a.ft * ja + b.ft * jb + 4.0 * (m.ft * (ja + 0.5) + m.J * dxm);
                const VectorXd dR = -S / 6.0 - h / 6.0 * dS;
                for (Index r = 0; r < n; ++r)
                    add(col(j, 0) + r, P, dR(r) * dhdP);
            }
            continue;
        }
        for (std::size_t c = 0; c < freeStates_.size(); ++c) {
            const Index row = col(j, c);
            if (velocityOf_[c]) {
                const auto v = static_cast<Index>(*velocityOf_[c]);
                add(row, col(wrap(j, -1), c), 1.0);
                add(row, col(j, c), -2.0);
                add(row, col(jp, c), 1.0);
                addState(row, j, -h * h * a.J.row(v).transpose());
                if (anchor_) {
                    const double dR =
                        -2.0 * h * a.f(v) - h * h * (stepDerivative(a, a.J.row(v).transpose()) + a.ft(v) * ja);
                    add(row, P, dR * dhdP);
                }
            } else {
                const auto s = static_cast<Index>(freeStates_[c]);
                add(row, col(jp, c), 1.0);
                add(row, col(j, c), -1.0);
                addState(row, j, -0.5 * h * a.J.row(s).transpose());
                addState(row, jp, -0.5 * h * b.J.row(s).transpose());
                if (anchor_) {
                    const double dR = -0.5 * (a.f(s) + b.f(s)) -
                        0.5 * h *
                            (stepDerivative(a, a.J.row(s).transpose()) + a.ft(s) * ja +
                             stepDerivative(b, b.J.row(s).transpose()) + b.ft(s) * jb);
                    add(row, P, dR * dhdP);
                }
            }
        }
    }
    if (anchor_) {
        addState(P, 0, anchor_->direction);
        add(P, P, stepDerivative(nodes_[0], anchor_->direction) * dhdP);
    }
}

void DiscretisedPeriodicSystem::linearise(const VectorXd& X)
{
    jacobianFormed_ = false;
    evaluate(X, true);
    triplets_.clear();  // keeps its capacity: no fresh pages per iteration
    assembleJacobian(X, triplets_);
    const auto size = static_cast<Index>(unknownCount());
    // Explicit zeros are kept, so the pattern is the same at every X and is analysed once.
    jacobian_.resize(size, size);
    jacobian_.setFromTriplets(triplets_.begin(), triplets_.end());
    if (!Eigen::Map<const VectorXd>(jacobian_.valuePtr(), jacobian_.nonZeros()).allFinite())
        throw std::runtime_error("the discretised Jacobian is not finite");
    jacobianFormed_ = true;
    {
        core::PhaseTimer timer(core::Phase::LinearAlgebra);
        if (!analysed_) {
            lu_.analyzePattern(jacobian_);
            analysed_ = true;
        }
        lu_.factorize(jacobian_);
    }
    if (lu_.info() != Eigen::Success)
        throw std::runtime_error("the discretised Jacobian is singular (" + lu_.lastErrorMessage() + ")");
    // A lower bound on cond(J) from one solve with a fixed right-hand side (Golub & Van Loan,
    // Matrix Computations, 4th ed., §3.5.4): LU does not flag a pivot that is only tiny.
    VectorXd probe(size);
    for (Index i = 0; i < size; ++i)
        probe(i) = std::sin(1.3 * static_cast<double>(i) + 0.7);
    const VectorXd z = lu_.solve(probe);
    const double normJ = (jacobian_.cwiseAbs() * VectorXd::Ones(size)).maxCoeff();
    if (!z.allFinite() || normJ * z.cwiseAbs().maxCoeff() > 1e14 * probe.cwiseAbs().maxCoeff())
        throw std::runtime_error("the discretised Jacobian is singular to working precision");
}

VectorXd DiscretisedPeriodicSystem::solve(const VectorXd& rhs) const
{
    return lu_.solve(rhs);
}

}  // namespace sysid::discretise
