#include "engine/estimate/EquationErrorObjective.h"

#include "engine/data/Text.h"
#include "engine/eval/ExpressionList.h"

#include <cmath>
#include <stdexcept>

namespace sysid::estimate {

// The right-hand side and its derivatives as muParser programs over one variable vector
// [t, x, p, u]: the value; the value with df/dp (at measured samples, where the state does not
// depend on the parameters) and also df/dx (at later Runge-Kutta stages); d2f/dp2, and also
// d2f/dx2 and d2f/dxdp. One call per program keeps muParser's per-call cost low.
struct EquationErrorObjective::Programs {
    std::vector<double> variables;
    eval::ExpressionList value, firstAtSample, firstAtStage, secondAtSample, secondAtStage;
    std::vector<double> firstValues, secondValues;
    std::size_t n = 0, np = 0, parameterJacobianCount = 0, parameterHessianCount = 0, stateHessianCount = 0;

    explicit Programs(const eval::CompiledModelSource& s) :
        n(s.stateCount()), np(s.parameterCount()), parameterJacobianCount(s.rhsParamJacobian.entries.size()),
        parameterHessianCount(s.rhsParamHessian.entries.size()), stateHessianCount(s.rhsStateHessian.entries.size())
    {
        eval::requireSecondDerivatives(s, "the equation-error objective (its Newton-Raphson Hessian)");
        variables.assign(1 + s.stateCount() + s.parameterCount() + s.inputCount(), 0.0);
        std::vector<eval::ExpressionList::Variable> bound;
        for (std::size_t i = 0; i < variables.size(); ++i)
            bound.push_back({"v" + std::to_string(i), &variables[i]});
        auto append = [](std::vector<std::string>& to, const eval::SparseExpressions& list) {
            to.insert(to.end(), list.expressions.begin(), list.expressions.end());
        };
        std::vector<std::string> firstExpressions = s.rhs;
        append(firstExpressions, s.rhsParamJacobian);
        value = eval::ExpressionList(s.rhs, bound);
        firstAtSample = eval::ExpressionList(firstExpressions, bound);
        append(firstExpressions, s.rhsStateJacobian);
        firstAtStage = eval::ExpressionList(firstExpressions, bound);
        std::vector<std::string> secondExpressions;
        append(secondExpressions, s.rhsParamHessian);
        secondAtSample = eval::ExpressionList(secondExpressions, bound);
        append(secondExpressions, s.rhsStateHessian);
        append(secondExpressions, s.rhsMixedHessian);
        secondAtStage = eval::ExpressionList(secondExpressions, bound);
        firstValues.resize(firstExpressions.size());
        secondValues.resize(secondExpressions.size());
    }

