#include "engine/eval/CompiledModelSource.h"

#include "engine/eval/MuParserPrinter.h"
#include "engine/eval/NativeCode.h"
#include "engine/eval/SwitchedForm.h"
#include "engine/model/ExpressionLimits.h"
#include "engine/model/Model.h"
#include "engine/model/ModelError.h"

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

// The derivatives of `functions` at the entries of `pattern` (d/d first[column], then d/d depth[depth]
// when `depth` is given): the switched form's Jacobians on the model's own sparsity.
SparseExpressions onPattern(const std::vector<ex>& functions, const SparseExpressions& pattern,
                            const std::vector<GiNaC::symbol>& first, const std::vector<GiNaC::symbol>* depth,
                            const SymbolNames& names)
{
    SparseExpressions result;
    result.entries = pattern.entries;
    for (const auto& e : pattern.entries) {
        ex d = functions[e.row].diff(first[e.column]);
        if (depth)
            d = d.diff((*depth)[e.depth]);
        result.expressions.push_back(toMuParser(d, names));
    }
    return result;
}

FunctionsWithGradients withGradients(const std::vector<ex>& functions, const std::vector<GiNaC::symbol>& states,
                                     const std::vector<GiNaC::symbol>& params,
                                     const std::vector<GiNaC::symbol>& timeAndInputs, const SymbolNames& names)
{
    FunctionsWithGradients result;
    for (const auto& f : functions)
        result.values.push_back(toMuParser(f, names));
    result.state = derivatives(functions, states, names);
    result.parameter = derivatives(functions, params, names);
    result.timeInput = derivatives(functions, timeAndInputs, names);
    return result;
}

// The switched form of the right-hand side and the compiled resets (empty for a smooth model
// without `when`).
void compileDiscontinuities(const model::Model& model, const std::vector<GiNaC::symbol>& states,
                            const std::vector<GiNaC::symbol>& params, const std::vector<GiNaC::symbol>& timeAndInputs,
                            SymbolNames names, std::size_t firstMode, CompiledModelSource& source)
{
    std::vector<GiNaC::symbol> dynamic = timeAndInputs;
    dynamic.insert(dynamic.end(), states.begin(), states.end());
    SwitchedForm form(dynamic);
    std::vector<ex> rhs;
    for (const auto& s : model.states)
        rhs.push_back(form.substitute(s.rhs));
    std::vector<ex> conditions;
    std::vector<std::vector<ex>> values;
    for (const auto& e : model.events) {
        conditions.push_back(form.substitute(e.condition));
        values.emplace_back();
        for (const auto& a : e.assignments)
            values.back().push_back(form.substitute(a.value));
    }
    if (form.size() == 0 && model.events.empty())
        return;
    for (std::size_t i = 0; i < form.size(); ++i)
        names[form.modes()[i]] = "v" + std::to_string(firstMode + i);

    auto& sw = source.switches;
    if (form.size() > 0) {
        sw.written = form.written();
        sw.functions = withGradients(form.functions(), states, params, timeAndInputs, names);
        for (const auto& f : rhs)
            sw.rhs.push_back(toMuParser(f, names));
        sw.rhsStateJacobian = onPattern(rhs, source.rhsStateJacobian, states, nullptr, names);
        sw.rhsParamJacobian = onPattern(rhs, source.rhsParamJacobian, params, nullptr, names);
        sw.rhsTimeInputJacobian = onPattern(rhs, source.rhsTimeInputJacobian, timeAndInputs, nullptr, names);
        if (source.hasSecondDerivatives) {
            std::vector<GiNaC::symbol> depth = states;
            depth.insert(depth.end(), timeAndInputs.begin(), timeAndInputs.end());
            sw.rhsStateHessian = onPattern(rhs, source.rhsStateHessian, states, &depth, names);
            sw.rhsMixedHessian = onPattern(rhs, source.rhsMixedHessian, params, &depth, names);
        }
        sw.rhsModeJacobian = derivatives(rhs, form.modes(), names);
        std::vector<ex> lie;
        for (const auto& g : form.functions()) {
            ex rate = g.diff(timeAndInputs.front());
            for (std::size_t j = 0; j < states.size(); ++j)
                rate += g.diff(states[j]) * rhs[j];
            lie.push_back(rate);
        }
        sw.lie = withGradients(lie, states, params, timeAndInputs, names);
        sw.lieMode = derivatives(lie, form.modes(), names);
    }
    for (std::size_t k = 0; k < model.events.size(); ++k) {
        const auto& e = model.events[k];
        EventSource compiled;
        compiled.text = e.text;
        compiled.line = e.where.line;
        compiled.direction = e.direction;
        compiled.condition = withGradients({conditions[k]}, states, params, timeAndInputs, names);
        for (const auto& a : e.assignments)
            compiled.states.push_back(a.state);
        compiled.values = withGradients(values[k], states, params, timeAndInputs, names);
        source.events.push_back(std::move(compiled));
    }
}

