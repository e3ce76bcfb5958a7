#include "engine/estimate/EquationErrorObjective.h"

#include "engine/data/Text.h"

#include <cmath>
#include <stdexcept>

namespace sysid::estimate {

struct EquationErrorObjective::Point {
    Eigen::VectorXd f;
    Eigen::MatrixXd fx;  // n x n
    Eigen::MatrixXd fp;  // n x unknowns
};

namespace {

using Hessians = std::vector<Eigen::MatrixXd>;  // one p x p matrix per state

void resize(Hessians& h, std::size_t n, Eigen::Index p)
{
    h.assign(n, Eigen::MatrixXd::Zero(p, p));
}

void setZero(Hessians& h)
{
    for (auto& m : h)
        m.setZero();
}

}  // namespace

std::vector<double> simpsonWeights(std::size_t m, double h)
{
    std::vector<double> c(m, 0.0);
    if (m == 1) {
        c[0] = h;
        return c;
    }
    // Composite Simpson over the largest odd count; an even count closes with a trapezoid.
    const std::size_t odd = (m % 2 == 1) ? m : m - 1;
    if (odd >= 3) {
        for (std::size_t k = 0; k < odd; ++k)
            c[k] = (k == 0 || k == odd - 1) ? h / 3 : (k % 2 == 1 ? 4 * h / 3 : 2 * h / 3);
    }
    if (odd != m) {
        c[m - 2] += h / 2;
        c[m - 1] += h / 2;
    }
    return c;
}

EquationErrorObjective::EquationErrorObjective(std::shared_ptr<const eval::CompiledModelSource> model,
                                               EquationErrorFormula formula, std::vector<std::size_t> unknowns)
    : model_(std::move(model)), formula_(formula), unknowns_(std::move(unknowns))
{
    const auto& source = model_.source();
    column_.assign(source.parameterCount(), -1);
    for (std::size_t u = 0; u < unknowns_.size(); ++u)
        column_[unknowns_[u]] = static_cast<int>(u);
    bool parameterHessian = false;
    for (const auto& e : source.rhsParamHessian.entries)
        if (column_[e.column] >= 0 && column_[e.depth] >= 0)
            parameterHessian = true;
    linear_ = !isOneStep(formula_) && !parameterHessian;
    jacobianValues_.resize(source.rhsParamJacobian.entries.size());
    stateJacobianValues_.resize(source.rhsStateJacobian.entries.size());
    stateHessianValues_.resize(source.rhsStateHessian.entries.size());
    mixedHessianValues_.resize(source.rhsMixedHessian.entries.size());
    parameterHessianValues_.resize(source.rhsParamHessian.entries.size());
}

std::size_t EquationErrorObjective::minimumSamples() const
{
    return isOneStep(formula_) ? 2 : multistepWeights(formula_).steps + 1;
}

void EquationErrorObjective::evaluateAt(double t, const double* x, const double* u, Point& point, bool first,
                                        bool stateDerivatives)
{
    const auto& source = model_.source();
    model_.setPoint(t, x, u);
    model_.rhs(point.f.data());
    if (first) {
        model_.parameterJacobianValues(jacobianValues_.data());
        point.fp.setZero();
        const auto& entries = source.rhsParamJacobian.entries;
        for (std::size_t e = 0; e < entries.size(); ++e)
            if (const int c = column_[entries[e].column]; c >= 0)
                point.fp(static_cast<Eigen::Index>(entries[e].row), c) = jacobianValues_[e];
    }
    if (stateDerivatives) {
        model_.stateJacobianValues(stateJacobianValues_.data());
        point.fx.setZero();
        const auto& entries = source.rhsStateJacobian.entries;
        for (std::size_t e = 0; e < entries.size(); ++e)
            point.fx(static_cast<Eigen::Index>(entries[e].row), static_cast<Eigen::Index>(entries[e].column)) =
                stateJacobianValues_[e];
    }
}

void EquationErrorObjective::addResidual(const double* residual, const double* weights, double c,
                                         const Eigen::MatrixXd& dE, const Hessians* d2E,
                                         EquationErrorTerms& terms) const
{
    for (Eigen::Index i = 0; i < dE.rows(); ++i) {
        const double w = c * weights[i];
        const double e = residual[i];
        terms.cost += 0.5 * w * e * e;
        terms.gradient.noalias() += (w * e) * dE.row(i).transpose();
        terms.gaussNewton.noalias() += w * dE.row(i).transpose() * dE.row(i);
        if (d2E)
            terms.secondOrder.noalias() += (w * e) * (*d2E)[static_cast<std::size_t>(i)];
    }
    terms.rows += static_cast<std::size_t>(dE.rows());
}

EquationErrorTerms EquationErrorObjective::evaluate(const Eigen::VectorXd& theta,
                                                    const std::vector<EquationErrorRecord>& records,
                                                    bool withSecondOrder, std::stop_token stop)
{
    const auto& source = model_.source();
    const std::size_t n = source.stateCount();
    const auto ni = static_cast<Eigen::Index>(n);
    const auto p = static_cast<Eigen::Index>(unknowns_.size());
    EquationErrorTerms terms;
    terms.gradient = Eigen::VectorXd::Zero(p);
    terms.gaussNewton = Eigen::MatrixXd::Zero(p, p);
    terms.secondOrder = Eigen::MatrixXd::Zero(p, p);
    const bool second = withSecondOrder && !linear_;

    std::vector<double> u(source.inputCount(), 0.0);
    Eigen::VectorXd residual(ni);
    Eigen::MatrixXd dE(ni, p);
    Hessians d2E;
    resize(d2E, n, p);
    const auto& pp = source.rhsParamHessian.entries;
    // Adds h * beta * d2f/dtheta2 (from the parameter-Hessian values just evaluated) to d2.
    auto addParameterHessian = [&](Hessians& d2, double factor) {
        for (std::size_t e = 0; e < pp.size(); ++e) {
            const int l = column_[pp[e].column], m = column_[pp[e].depth];
            if (l < 0 || m < 0)
                continue;
            const double v = factor * parameterHessianValues_[e];
            d2[pp[e].row](l, m) += v;
            if (l != m)
                d2[pp[e].row](m, l) += v;
        }
    };
    auto checkFinite = [&](const EquationErrorRecord& record, std::size_t k) {
        for (Eigen::Index i = 0; i < ni; ++i)
            if (!std::isfinite(residual(i)))
                throw std::runtime_error("data set '" + record.name + "': the model's right-hand side is not finite at t = " +
                                         data::formatNumber(record.states.times[k], 8) + " (state " +
                                         source.stateNames[static_cast<std::size_t>(i)] + ")");
    };

    for (const auto& record : records) {
        std::vector<double> parameters = record.parameterValues;
        for (std::size_t k = 0; k < unknowns_.size(); ++k)
            parameters[unknowns_[k]] = theta(static_cast<Eigen::Index>(k));
        model_.setParameters(parameters);
        const auto& y = record.states.values;
        const double h = record.states.step;
        const std::size_t samples = record.states.times.size();

        if (isOneStep(formula_)) {
            const ButcherTableau tableau = butcherTableau(formula_);
            const std::size_t stages = tableau.stages();
            const std::vector<double> c = simpsonWeights(samples - 1, h);
            std::vector<Point> points(stages, Point{Eigen::VectorXd(ni), Eigen::MatrixXd(ni, ni), Eigen::MatrixXd(ni, p)});
            std::vector<Eigen::MatrixXd> dK(stages, Eigen::MatrixXd(ni, p));
            std::vector<Hessians> d2K(stages);
            for (auto& d : d2K)
                resize(d, n, p);
            Eigen::VectorXd z(ni);
            Eigen::MatrixXd dz(ni, p);
            Hessians d2z;
            resize(d2z, n, p);
            const auto& xx = source.rhsStateHessian.entries;
            const auto& xp = source.rhsMixedHessian.entries;
            for (std::size_t k = 0; k + 1 < samples; ++k) {
                if ((k & 4095) == 4095 && stop.stop_requested()) {
                    terms.cancelled = true;
                    return terms;
                }
                const double t = record.states.times[k];
                for (std::size_t s = 0; s < stages; ++s) {
                    z = y.row(static_cast<Eigen::Index>(k)).transpose();
                    dz.setZero();
                    if (second)
                        setZero(d2z);
                    for (std::size_t j = 0; j < s; ++j) {
                        const double a = tableau.a[s][j];
                        if (a == 0.0)
                            continue;
                        z.noalias() += (h * a) * points[j].f;
                        dz.noalias() += (h * a) * dK[j];
                        if (second)
                            for (std::size_t i = 0; i < n; ++i)
                                d2z[i].noalias() += (h * a) * d2K[j][i];
                    }
                    const double ts = t + tableau.c[s] * h;
                    if (record.inputs)
                        record.inputs->values(ts, u.data());
                    Point& point = points[s];
                    evaluateAt(ts, z.data(), u.data(), point, true, s > 0);
                    if (s > 0)
                        dK[s].noalias() = point.fx * dz + point.fp;
                    else
                        dK[s] = point.fp;
                    if (!second)
                        continue;
                    Hessians& d2 = d2K[s];
                    setZero(d2);
                    model_.parameterHessianValues(parameterHessianValues_.data());
                    addParameterHessian(d2, 1.0);
                    if (s == 0)
                        continue;
                    model_.stateHessianValues(stateHessianValues_.data());
                    model_.mixedHessianValues(mixedHessianValues_.data());
                    for (std::size_t e = 0; e < xx.size(); ++e)
                        if (xx[e].depth < n)
                            d2[xx[e].row].noalias() += stateHessianValues_[e] * dz.row(static_cast<Eigen::Index>(xx[e].column)).transpose() *
                                                       dz.row(static_cast<Eigen::Index>(xx[e].depth));
                    for (std::size_t e = 0; e < xp.size(); ++e) {
                        const int l = column_[xp[e].column];
                        if (l < 0 || xp[e].depth >= n)
                            continue;
                        const double v = mixedHessianValues_[e];
                        const auto row = dz.row(static_cast<Eigen::Index>(xp[e].depth));
                        d2[xp[e].row].col(l) += v * row.transpose();
                        d2[xp[e].row].row(l) += v * row;
                    }
                    for (std::size_t i = 0; i < n; ++i)
                        for (std::size_t a = 0; a < n; ++a) {
                            const double fx = point.fx(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(a));
                            if (fx != 0.0)
                                d2[i].noalias() += fx * d2z[a];
                        }
                }
                residual = y.row(static_cast<Eigen::Index>(k)).transpose() - y.row(static_cast<Eigen::Index>(k + 1)).transpose();
                dE.setZero();
                if (second)
                    setZero(d2E);
                for (std::size_t s = 0; s < stages; ++s) {
                    const double hb = h * tableau.b[s];
                    residual.noalias() += hb * points[s].f;
                    dE.noalias() += hb * dK[s];
                    if (second)
                        for (std::size_t i = 0; i < n; ++i)
                            d2E[i].noalias() += hb * d2K[s][i];
                }
                checkFinite(record, k + 1);
                addResidual(residual.data(), record.stateWeights.data(), c[k], dE, second ? &d2E : nullptr, terms);
            }
            continue;
        }

        // Multistep: F is evaluated once per sample and reused by every residual whose
        // stencil covers it.
        const MultistepWeights formula = multistepWeights(formula_);
        const std::size_t span = formula.steps + 1;
        const std::vector<double> c = simpsonWeights(samples - formula.steps, h);
        std::vector<Point> ring(span, Point{Eigen::VectorXd(ni), Eigen::MatrixXd(), Eigen::MatrixXd(ni, p)});
        std::vector<std::vector<double>> ringHessian(span);
        for (std::size_t k = 0; k < samples; ++k) {
            if ((k & 4095) == 4095 && stop.stop_requested()) {
                terms.cancelled = true;
                return terms;
            }
            const double t = record.states.times[k];
            if (record.inputs)
                record.inputs->values(t, u.data());
            Point& point = ring[k % span];
            evaluateAt(t, y.row(static_cast<Eigen::Index>(k)).data(), u.data(), point, true, false);
            if (second) {
                model_.parameterHessianValues(parameterHessianValues_.data());
                ringHessian[k % span] = parameterHessianValues_;
            }
            if (k < formula.steps)
                continue;
            const std::size_t first = k - formula.steps;
            residual = y.row(static_cast<Eigen::Index>(first)).transpose() - y.row(static_cast<Eigen::Index>(k)).transpose();
            dE.setZero();
            if (second)
                setZero(d2E);
            for (std::size_t j = 0; j < span; ++j) {
                const double hb = h * formula.beta[j];
                const std::size_t slot = (first + j) % span;
                residual.noalias() += hb * ring[slot].f;
                dE.noalias() += hb * ring[slot].fp;
                if (second) {
                    parameterHessianValues_ = ringHessian[slot];
                    addParameterHessian(d2E, hb);
                }
            }
            checkFinite(record, k);
            addResidual(residual.data(), record.stateWeights.data(), c[first], dE, second ? &d2E : nullptr, terms);
        }
    }
    return terms;
}

}  // namespace sysid::estimate
