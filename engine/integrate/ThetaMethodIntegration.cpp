#include "engine/integrate/ThetaMethodIntegration.h"

#include "engine/data/Text.h"
#include "engine/integrate/SparseIterationMatrix.h"

#include <algorithm>
#include <cmath>

namespace sysid::integrate {

namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

constexpr int maxNewtonIterations = 25;

std::string schemeName(double theta)
{
    return theta == 1.0 ? "implicit Euler" : "Crank-Nicolson";
}

class ThetaStepper {
public:
    ThetaStepper(eval::CompiledModel& model, SensitivitySystem& system, const IntegratorSettings& settings,
                 double theta) :
        model_(model),
        system_(system), settings_(settings), theta_(theta), n_(static_cast<Eigen::Index>(model.stateCount())),
        columns_(static_cast<Eigen::Index>(system.columnCount())), f_(model.stateCount()),
        jx_(model.source().rhsStateJacobian.entries.size()), jp_(model.source().rhsParamJacobian.entries.size()),
        newton_(model.source())
    {
        jacobian_ = newton_.jacobianPattern();
        known_.resize(n_, columns_);
    }

    // One step of size h from (t, Z) to t + h, Z = [x, S] column-major; false (with the reason in
    // `why`) when the step equation cannot be solved.
    bool step(double t, double h, Eigen::Map<Eigen::MatrixXd>& Z, std::string& why)
    {
        const double explicitWeight = (1.0 - theta_) * h;
        const double implicitWeight = theta_ * h;
        // The known part of the step equation x1 - theta h f(t1, x1) = x0 + (1 - theta) h f(t0, x0),
        // and of its derivative by each sensitivity column.
        Eigen::VectorXd known = Z.col(0);
        if (columns_ > 0)
            known_ = Z.rightCols(columns_);
        if (explicitWeight != 0.0) {
            evaluate(t, Z.col(0));
            known += explicitWeight * Eigen::Map<const Eigen::VectorXd>(f_.data(), n_);
            if (columns_ > 0) {
                known_ += explicitWeight * (jacobian_ * Z.rightCols(columns_));
                addParameterColumns(known_, explicitWeight);
            }
        }
        const double t1 = t + h;
        Eigen::VectorXd y = Z.col(0);
        Eigen::VectorXd update;
        for (int iteration = 1;; ++iteration) {
            evaluate(t1, y);
            const Eigen::VectorXd residual =
                y - known - implicitWeight * Eigen::Map<const Eigen::VectorXd>(f_.data(), n_);
            if (!newton_.factorise(jacobian_, implicitWeight)) {
                why = "the Newton matrix I - theta h df/dx (theta = " + data::formatNumber(theta_) + ") of the " +
                    schemeName(theta_) + " step to t = " + data::formatNumber(t1, 10) +
                    " is singular; use a smaller step (--max-step)";
                return false;
            }
            update = newton_.lu().solve(-residual);
            y += update;
            if (!y.allFinite()) {
                why = "the Newton iteration of the " + schemeName(theta_) +
                    " step to t = " + data::formatNumber(t1, 10) +
                    " diverged (a state became infinite or NaN); use a smaller step (--max-step)";
                return false;
            }
            if (converged(update, y))
                break;
            if (iteration == maxNewtonIterations) {
                why = "the Newton iteration of the " + schemeName(theta_) +
                    " step to t = " + data::formatNumber(t1, 10) + " did not converge in " +
                    std::to_string(maxNewtonIterations) + " iterations (last update " +
                    data::formatNumber(update.cwiseAbs().maxCoeff(), 3) + "); use a smaller step (--max-step)";
                return false;
            }
        }
        Z.col(0) = y;
        if (columns_ > 0) {
            // (I - theta h A1) S1 = known + theta h df/dp(t1): the LU of the converged iterate,
            // whose Jacobian differs from the one at y by the last update only.
            addParameterColumns(known_, implicitWeight);
            Eigen::MatrixXd S = newton_.lu().solve(known_);
            Z.rightCols(columns_) = S;
        }
        return true;
    }

private:
    // f and df/dx (and the df/dp values) at (t, x).
    void evaluate(double t, const Eigen::VectorXd& x)
    {
        x_ = x;
        system_.setPointFor(t, x_.data());
        model_.rhsAndJacobianValues(f_.data(), jx_.data(), jp_.data());
        newton_.setJacobian(jacobian_, jx_);
    }