    void setParameters(const std::vector<double>& values)
    {
        std::copy(values.begin(), values.end(), variables.begin() + 1 + static_cast<long>(n));
    }
    void setPoint(double t, const double* x, const std::vector<double>& u)
    {
        variables[0] = t;
        std::copy(x, x + n, variables.begin() + 1);
        std::copy(u.begin(), u.end(), variables.begin() + 1 + static_cast<long>(n + np));
    }
    const double* parameterJacobian() const { return firstValues.data() + n; }
    const double* stateJacobian() const { return firstValues.data() + n + parameterJacobianCount; }
    const double* parameterHessian() const { return secondValues.data(); }
    const double* stateHessian() const { return secondValues.data() + parameterHessianCount; }
    const double* mixedHessian() const { return secondValues.data() + parameterHessianCount + stateHessianCount; }
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
                                               EquationErrorFormula formula, std::vector<std::size_t> unknowns) :
    source_(std::move(model)),
    programs_(std::make_unique<Programs>(*source_)), formula_(formula), unknowns_(std::move(unknowns))
{
    column_.assign(source_->parameterCount(), -1);
    for (std::size_t u = 0; u < unknowns_.size(); ++u)
        column_[unknowns_[u]] = static_cast<int>(u);
    bool parameterHessian = false;
    for (const auto& e : source_->rhsParamHessian.entries)
        if (column_[e.column] >= 0 && column_[e.depth] >= 0)
            parameterHessian = true;
    linear_ = !isOneStep(formula_) && !parameterHessian;
}

EquationErrorObjective::~EquationErrorObjective() = default;

std::size_t EquationErrorObjective::minimumSamples() const
{
    return isOneStep(formula_) ? 2 : multistepWeights(formula_).steps + 1;
}

void EquationErrorObjective::evaluateAt(double t, const double* x, const std::vector<double>& u, Point& point,
                                        EquationErrorOrder order, bool stateDerivatives)
{
    Programs& programs = *programs_;
    programs.setPoint(t, x, u);
    if (order == EquationErrorOrder::CostOnly) {
        programs.value.evaluate(point.f.data());
        return;
    }
    (stateDerivatives ? programs.firstAtStage : programs.firstAtSample).evaluate(programs.firstValues.data());
    const auto n = static_cast<Eigen::Index>(programs.n);
    point.f = Eigen::Map<const Eigen::VectorXd>(programs.firstValues.data(), n);
    point.fp.setZero();
    const auto& pj = source_->rhsParamJacobian.entries;
    const double* pjValues = programs.parameterJacobian();
    for (std::size_t e = 0; e < pj.size(); ++e)
        if (const int c = column_[pj[e].column]; c >= 0)
            point.fp(static_cast<Eigen::Index>(pj[e].row), c) = pjValues[e];
    if (stateDerivatives) {
        point.fx.setZero();
        const auto& sj = source_->rhsStateJacobian.entries;
        const double* sjValues = programs.stateJacobian();
        for (std::size_t e = 0; e < sj.size(); ++e)
            point.fx(static_cast<Eigen::Index>(sj[e].row), static_cast<Eigen::Index>(sj[e].column)) = sjValues[e];
    }
    if (order == EquationErrorOrder::Second)
        (stateDerivatives ? programs.secondAtStage : programs.secondAtSample).evaluate(programs.secondValues.data());
}

void EquationErrorObjective::addResidual(const double* residual, const double* weights, double c,
                                         const Eigen::MatrixXd& dE, const std::vector<Eigen::MatrixXd>* d2E,
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
                                                    EquationErrorOrder requested, std::stop_token stop)
{
    const auto& source = *source_;
    const std::size_t n = source.stateCount();
    const auto ni = static_cast<Eigen::Index>(n);
    const auto p = static_cast<Eigen::Index>(unknowns_.size());
    const EquationErrorOrder order =
        (requested == EquationErrorOrder::Second && linear_) ? EquationErrorOrder::First : requested;
    const bool derivatives = order != EquationErrorOrder::CostOnly;
    const bool second = order == EquationErrorOrder::Second;
    EquationErrorTerms terms;
    terms.gradient = Eigen::VectorXd::Zero(p);
    terms.gaussNewton = Eigen::MatrixXd::Zero(p, p);
    terms.secondOrder = Eigen::MatrixXd::Zero(p, p);

    std::vector<double> u(source.inputCount(), 0.0);
    Eigen::VectorXd residual(ni);
    Eigen::MatrixXd dE(ni, p);
    Hessians d2E;
    resize(d2E, n, p);
    const auto& pp = source.rhsParamHessian.entries;
    // Adds factor * d2f/dtheta2 (parameter-Hessian values in source order) to d2.
    auto addParameterHessian = [&](Hessians& d2, const double* values, double factor) {
        for (std::size_t e = 0; e < pp.size(); ++e) {
            const int l = column_[pp[e].column], m = column_[pp[e].depth];
            if (l < 0 || m < 0)
                continue;
            const double v = factor * values[e];
            d2[pp[e].row](l, m) += v;
            if (l != m)
                d2[pp[e].row](m, l) += v;
        }
    };
    auto checkFinite = [&](const EquationErrorRecord& record, std::size_t k) {
        for (Eigen::Index i = 0; i < ni; ++i)
            if (!std::isfinite(residual(i)))
                throw std::runtime_error("data set '" + record.name +
                                         "': the model's right-hand side is not finite at t = " +
                                         data::formatNumber(record.states.times[k], 8) + " (state " +
                                         source.stateNames[static_cast<std::size_t>(i)] + ")");
    };
    // The cost alone: the squared residual without derivatives.
    auto addCost = [&](const EquationErrorRecord& record, double c) {
        for (Eigen::Index i = 0; i < ni; ++i)
            terms.cost += 0.5 * c * record.stateWeights[static_cast<std::size_t>(i)] * residual(i) * residual(i);
        terms.rows += n;
    };

    for (const auto& record : records) {
        std::vector<double> parameters = record.parameterValues;
        for (std::size_t k = 0; k < unknowns_.size(); ++k)
            parameters[unknowns_[k]] = theta(static_cast<Eigen::Index>(k));
        programs_->setParameters(parameters);
        const auto& y = record.states.values;
        const double h = record.states.step;
        const std::size_t samples = record.states.times.size();

        if (isOneStep(formula_)) {
            const ButcherTableau tableau = butcherTableau(formula_);
            const std::size_t stages = tableau.stages();
            const std::vector<double> c = simpsonWeights(samples - 1, h);
            std::vector<Point> points(stages,
                                      Point{Eigen::VectorXd(ni), Eigen::MatrixXd(ni, ni), Eigen::MatrixXd(ni, p)});
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
                    if (derivatives)
                        dz.setZero();
                    if (second)
                        setZero(d2z);
                    for (std::size_t j = 0; j < s; ++j) {
                        const double a = tableau.a[s][j];
                        if (a == 0.0)
                            continue;
                        z.noalias() += (h * a) * points[j].f;
                        if (derivatives)
                            dz.noalias() += (h * a) * dK[j];
                        if (second)
                            for (std::size_t i = 0; i < n; ++i)
                                d2z[i].noalias() += (h * a) * d2K[j][i];
                    }
                    const double ts = t + tableau.c[s] * h;
                    if (record.inputs)
                        record.inputs->values(ts, u.data());
                    Point& point = points[s];
                    evaluateAt(ts, z.data(), u, point, order, s > 0);
                    if (!derivatives)
                        continue;
                    if (s > 0)
                        dK[s].noalias() = point.fx * dz + point.fp;
                    else
                        dK[s] = point.fp;
                    if (!second)
                        continue;
                    Hessians& d2 = d2K[s];
                    setZero(d2);
                    addParameterHessian(d2, programs_->parameterHessian(), 1.0);
                    if (s == 0)
                        continue;
                    const double* xxValues = programs_->stateHessian();
                    const double* xpValues = programs_->mixedHessian();
                    for (std::size_t e = 0; e < xx.size(); ++e)
                        if (xx[e].depth < n)
                            d2[xx[e].row].noalias() += xxValues[e] *
                                dz.row(static_cast<Eigen::Index>(xx[e].column)).transpose() *
                                dz.row(static_cast<Eigen::Index>(xx[e].depth));
                    for (std::size_t e = 0; e < xp.size(); ++e) {
                        const int l = column_[xp[e].column];
                        if (l < 0 || xp[e].depth >= n)
                            continue;
                        const auto row = dz.row(static_cast<Eigen::Index>(xp[e].depth));
                        d2[xp[e].row].col(l) += xpValues[e] * row.transpose();
                        d2[xp[e].row].row(l) += xpValues[e] * row;
                    }
                    for (std::size_t i = 0; i < n; ++i)
                        for (std::size_t a = 0; a < n; ++a) {
                            const double fx = point.fx(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(a));
                            if (fx != 0.0)
                                d2[i].noalias() += fx * d2z[a];
                        }
                }
                residual = y.row(static_cast<Eigen::Index>(k)).transpose() -
                    y.row(static_cast<Eigen::Index>(k + 1)).transpose();
                if (derivatives)
                    dE.setZero();
                if (second)
                    setZero(d2E);
                for (std::size_t s = 0; s < stages; ++s) {
                    const double hb = h * tableau.b[s];
                    residual.noalias() += hb * points[s].f;
                    if (derivatives)
                        dE.noalias() += hb * dK[s];
                    if (second)
                        for (std::size_t i = 0; i < n; ++i)
                            d2E[i].noalias() += hb * d2K[s][i];
                }
                checkFinite(record, k + 1);
                if (derivatives)
                    addResidual(residual.data(), record.stateWeights.data(), c[k], dE, second ? &d2E : nullptr, terms);
                else
                    addCost(record, c[k]);
            }
            continue;
        }

