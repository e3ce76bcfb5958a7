#include "engine/estimate/OptimalEstimationHamiltonian.h"

#include "engine/estimate/OptimalEstimationError.h"

#include <ginac/ginac.h>

#include <cmath>

namespace sysid::estimate {

namespace {

using GiNaC::ex;
using GiNaC::exmap;
using GiNaC::symbol;

bool estimated(const model::Parameter& p)
{
    return !p.fixed && !p.isInitialValue;
}

// The expression is linear in the inputs when every first derivative is free of them.
void requireLinear(const ex& e, const std::vector<symbol>& inputs, const std::string& equation)
{
    for (const symbol& u : inputs) {
        if (!e.has(u))
            continue;
        ex d = e.diff(u);
        bool nonlinear = false;
        for (const symbol& v : inputs)
            nonlinear = nonlinear || d.has(v);
        if (nonlinear) {
            d = d.normal();
            nonlinear = false;
            for (const symbol& v : inputs)
                nonlinear = nonlinear || d.has(v);
        }
        if (nonlinear)
            throw OptimalEstimationError("optimal estimation needs every equation linear in the inputs and "
                                         "accelerations, but " +
                                         equation + " is not linear in input " + u.get_name());
    }
}

}  // namespace

AugmentedLayout augmentedLayout(const model::Model& model, const std::vector<bool>& outputMeasured)
{
    // The Hamiltonian system has no jump conditions for the costates at a reset.
    if (!model.events.empty())
        throw OptimalEstimationError(
            "optimal estimation needs a model without state resets, but '" + model.events.front().text + "' on line " +
            std::to_string(model.events.front().where.line) + " resets states; fit this model by output error instead");
    // Its costates would need the adjoint of the algebraic equations (Cao, Li, Petzold & Serban 2003).
    if (model.algebraicCount() > 0)
        throw OptimalEstimationError("optimal estimation needs a model without constraints, but '" +
                                     model.constraints.front().text + "' on line " +
                                     std::to_string(model.constraints.front().where.line) +
                                     " is one; fit this model by output error or multiple shooting instead");
    if (outputMeasured.size() != model.outputs.size())
        throw OptimalEstimationError("the experiment marks " + std::to_string(outputMeasured.size()) +
                                     " outputs as measured or not, but the model has " +
                                     std::to_string(model.outputs.size()));
    AugmentedLayout layout;
    for (const auto& s : model.states)
        layout.stateNames.push_back(s.name);
    layout.modelStateCount = model.states.size();
    for (std::size_t i = 0; i < model.parameters.size(); ++i)
        if (estimated(model.parameters[i])) {
            layout.estimatedParameters.push_back(i);
            layout.stateNames.push_back(model.parameters[i].name);
        }
    for (const auto& u : model.inputs)
        layout.unknownInputNames.push_back(u.name);
    // A coordinate q appears as the state pair (q, q') with dq/dt = q'.
    for (std::size_t i = 0; i + 1 < model.states.size(); ++i) {
        const auto& position = model.states[i];
        const auto& velocity = model.states[i + 1];
        if (velocity.name == position.name + "'" && (position.rhs - velocity.symbol).is_zero()) {
            layout.coordinateNames.push_back(position.name);
            layout.coordinatePosition.push_back(i);
            layout.coordinateVelocity.push_back(i + 1);
            layout.unknownInputNames.push_back(position.name + "''");
        }
    }
    for (std::size_t j = 0; j < model.outputs.size(); ++j)
        if (outputMeasured[j]) {
            layout.measuredOutputs.push_back(j);
            layout.residualNames.push_back(model.outputs[j].name);
        }
    for (const auto& u : model.inputs)
        layout.residualNames.push_back(u.name);
    for (const auto& c : layout.coordinateNames)
        layout.residualNames.push_back("eom:" + c);
    return layout;
}

// Seed 001 eq. (2.7), re-derived from J = 1/2 (X(a)-q_a)'W_a(X(a)-q_a) + 1/2 int xi'W xi + eps'V eps
// with X' = Phi(X, p) + xi, eps = z - h(X, p): stationarity in xi, p and X gives
// xi = W^-1 lambda, F'V eps + B'lambda = 0 (F = dh/dp, B = dPhi/dp), and
// lambda' = -(dPhi/dX)'lambda - (dh/dX)'V eps.
model::Model hamiltonianModel(const model::Model& model, const AugmentedLayout& layout,
                              const HamiltonianWeights& weights, const std::map<std::string, double>& fixedValues)
{
    const std::size_t N = layout.stateNames.size();
    const std::size_t nu = model.inputs.size();
    const std::size_t np = layout.unknownInputNames.size();
    const std::size_t nr = layout.residualNames.size();
    if (weights.state.size() != N || weights.measurement.size() != nr)
        throw OptimalEstimationError("internal: weights do not match the augmented layout");

    for (const auto& [name, value] : fixedValues) {
        const std::size_t i = model.parameterIndex(name);
        if (i >= model.parameters.size() || estimated(model.parameters[i]))
            throw OptimalEstimationError("the experiment fixes '" + name +
                                         "', which is not a fixed parameter of the model");
        if (!std::isfinite(value))
            throw OptimalEstimationError("the experiment's value of " + name + " is not a finite number");
    }
    exmap fixed;
    for (std::size_t i = 0; i < model.parameters.size(); ++i)
        if (!estimated(model.parameters[i])) {
            const auto it = fixedValues.find(model.parameters[i].name);
            fixed[model.parameterSymbols[i]] =
                GiNaC::numeric(it == fixedValues.end() ? model.parameters[i].value : it->second);
        }

    std::vector<symbol> X;
    for (const auto& s : model.states)
        X.push_back(s.symbol);
    for (std::size_t i : layout.estimatedParameters)
        X.push_back(model.parameterSymbols[i]);
    std::vector<symbol> P, inputs;
    for (const auto& u : model.inputs) {
        P.push_back(u.symbol);
        inputs.push_back(u.symbol);
    }
    for (const auto& c : layout.coordinateNames)
        P.push_back(symbol(c + "''"));

    std::vector<symbol> accelerationOf(model.states.size());
    std::vector<bool> isVelocity(model.states.size(), false);
    for (std::size_t c = 0; c < layout.coordinateNames.size(); ++c) {
        isVelocity[layout.coordinateVelocity[c]] = true;
        accelerationOf[layout.coordinateVelocity[c]] = P[nu + c];
    }

    // Phi: dX/dt without residuals; a coordinate's velocity is driven by its acceleration.
    std::vector<ex> Phi(N, ex(0));
    for (std::size_t i = 0; i < model.states.size(); ++i) {
        if (isVelocity[i])
            Phi[i] = accelerationOf[i];
        else {
            Phi[i] = model.states[i].rhs.subs(fixed);
            requireLinear(Phi[i], inputs, "the equation of " + model.states[i].name + "'");
        }
    }
    // h and the measured values z (zero for the equations of motion).
    std::vector<ex> h, z;
    std::vector<symbol> measuredSymbols;
    for (std::size_t j : layout.measuredOutputs) {
        h.push_back(model.outputs[j].expression.subs(fixed));
        requireLinear(h.back(), inputs, "output " + model.outputs[j].name);
        measuredSymbols.emplace_back(model.outputs[j].name + "_m");
        z.push_back(measuredSymbols.back());
    }
    for (std::size_t r = 0; r < nu; ++r) {
        h.push_back(P[r]);
        measuredSymbols.emplace_back(model.inputs[r].name + "_m");
        z.push_back(measuredSymbols.back());
    }
    for (std::size_t c = 0; c < layout.coordinateNames.size(); ++c) {
        const ex phi = model.states[layout.coordinateVelocity[c]].rhs.subs(fixed);
        requireLinear(phi, inputs, "the equation of motion " + layout.coordinateNames[c] + "''");
        h.push_back(phi - P[nu + c]);
        z.push_back(0);
    }

    exmap zeroP;
    for (const symbol& p : P)
        zeroP[p] = 0;
    GiNaC::matrix B(N, np), F(nr, np), Vd(nr, nr);
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t k = 0; k < np; ++k)
            B(i, k) = Phi[i].diff(P[k]);
    for (std::size_t r = 0; r < nr; ++r) {
        Vd(r, r) = GiNaC::numeric(weights.measurement[r]);
        for (std::size_t k = 0; k < np; ++k)
            F(r, k) = h[r].diff(P[k]);
    }
    std::vector<symbol> lambda;
    for (const auto& name : layout.stateNames)
        lambda.emplace_back("lambda_" + name);
    GiNaC::matrix lambdaVec(N, 1), residual0(nr, 1);
    for (std::size_t i = 0; i < N; ++i)
        lambdaVec(i, 0) = lambda[i];
    for (std::size_t r = 0; r < nr; ++r)
        residual0(r, 0) = z[r] - h[r].subs(zeroP);

