#include "engine/integrate/ThetaStepper.h"

#include "engine/data/Text.h"
#include "engine/integrate/Constraints.h"
#include "engine/integrate/IntegrationError.h"
#include "engine/integrate/IterationMatrix.h"

#include <algorithm>
#include <cmath>

namespace sysid::integrate {

namespace {

using SparseMatrix = IterationMatrix::Matrix;

constexpr int maxNewtonIterations = 25;

std::string schemeName(double theta)
{
    return theta == 1.0 ? "implicit Euler" : "Crank-Nicolson";
}

class ThetaStepper final : public Stepper {
public:
    ThetaStepper(double theta, SensitivitySystem& system, const IntegratorSettings& settings,
                 const ImplicitSolveOptions& options) :
        system_(system),
        settings_(settings), options_(options), theta_(theta), n_(static_cast<Eigen::Index>(system.stateCount())),
        columns_(static_cast<Eigen::Index>(system.columnCount())), f_(system.stateCount()),
        jx_(system.system().statePattern().size()), jp_(system.system().parameterPattern().size()),
        algebraic_(static_cast<Eigen::Index>(
            system.system().constraints() ? system.system().constraints()->algebraicCount() : 0)),
        newton_(system.system().statePattern(), static_cast<std::size_t>(algebraic_))
    {
        jacobian_ = newton_.jacobianPattern();
        known_.resize(n_, columns_);
        z_.resize(n_, 1 + columns_);
    }

    bool adaptive() const override { return false; }
    void initialize(const double* z, double t, double h) override
    {
        z_ = Eigen::Map<const Eigen::MatrixXd>(z, n_, 1 + columns_);
        t_ = tOld_ = t;
        h_ = h;
    }

    void step(double, bool) override
    {
        tOld_ = t_;
        std::string why;
        if (!advance(t_, h_, why))
            throw IntegrationError(IntegrationError::Reason::SolverFailure, t_,
                                   "integration failed at t = " + data::formatNumber(t_, 10) + ": " + why + "; " +
                                       options_.advice);
        t_ += h_;
        if (correct_)
            correct_(t_, z_.data());
        ++statistics_.steps;
    }

    double time() const override { return t_; }
    double previousTime() const override { return tOld_; }
    const double* state() const override { return z_.data(); }
    void interpolate(double, double* z) override { std::copy(z_.data(), z_.data() + z_.size(), z); }
    double nextStep() const override { return h_; }

private:
    // One step of size h from (t, z_) to t + h; false (with the reason in `why`) when the step
    // equation cannot be solved.
    bool advance(double t, double h, std::string& why)
    {
        const double explicitWeight = (1.0 - theta_) * h;
        const double implicitWeight = theta_ * h;
        // The known part of the step equation x1 - theta h f(t1, x1) = x0 + (1 - theta) h f(t0, x0),
        // and of its derivative by each sensitivity column.
        Eigen::VectorXd known = z_.col(0);
        if (columns_ > 0)
            known_ = z_.rightCols(columns_);
        if (explicitWeight != 0.0) {
            evaluate(t, z_.col(0));
            known += explicitWeight * Eigen::Map<const Eigen::VectorXd>(f_.data(), n_);
            if (columns_ > 0) {
                known_ += explicitWeight * (jacobian_ * z_.rightCols(columns_));
                addParameterColumns(known_, explicitWeight);
            }
        }
        // Algebraic rows (mass 0) hold their equation at the new time alone, 0 = g(t1, x1), whatever
        // theta: their residual is -theta h g(t1, x1), which the Newton matrix M - theta h df/dx fits.
        if (algebraic_ > 0) {
            known.tail(algebraic_).setZero();
            if (columns_ > 0)
                known_.bottomRows(algebraic_).setZero();
        }
        const double t1 = t + h;
        Eigen::VectorXd y = z_.col(0);
        Eigen::VectorXd update;
        for (int iteration = 1;; ++iteration) {
            evaluate(t1, y);
            Eigen::VectorXd residual = y - known - implicitWeight * Eigen::Map<const Eigen::VectorXd>(f_.data(), n_);
            if (algebraic_ > 0)
                residual.tail(algebraic_) = -implicitWeight * Eigen::Map<const Eigen::VectorXd>(f_.data(), n_).tail(algebraic_);
            ++statistics_.factorizations;
            if (!newton_.factorise(jacobian_, implicitWeight)) {
                why = "the Newton matrix I - theta h df/dx (theta = " + data::formatNumber(theta_) + ") of the " +
                    schemeName(theta_) + " step to t = " + data::formatNumber(t1, 10) + " is singular";
                return false;
            }
            update = newton_.solve(-residual);
            y += update;
            if (!y.allFinite()) {
                why = "the Newton iteration of the " + schemeName(theta_) +
                    " step to t = " + data::formatNumber(t1, 10) + " diverged (a state became infinite or NaN)";
                return false;
            }
            if (converged(update, y))
                break;
            if (iteration == maxNewtonIterations) {
                why = "the Newton iteration of the " + schemeName(theta_) +
                    " step to t = " + data::formatNumber(t1, 10) + " did not converge in " +
                    std::to_string(maxNewtonIterations) + " iterations (last update " +
                    data::formatNumber(update.cwiseAbs().maxCoeff(), 3) + ")";
                return false;
            }
        }
        z_.col(0) = y;
        if (columns_ > 0) {
            // (I - theta h A1) S1 = known + theta h df/dp(t1): the LU of the converged iterate,
            // whose Jacobian differs from the one at y by the last update only.
            addParameterColumns(known_, implicitWeight);
            z_.rightCols(columns_) = newton_.solve(known_);
        }
        return true;
    }