    // out(:, c) += weight df/dp_l for each parameter column c = column of parameter l.
    void addParameterColumns(Eigen::MatrixXd& out, double weight) const
    {
        const auto& entries = model_.source().rhsParamJacobian.entries;
        for (std::size_t k = 0; k < entries.size(); ++k) {
            const int c = system_.columnOfParameter(entries[k].column);
            if (c >= 0)
                out(static_cast<Eigen::Index>(entries[k].row), c) += weight * jp_[k];
        }
    }

    // The update is within the tolerances, or at the rounding level of y (tolerances finer than
    // the arithmetic cannot be met).
    bool converged(const Eigen::VectorXd& update, const Eigen::VectorXd& y) const
    {
        double scaled = 0.0;
        for (Eigen::Index i = 0; i < n_; ++i)
            scaled = std::max(scaled,
                              std::abs(update(i)) /
                                  (settings_.absoluteTolerance + settings_.relativeTolerance * std::abs(y(i))));
        const double size = n_ > 0 ? y.cwiseAbs().maxCoeff() : 0.0;
        return scaled <= 1.0 || (n_ > 0 && update.cwiseAbs().maxCoeff() <= 1e-14 * std::max(1.0, size));
    }

    eval::CompiledModel& model_;
    SensitivitySystem& system_;
    const IntegratorSettings& settings_;
    double theta_;
    Eigen::Index n_, columns_;
    std::vector<double> f_, jx_, jp_;
    SparseIterationMatrix newton_;
    SparseMatrix jacobian_;
    Eigen::MatrixXd known_;
    Eigen::VectorXd x_;
};

}  // namespace

FixedSteps fixedSteps(double interval, double maxStep)
{
    const std::size_t count = maxStep > 0
        ? std::max<std::size_t>(static_cast<std::size_t>(std::ceil(interval / maxStep * (1 - 1e-12))), 1)
        : 1;
    return {count, interval / static_cast<double>(count)};
}

// Implicit Euler: seed 003 eq. (2.18), backward differences in time; Crank-Nicolson: J. Crank and
// P. Nicolson, Proc. Cambridge Philos. Soc. 43 (1947) 50-67 (the seed's ref. 24), the average of
// eqs. (2.15) and (2.18). As one-step theta methods: Hairer & Wanner, Solving ODEs II, sec. IV.3.
void integrateThetaMethod(double theta, eval::CompiledModel& model, SensitivitySystem& system, std::vector<double>& z,
                          const std::vector<double>& times, const IntegratorSettings& settings,
                          const ThetaMethodCallbacks& callbacks)
{
    const auto n = static_cast<Eigen::Index>(model.stateCount());
    Eigen::Map<Eigen::MatrixXd> Z(z.data(), n, 1 + static_cast<Eigen::Index>(system.columnCount()));
    ThetaStepper stepper(model, system, settings, theta);
    callbacks.record(0, z.data());
    std::string why;
    for (std::size_t k = 1; k < times.size(); ++k) {
        const FixedSteps steps = fixedSteps(times[k] - times[k - 1], settings.maxStep);
        for (std::size_t s = 0; s < steps.count; ++s) {
            const double t = times[k - 1] + static_cast<double>(s) * steps.size;
            if (!stepper.step(t, steps.size, Z, why))
                callbacks.onFailure(t, why);
            callbacks.afterStep(s + 1 == steps.count ? times[k] : t + steps.size, z.data(), steps.size);
        }
        callbacks.record(k, z.data());
    }
}

}  // namespace sysid::integrate
