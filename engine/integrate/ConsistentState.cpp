#include "engine/integrate/ConsistentState.h"

#include "engine/data/Text.h"
#include "engine/integrate/IntegrationError.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sysid::integrate {

namespace {

constexpr int maxIterations = 30;

// The projection iterates until every invariant's surface is this near (relative to the states'
// size; the distance is |G| / |grad G| in the states' units), and accepts what it reached when
// within `nearSurface`.
constexpr double onSurface = 1e-14;
constexpr double nearSurface = 1e-9;

double largest(const Eigen::Ref<const Eigen::VectorXd>& v)
{
    return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff();
}

}  // namespace

ConsistentState::ConsistentState(SensitivitySystem& system, Constraints& constraints, bool project) :
    system_(system), constraints_(constraints), project_(project), n_(system.stateCount()),
    algebraic_(constraints.algebraicCount()), differential_(n_ - algebraic_),
    invariants_(constraints.invariantCount()), columns_(system.columnCount())
{
    all_.resize(differential_);
    std::iota(all_.begin(), all_.end(), std::size_t(0));
    const std::size_t stateColumns = system.initialStateColumns() ? n_ : 0;
    columnParameter_.assign(columns_, -1);
    for (std::size_t c = stateColumns; c < columns_; ++c)
        columnParameter_[c] = static_cast<int>(system.parameters()[c - stateColumns]);
    const auto n = static_cast<Eigen::Index>(n_);
    const auto np = static_cast<Eigen::Index>(system.system().parameterCount());
    G_.resize(static_cast<Eigen::Index>(invariants_));
    Gx_.resize(static_cast<Eigen::Index>(invariants_), n);
    Gp_.resize(static_cast<Eigen::Index>(invariants_), np);
    J_.resize(n, n);
    Jp_.resize(n, np);
    f_.resize(n_);
}

void ConsistentState::initialise(double t, double* z, const std::vector<char>& held)
{
    if (invariants_ > 0) {
        std::vector<std::size_t> free;
        for (std::size_t i = 0; i < differential_; ++i)
            if (held.empty() || !held[i])
                free.push_back(i);
        project(t, z, free, true);
    }
    solveAlgebraic(t, z);
}

void ConsistentState::settle(double t, double* z)
{
    if (project_ && invariants_ > 0)
        project(t, z, all_, false);
    solveAlgebraic(t, z);
}

void ConsistentState::evaluateInvariants(double t, const double* x, bool parameters)
{
    constraints_.invariants(t, x, G_.data(), Gx_.data(), parameters && Gp_.size() > 0 ? Gp_.data() : nullptr);
}

// Gauss-Newton with minimum-norm steps in the free components (the nearest point of the
// constraint manifold to first order), halving a step that increases the residual.
void ConsistentState::project(double t, double* z, const std::vector<std::size_t>& free, bool initial)
{
    const auto d = static_cast<Eigen::Index>(differential_);
    Eigen::Map<Eigen::VectorXd> x(z, static_cast<Eigen::Index>(n_));
    const auto f = static_cast<Eigen::Index>(free.size());
    Eigen::MatrixXd A(static_cast<Eigen::Index>(invariants_), f);
    auto restrict = [&] {
        for (Eigen::Index k = 0; k < f; ++k)
            A.col(k) = Gx_.col(static_cast<Eigen::Index>(free[static_cast<std::size_t>(k)]));
    };
    auto converged = [&](double tolerance) {
        for (Eigen::Index i = 0; i < G_.size(); ++i) {
            const double gradient = Gx_.row(i).head(d).cwiseAbs().maxCoeff();
            if (!(std::abs(G_(i)) <= tolerance * gradient * (1.0 + largest(x.head(d)))))
                return false;
        }
        return true;
    };
    evaluateInvariants(t, z, false);
    Eigen::VectorXd trial(static_cast<Eigen::Index>(n_));
    for (int iteration = 0; iteration < maxIterations && f > 0; ++iteration) {
        if (!G_.allFinite() || converged(onSurface))
            break;
        const double before = G_.norm();
        restrict();
        const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
        const Eigen::VectorXd step = cod.solve(-G_);
        double scale = 1.0;
        for (int halving = 0; halving < 8; ++halving, scale *= 0.5) {
            trial = x;
            for (Eigen::Index k = 0; k < f; ++k)
                trial(static_cast<Eigen::Index>(free[static_cast<std::size_t>(k)])) += scale * step(k);
            constraints_.invariants(t, trial.data(), G_.data(), nullptr, nullptr);
            if (G_.allFinite() && G_.norm() < before)
                break;
        }
        const bool tiny = scale * largest(step) <= 1e-15 * (1.0 + largest(x.head(d)));
        x = trial;
        evaluateInvariants(t, z, false);
        if (tiny)
            break;
    }
    evaluateInvariants(t, z, columns_ > 0);
    if (!G_.allFinite() || !converged(nearSurface))
        inconsistent(t, z, free, initial);
    if (columns_ == 0 || f == 0)
        return;
    // Each column moved by the derivative of the projection: S_F -= A^+ (G_x S + G_p).
    restrict();
    const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(A);
    for (std::size_t c = 0; c < columns_; ++c) {
        Eigen::Map<Eigen::VectorXd> S(z + n_ * (1 + c), static_cast<Eigen::Index>(n_));
        Eigen::VectorXd r = Gx_.leftCols(d) * S.head(d);
        if (columnParameter_[c] >= 0)
            r += Gp_.col(columnParameter_[c]);
        const Eigen::VectorXd correction = cod.solve(r);
        for (Eigen::Index k = 0; k < f; ++k)
            S(static_cast<Eigen::Index>(free[static_cast<std::size_t>(k)])) -= correction(k);
    }
}

