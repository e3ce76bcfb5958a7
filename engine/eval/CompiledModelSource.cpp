#include "engine/eval/CompiledModelSource.h"

#include "engine/eval/MuParserPrinter.h"

#include <stdexcept>

namespace sysid::eval {

namespace {

using GiNaC::ex;

SparseExpressions derivatives(const std::vector<ex>& functions, const std::vector<GiNaC::symbol>& variables,
                              const SymbolNames& names)
{
    SparseExpressions result;
    for (std::size_t i = 0; i < functions.size(); ++i)
        for (std::size_t j = 0; j < variables.size(); ++j) {
            if (!functions[i].has(variables[j]))
                continue;
            const ex d = functions[i].diff(variables[j]);
            if (d.is_zero())
                continue;
            result.entries.push_back({i, j, 0});
            result.expressions.push_back(toMuParser(d, names));
        }
    return result;
}

// Second derivatives d/dx_k of each nonzero first derivative; only Rosenbrock with
// sensitivities and the equation-error estimators need them, and most vanish, so only nonzeros
// are kept. `symmetric` (first and states the same variables): only k >= j.
SparseExpressions secondDerivatives(const std::vector<ex>& functions, const std::vector<GiNaC::symbol>& first,
                                    const std::vector<GiNaC::symbol>& states, const SymbolNames& names,
                                    bool symmetric = false)
{
    SparseExpressions result;
    for (std::size_t i = 0; i < functions.size(); ++i)
        for (std::size_t j = 0; j < first.size(); ++j) {
            if (!functions[i].has(first[j]))
                continue;
            const ex d = functions[i].diff(first[j]);
            for (std::size_t k = symmetric ? j : 0; k < states.size(); ++k) {
                if (!d.has(states[k]))
                    continue;
                const ex d2 = d.diff(states[k]);
                if (d2.is_zero())
                    continue;
                result.entries.push_back({i, j, k});
                result.expressions.push_back(toMuParser(d2, names));
            }
        }
    return result;
}

}  // namespace

std::shared_ptr<const CompiledModelSource> compileModel(const model::Model& model, CompileOptions options)
{
    auto source = std::make_shared<CompiledModelSource>();
    source->fields = model.fields;
    SymbolNames names;
    std::size_t next = 0;
    names[model.time] = "v" + std::to_string(next++);
    std::vector<GiNaC::symbol> states, params;
    for (const auto& s : model.states) {
        names[s.symbol] = "v" + std::to_string(next++);
        states.push_back(s.symbol);
        source->stateNames.push_back(s.name);
    }
    for (std::size_t i = 0; i < model.parameters.size(); ++i) {
        names[model.parameterSymbols[i]] = "v" + std::to_string(next++);
        params.push_back(model.parameterSymbols[i]);
        source->parameterNames.push_back(model.parameters[i].name);
        source->parameterValues.push_back(model.parameters[i].value);
        source->parameters.push_back(model.parameters[i]);
    }
    source->declaredIntersample = model.declaredIntersample();
    for (const auto& u : model.inputs) {
        names[u.symbol] = "v" + std::to_string(next++);
        source->inputNames.push_back(u.name);
    }

    std::vector<ex> rhs, outputs, initial;
    for (const auto& s : model.states) {
        rhs.push_back(s.rhs);
        initial.push_back(s.initial);
    }
    for (const auto& o : model.outputs) {
        outputs.push_back(o.expression);
        source->outputNames.push_back(o.name);
        int state = -1;
        for (std::size_t i = 0; i < states.size(); ++i)
            if (o.expression.is_equal(states[i]))
                state = static_cast<int>(i);
        source->outputState.push_back(state);
    }
    for (const auto& e : rhs)
        source->rhs.push_back(toMuParser(e, names));
    for (const auto& e : outputs)
        source->outputs.push_back(toMuParser(e, names));
    for (const auto& e : initial)
        source->initialState.push_back(toMuParser(e, names));
    source->rhsStateJacobian = derivatives(rhs, states, names);
    source->rhsParamJacobian = derivatives(rhs, params, names);
    std::vector<GiNaC::symbol> timeAndInputs{model.time};
    for (const auto& u : model.inputs)
        timeAndInputs.push_back(u.symbol);
    std::vector<GiNaC::symbol> depth = states;
    depth.insert(depth.end(), timeAndInputs.begin(), timeAndInputs.end());
    source->rhsTimeInputJacobian = derivatives(rhs, timeAndInputs, names);
    source->hasSecondDerivatives = options.secondDerivatives;
    if (options.secondDerivatives) {
        source->rhsStateHessian = secondDerivatives(rhs, states, depth, names);
        source->rhsMixedHessian = secondDerivatives(rhs, params, depth, names);
        source->rhsParamHessian = secondDerivatives(rhs, params, params, names, true);
    }
    source->outputStateJacobian = derivatives(outputs, states, names);
    source->outputParamJacobian = derivatives(outputs, params, names);
    source->initialStateJacobian = derivatives(initial, params, names);
    return source;
}

}  // namespace sysid::eval