    exmap solvedP;
    if (np > 0) {
        const GiNaC::matrix FtV = F.transpose().mul(Vd);
        const GiNaC::matrix M = FtV.mul(F);
        if (M.determinant().normal().is_zero()) {
            std::string names;
            for (const auto& n : layout.unknownInputNames)
                names += (names.empty() ? "" : ", ") + n;
            throw OptimalEstimationError("F'VF is singular: the measurement weights do not determine all unknown "
                                         "inputs (" +
                                         names + "); give each a measured residual with a weight > 0");
        }
        const GiNaC::matrix pStar = M.inverse().mul(B.transpose().mul(lambdaVec).add(FtV.mul(residual0)));
        for (std::size_t k = 0; k < np; ++k)
            solvedP[P[k]] = pStar(k, 0).normal();
    }

    std::vector<ex> eps(nr);
    for (std::size_t r = 0; r < nr; ++r)
        eps[r] = z[r] - h[r];

    model::Model result;
    result.source = model.source + " (optimal estimation)";
    result.time = model.time;
    for (std::size_t i = 0; i < N; ++i) {
        const ex xi = lambda[i] / GiNaC::numeric(weights.state[i]);
        result.states.push_back({layout.stateNames[i], X[i], (Phi[i] + xi).subs(solvedP), 0, {}, {}});
    }
    for (std::size_t i = 0; i < N; ++i) {
        ex dlambda = 0;
        for (std::size_t k = 0; k < N; ++k)
            dlambda -= Phi[k].diff(X[i]) * lambda[k];
        for (std::size_t r = 0; r < nr; ++r)
            if (weights.measurement[r] != 0.0)
                dlambda -= h[r].diff(X[i]) * GiNaC::numeric(weights.measurement[r]) * eps[r];
        result.states.push_back({"lambda_" + layout.stateNames[i], lambda[i], dlambda.subs(solvedP), 0, {}, {}});
    }
    for (const symbol& s : measuredSymbols)
        result.inputs.push_back({s.get_name(), s, {}, {}, {}});
    for (std::size_t k = 0; k < np; ++k)
        result.outputs.push_back({layout.unknownInputNames[k], solvedP[P[k]], {}, {}, false});
    for (std::size_t i = 0; i < N; ++i)
        result.outputs.push_back(
            {"xi:" + layout.stateNames[i], lambda[i] / GiNaC::numeric(weights.state[i]), {}, {}, false});
    for (std::size_t r = 0; r < nr; ++r)
        result.outputs.push_back({"eps:" + layout.residualNames[r], eps[r].subs(solvedP), {}, {}, false});
    result.outputsDeclared = true;
    return result;
}

}  // namespace sysid::estimate
