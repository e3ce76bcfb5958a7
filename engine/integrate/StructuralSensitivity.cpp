#include "engine/integrate/StructuralSensitivity.h"

#include "engine/data/Text.h"
#include "engine/integrate/IntegrationError.h"

#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <deque>
#include <stdexcept>
#include <string>

namespace sysid::integrate {

namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// The exact propagator of z' = A z + v(s) over a step tau for an input quadratic in s,
// v(s) = v0 + v1 s + v2 s^2 / 2: z(tau) = phi z(0) + e1 v0 + e2 v1 + e3 v2.
// Van Loan, "Computing integrals involving the matrix exponential", IEEE TAC 23(3), 1978:
// the blocks of exp(M tau) with M = [A I 0 0; 0 0 I 0; 0 0 0 I; 0 0 0 0].
struct Propagator {
    double tau = 0.0;
    MatrixXd phi, e1, e2, e3;

    Propagator(const MatrixXd& a, double step) : tau(step)
    {
        const Index n = a.rows();
        MatrixXd m = MatrixXd::Zero(4 * n, 4 * n);
        m.topLeftCorner(n, n) = a;
        for (Index b = 0; b < 3; ++b)
            m.block(b * n, (b + 1) * n, n, n).setIdentity();
        const MatrixXd e = (m * step).exp();
        phi = e.block(0, 0, n, n);
        e1 = e.block(0, n, n, n);
        e2 = e.block(0, 2 * n, n, n);
        e3 = e.block(0, 3 * n, n, n);
    }

    // Values of the input at s = 0, tau/2, tau define its quadratic.
    template <class M>
    M advance(const M& z, const M& a, const M& b, const M& c) const
    {
        const M slope = (4.0 * b - 3.0 * a - c) / tau;
        const M curvature = 4.0 * (a - 2.0 * b + c) / (tau * tau);
        return phi * z + e1 * a + e2 * slope + e3 * curvature;
    }
};

class Evaluator {
public:
    Evaluator(eval::CompiledModel& model, const InputSignals* inputs) :
        model_(model), inputs_(inputs), u_(model.inputCount(), 0.0), n_(static_cast<Index>(model.stateCount()))
    {
    }

    void at(double t, const VectorXd& x)
    {
        if (inputs_ && !u_.empty())
            inputs_->values(t, u_.data());
        model_.setPoint(t, x.data(), u_.data());
    }

    MatrixXd stateJacobian()
    {
        MatrixXd j(n_, n_);  // CompiledModel's dense outputs are column-major, like Eigen's default
        model_.stateJacobian(j.data());
        return j;
    }

    VectorXd rhs()
    {
        VectorXd f(n_);
        model_.rhs(f.data());
        return f;
    }

    // df/dp restricted to the requested parameters: the signals at the sensitivity points.
    MatrixXd sensitivityInputs(const std::vector<std::size_t>& columns)
    {
        const auto np = static_cast<Index>(model_.parameterCount());
        MatrixXd all(n_, np);
        model_.parameterJacobian(all.data());
        MatrixXd w(n_, static_cast<Index>(columns.size()));
        for (std::size_t c = 0; c < columns.size(); ++c)
            w.col(static_cast<Index>(c)) = all.col(static_cast<Index>(columns[c]));
        return w;
    }

private:
    eval::CompiledModel& model_;
    const InputSignals* inputs_;
    std::vector<double> u_;
    Index n_;
};

}  // namespace