    // f and df/dx (and the df/dp values) at (t, x).
    void evaluate(double t, const Eigen::VectorXd& x)
    {
        x_ = x;
        system_.system().rhsAndJacobianValues(t, x_.data(), f_.data(), jx_.data(), jp_.empty() ? nullptr : jp_.data());
        ++statistics_.rhsEvaluations;
        ++statistics_.jacobianEvaluations;
        newton_.setJacobian(jacobian_, jx_.data());
    }

    // out(:, c) += weight df/dp_l for each parameter column c = column of parameter l.
    void addParameterColumns(Eigen::MatrixXd& out, double weight) const
    {
        const auto& pattern = system_.system().parameterPattern();
        const auto& column = system_.parameterEntryColumn();
        for (std::size_t k = 0; k < column.size(); ++k)
            if (column[k] >= 0)
                out(static_cast<Eigen::Index>(pattern.row[k]), column[k]) += weight * jp_[k];
    }

    bool converged(const Eigen::VectorXd& update, const Eigen::VectorXd& y) const
    {
        if (n_ == 0)
            return true;
        const double largest = update.cwiseAbs().maxCoeff();
        const double size = y.cwiseAbs().maxCoeff();
        if (options_.toRounding)
            return largest <= 1e-12 * (1.0 + size);
        // Within the tolerances, or at the rounding level of y (tolerances finer than the
        // arithmetic cannot be met).
        double scaled = 0.0;
        for (Eigen::Index i = 0; i < n_; ++i)
            scaled = std::max(scaled,
                              std::abs(update(i)) /
                                  (settings_.absoluteTolerance + settings_.relativeTolerance * std::abs(y(i))));
        return scaled <= 1.0 || largest <= 1e-14 * std::max(1.0, size);
    }

    SensitivitySystem& system_;
    const IntegratorSettings settings_;
    ImplicitSolveOptions options_;
    double theta_;
    Eigen::Index n_, columns_;
    std::vector<double> f_, jx_, jp_;
    Eigen::Index algebraic_;  // the last rows: algebraic variables (mass 0)
    IterationMatrix newton_;
    SparseMatrix jacobian_;
    Eigen::MatrixXd known_, z_;
    Eigen::VectorXd x_;
    double t_ = 0.0, tOld_ = 0.0, h_ = 0.0;
};

}  // namespace

// Implicit Euler: backward differences in time; Crank-Nicolson: J. Crank and P. Nicolson, Proc.
// Cambridge Philos. Soc. 43 (1947) 50-67, the average of forward and backward differences. As
// one-step theta methods: Hairer & Wanner, Solving ODEs II, sec. IV.3.
std::unique_ptr<Stepper> makeThetaStepper(double theta, SensitivitySystem& system, const IntegratorSettings& settings,
                                          const ImplicitSolveOptions& options)
{
    return std::make_unique<ThetaStepper>(theta, system, settings, options);
}

}  // namespace sysid::integrate