        // Multistep: F is evaluated once per sample and reused by every residual whose
        // stencil covers it.
        const MultistepWeights formula = multistepWeights(formula_);
        const std::size_t span = formula.steps + 1;
        const std::vector<double> c = simpsonWeights(samples - formula.steps, h);
        std::vector<Point> ring(span, Point{Eigen::VectorXd(ni), Eigen::MatrixXd(), Eigen::MatrixXd(ni, p)});
        std::vector<std::vector<double>> ringHessian(span, std::vector<double>(pp.size()));
        for (std::size_t k = 0; k < samples; ++k) {
            if ((k & 4095) == 4095 && stop.stop_requested()) {
                terms.cancelled = true;
                return terms;
            }
            const double t = record.states.times[k];
            if (record.inputs)
                record.inputs->values(t, u.data());
            Point& point = ring[k % span];
            evaluateAt(t, y.row(static_cast<Eigen::Index>(k)).data(), u, point, order, false);
            if (second)
                std::copy(programs_->parameterHessian(), programs_->parameterHessian() + pp.size(),
                          ringHessian[k % span].begin());
            if (k < formula.steps)
                continue;
            const std::size_t first = k - formula.steps;
            residual =
                y.row(static_cast<Eigen::Index>(first)).transpose() - y.row(static_cast<Eigen::Index>(k)).transpose();
            if (derivatives)
                dE.setZero();
            if (second)
                setZero(d2E);
            for (std::size_t j = 0; j < span; ++j) {
                const double hb = h * formula.beta[j];
                const std::size_t slot = (first + j) % span;
                residual.noalias() += hb * ring[slot].f;
                if (derivatives)
                    dE.noalias() += hb * ring[slot].fp;
                if (second)
                    addParameterHessian(d2E, ringHessian[slot].data(), hb);
            }
            checkFinite(record, k);
            if (derivatives)
                addResidual(residual.data(), record.stateWeights.data(), c[first], dE, second ? &d2E : nullptr, terms);
            else
                addCost(record, c[first]);
        }
    }
    return terms;
}

}  // namespace sysid::estimate