StructuralSensitivityResult structuralSensitivity(eval::CompiledModel& model,
                                                  const StructuralSensitivityRequest& request)
{
    const auto& times = request.times;
    if (times.size() < 2)
        throw std::invalid_argument("structural sensitivity needs at least two sample times");
    for (std::size_t s = 1; s < times.size(); ++s)
        if (!(times[s] > times[s - 1]))
            throw std::invalid_argument(
                "the sample times must increase strictly (at t = " + data::formatNumber(times[s], 6) + ")");
    if (model.inputCount() > 0 && (!request.inputs || request.inputs->size() != model.inputCount()))
        throw std::invalid_argument("the model has inputs: give one signal per input");
    for (std::size_t p : request.parameters)
        if (p >= model.parameterCount())
            throw std::invalid_argument("parameter index " + std::to_string(p) + " is not a model parameter");
    const auto n = static_cast<Index>(model.stateCount());
    const auto np = static_cast<Index>(request.parameters.size());
    const auto ny = static_cast<Index>(model.outputCount());
    const auto& source = model.source();
    Evaluator eval(model, request.inputs);

    VectorXd x0(n);
    model.initialState(x0.data());
    MatrixXd x0Jacobian(n, static_cast<Index>(model.parameterCount()));
    model.initialStateJacobian(x0Jacobian.data());

    // The method needs one A for all t and x: compare df/dx at two distant points.
    eval.at(times.front(), x0);
    const MatrixXd a = eval.stateJacobian();
    eval.at(times.back(), x0 + VectorXd::Constant(n, 1.0) + x0.cwiseAbs());
    const MatrixXd elsewhere = eval.stateJacobian();
    const double scale = 1.0 + a.cwiseAbs().maxCoeff();
    for (Index i = 0; i < n; ++i)
        if ((a.row(i) - elsewhere.row(i)).cwiseAbs().maxCoeff() > 1e-10 * scale)
            throw std::invalid_argument("structural sensitivity needs equations linear in the states with constant "
                                        "coefficients (a linear system, the Kokotovic class); the equation of state " +
                                        source.stateNames.at(static_cast<std::size_t>(i)) +
                                        " is not: its df/dx changes with the state or time");

    const double norm = a.cwiseAbs().rowwise().sum().maxCoeff();
    const double maxStep =
        request.maxStep > 0 ? request.maxStep : (norm > 0 ? 0.02 / norm : times.back() - times.front());

    StructuralSensitivityResult out;
    out.states.resize(static_cast<Index>(times.size()), n);
    out.outputs.resize(static_cast<Index>(times.size()), ny);
    out.stateSensitivity.resize(times.size());
    out.outputSensitivity.resize(times.size());
    out.stateEquations = static_cast<std::size_t>(n);
    out.sensitivityEquations = static_cast<std::size_t>(n * np);

    std::deque<Propagator> propagators;  // by step length (uniform samples build two); a deque keeps references valid
    auto propagator = [&](double tau) -> const Propagator& {
        for (const auto& p : propagators)
            if (std::abs(p.tau - tau) <= 1e-12 * tau)
                return p;
        propagators.emplace_back(a, tau);
        ++out.matrixExponentials;
        return propagators.back();
    };

    VectorXd x = x0;
    MatrixXd u(n, np);
    for (Index c = 0; c < np; ++c)
        u.col(c) = x0Jacobian.col(static_cast<Index>(request.parameters[static_cast<std::size_t>(c)]));
    auto record = [&](std::size_t s) {
        const auto ss = static_cast<Index>(s);
        eval.at(times[s], x);
        out.states.row(ss) = x.transpose();
        VectorXd y(ny);
        model.outputs(y.data());
        out.outputs.row(ss) = y.transpose();
        MatrixXd gx(ny, n), gp(ny, static_cast<Index>(model.parameterCount()));
        model.outputStateJacobian(gx.data());
        model.outputParameterJacobian(gp.data());
        MatrixXd dy = gx * u;
        for (Index c = 0; c < np; ++c)
            dy.col(c) += gp.col(static_cast<Index>(request.parameters[static_cast<std::size_t>(c)]));
        out.stateSensitivity[s] = u;
        out.outputSensitivity[s] = dy;
    };
    // c(t) = f(t, 0): the part of the state equation that does not depend on the states.
    const VectorXd zero = VectorXd::Zero(n);
    auto affine = [&](double t) {
        eval.at(t, zero);
        return eval.rhs();
    };
    auto signals = [&](double t, const VectorXd& state) {
        eval.at(t, state);
        return eval.sensitivityInputs(request.parameters);
    };

    record(0);
    for (std::size_t s = 1; s < times.size(); ++s) {
        const double t0 = times[s - 1];
        const double interval = times[s] - t0;
        // An even number of fine steps h: the state moves by h, the sensitivities by 2h with
        // their input's quadratic through the states at 0, h, 2h.
        const auto pairs = static_cast<std::size_t>(std::max(1.0, std::ceil(interval / (2.0 * maxStep))));
        const double h = interval / (2.0 * static_cast<double>(pairs));
        const Propagator& fine = propagator(h);
        const Propagator& coarse = propagator(2.0 * h);
        for (std::size_t k = 0; k < pairs; ++k) {
            const double ta = t0 + 2.0 * static_cast<double>(k) * h;
            const MatrixXd wa = signals(ta, x);
            const VectorXd xm = fine.advance(x, affine(ta), affine(ta + 0.5 * h), affine(ta + h));
            const MatrixXd wm = signals(ta + h, xm);
            const double tb = (k + 1 == pairs) ? times[s] : ta + 2.0 * h;
            x = fine.advance(xm, affine(ta + h), affine(ta + 1.5 * h), affine(tb));
            const MatrixXd wb = signals(tb, x);
            u = coarse.advance(u, wa, wm, wb);
            out.steps += 2;
            if (request.stop.stop_requested())
                throw IntegrationError(IntegrationError::Reason::Cancelled, tb,
                                       "structural sensitivity cancelled at t = " + data::formatNumber(tb, 10));
            for (Index i = 0; i < n; ++i)
                if (!std::isfinite(x(i)))
                    throw IntegrationError(IntegrationError::Reason::NonFiniteState, tb,
                                           "the state " + source.stateNames.at(static_cast<std::size_t>(i)) +
                                               " is not finite at t = " + data::formatNumber(tb, 10) +
                                               " (the linear system is unstable at these parameter values)");
        }
        record(s);
    }
    return out;
}

}  // namespace sysid::integrate