// The invariants of a DAE model and which algebraic rows Baumgarte's terms stabilise.
void compileConstraints(const model::Model& model, const std::vector<GiNaC::symbol>& states,
                        const std::vector<GiNaC::symbol>& params, const std::vector<GiNaC::symbol>& timeAndInputs,
                        const SymbolNames& names, CompiledModelSource& source)
{
    auto& c = source.constraints;
    c.algebraic = model.algebraicCount();
    if (c.algebraic == 0)
        return;
    c.index = model.differentiationIndex;
    for (const auto& s : model.states)
        c.heldInitial.push_back(s.heldInitial ? 1 : 0);
    std::vector<ex> invariants;
    const std::size_t firstAlgebraic = model.states.size() - c.algebraic;
    for (std::size_t k = 0; k < model.constraints.size(); ++k) {
        const auto& constraint = model.constraints[k];
        ConstraintSource::Stabilised row;
        row.row = firstAlgebraic + k;
        const std::size_t levels = constraint.hidden.size();
        for (std::size_t level = 0; level < levels; ++level) {
            if (level + 1 == levels)
                row.first = static_cast<int>(invariants.size());
            if (level + 2 == levels)
                row.second = static_cast<int>(invariants.size());
            invariants.push_back(constraint.hidden[level]);
            c.invariantInfo.push_back({constraint.text, model.place(constraint.where), level});
        }
        if (levels > 0)
            c.stabilised.push_back(row);
    }
    c.invariants = withGradients(invariants, states, params, timeAndInputs, names);
}

}  // namespace

namespace {

std::shared_ptr<const CompiledModelSource> compile(const model::Model& model, CompileOptions options);

}  // namespace

std::shared_ptr<const CompiledModelSource> compileModel(const model::Model& model, CompileOptions options)
{
    try {
        return compile(model, options);
    } catch (const sysid::model::ModelError&) {
        throw;
    } catch (const std::invalid_argument& e) {
        // Our own words (a complex constant, a model too large to evaluate).
        throw sysid::model::ModelError(model.source, {{{}, std::string("the model cannot be compiled: ") + e.what()}});
    } catch (const std::exception& e) {
        // GiNaC failing while it differentiates: in words, and with the model's name.
        throw sysid::model::ModelError(
            model.source, {{{}, "the model cannot be compiled: " + sysid::model::describeSymbolicFailure(e)}});
    }
}

namespace {

std::shared_ptr<const CompiledModelSource> compile(const model::Model& model, CompileOptions options)
{
    const PrintBudget budget(kModelPrintBudget);
    auto source = std::make_shared<CompiledModelSource>();
    source->native = std::make_shared<NativeCode>();
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
        source->outputUnits.push_back(o.unit);
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
    // Only Rosenbrock4 with sensitivities and the equation-error estimators use second derivatives;
    // neither takes a model with algebraic variables.
    source->hasSecondDerivatives = options.secondDerivatives && model.algebraicCount() == 0;
    if (source->hasSecondDerivatives) {
        source->rhsStateHessian = secondDerivatives(rhs, states, depth, names);
        source->rhsMixedHessian = secondDerivatives(rhs, params, depth, names);
        source->rhsParamHessian = secondDerivatives(rhs, params, params, names, true);
    }
    source->outputStateJacobian = derivatives(outputs, states, names);
    source->outputParamJacobian = derivatives(outputs, params, names);
    source->initialStateJacobian = derivatives(initial, params, names);
    compileConstraints(model, states, params, timeAndInputs, names, *source);
    compileDiscontinuities(model, states, params, timeAndInputs, names, next, *source);
    return source;
}

}  // namespace

}  // namespace sysid::eval