void ConsistentState::solveAlgebraic(double t, double* z)
{
    if (algebraic_ == 0)
        return;
    const auto d = static_cast<Eigen::Index>(differential_);
    const auto a = static_cast<Eigen::Index>(algebraic_);
    Eigen::Map<Eigen::VectorXd> x(z, static_cast<Eigen::Index>(n_));
    const bool parameters = columns_ > 0 && Jp_.cols() > 0;
    Eigen::FullPivLU<Eigen::MatrixXd> lu;
    auto evaluate = [&](bool withParameters) {
        system_.system().rhsAndJacobians(t, z, f_.data(), J_.data(), withParameters ? Jp_.data() : nullptr);
        lu.compute(J_.bottomRightCorner(a, a));
        if (!lu.isInvertible() || !J_.bottomRightCorner(a, a).allFinite())
            throw IntegrationError(
                IntegrationError::Reason::Constraints, t,
                "at t = " + data::formatNumber(t, 10) + " the constraints do not determine the algebraic variables (" +
                    system_.system().stateName(n_ - algebraic_) +
                    ", ...): the Jacobian of their equations is singular (a mechanism in a singular position, or "
                    "constraints that repeat each other)");
    };
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
        evaluate(false);
        const Eigen::Map<const Eigen::VectorXd> h(f_.data() + d, a);
        const Eigen::VectorXd step = lu.solve(-h);
        x.tail(a) += step;
        if (!x.tail(a).allFinite())
            throw IntegrationError(IntegrationError::Reason::Constraints, t,
                                   "at t = " + data::formatNumber(t, 10) + " the algebraic variables (" +
                                       system_.system().stateName(n_ - algebraic_) +
                                       ", ...) cannot be solved: their Newton iteration diverged");
        if (largest(step) <= 1e-13 * (1.0 + largest(x.tail(a))))
            break;
    }
    if (columns_ == 0)
        return;
    evaluate(parameters);
    for (std::size_t c = 0; c < columns_; ++c) {
        Eigen::Map<Eigen::VectorXd> S(z + n_ * (1 + c), static_cast<Eigen::Index>(n_));
        Eigen::VectorXd r = J_.bottomLeftCorner(a, d) * S.head(d);
        if (columnParameter_[c] >= 0)
            r += Jp_.col(columnParameter_[c]).tail(a);
        S.tail(a) = lu.solve(-r);
    }
}

void ConsistentState::inconsistent(double t, const double* x, const std::vector<std::size_t>& free,
                                   bool initial) const
{
    // The invariant furthest from its surface.
    Eigen::Index worst = 0;
    double distance = -1.0;
    const auto d = static_cast<Eigen::Index>(differential_);
    for (Eigen::Index i = 0; i < G_.size(); ++i) {
        const double gradient = Gx_.row(i).head(d).cwiseAbs().maxCoeff();
        const double r = std::isfinite(G_(i)) ? std::abs(G_(i)) / std::max(gradient, 1e-300) : INFINITY;
        if (r > distance) {
            distance = r;
            worst = i;
        }
    }
    const std::string what = constraints_.invariantName(static_cast<std::size_t>(worst));
    if (!initial)
        throw IntegrationError(IntegrationError::Reason::Constraints, t,
                               "at t = " + data::formatNumber(t, 10) + " the solution left " + what +
                                   " and cannot be projected back onto it (residual " +
                                   data::formatNumber(G_(worst), 3) + "); use tighter tolerances");
    std::string held;
    for (std::size_t i = 0; i < differential_; ++i)
        if (std::find(free.begin(), free.end(), i) == free.end() && Gx_(worst, static_cast<Eigen::Index>(i)) != 0.0)
            held += (held.empty() ? "" : ", ") + system_.system().stateName(i) + " = " + data::formatNumber(x[i], 6);
    throw IntegrationError(
        IntegrationError::Reason::Constraints, t,
        "no consistent initial values: " + what + " is not satisfied (residual " + data::formatNumber(G_(worst), 3) +
            " at the nearest point found" + (held.empty() ? std::string() : " with the given " + held) +
            "); change the initial values, or mark those the constraints may change with 'guess' (y(0) = -1 guess)");
}

}  // namespace sysid::integrate
