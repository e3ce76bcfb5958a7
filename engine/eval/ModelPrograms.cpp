#include "engine/eval/ModelPrograms.h"

#include <stdexcept>

namespace sysid::eval {

namespace {

void append(std::vector<std::string>& all, const std::vector<std::string>& part)
{
    all.insert(all.end(), part.begin(), part.end());
}

}  // namespace

std::size_t invariantSlot(const CompiledModelSource& source)
{
    return kFirstGradientSlot + 2 + 2 * source.events.size();
}

std::size_t programSlotCount(const CompiledModelSource& source)
{
    return invariantSlot(source) + 1;
}

bool hasProgram(const CompiledModelSource& s, std::size_t slot)
{
    if (slot >= kFirstGradientSlot) {
        if (slot == kSwitchingGradientSlot || slot == kLieGradientSlot)
            return s.switchCount() > 0;
        if (slot == invariantSlot(s))
            return s.isDae();
        return slot < invariantSlot(s);
    }
    const bool switched = slot >= ProgramCount;
    const auto p = static_cast<Program>(switched ? slot - ProgramCount : slot);
    if (switched && (p >= Outputs || s.switchCount() == 0))
        return false;
    switch (p) {
    case StateHessian:
    case MixedHessian: return s.hasSecondDerivatives;
    case Switching:
    case RhsModeJacobian:
    case LieRates: return s.switchCount() > 0;
    case EventConditions: return !s.events.empty();
    default: return true;
    }
}

const FunctionsWithGradients& gradientFunctions(const CompiledModelSource& s, std::size_t slot)
{
    if (slot == kSwitchingGradientSlot)
        return s.switches.functions;
    if (slot == kLieGradientSlot)
        return s.switches.lie;
    if (slot == invariantSlot(s))
        return s.constraints.invariants;
    if (slot < kFirstGradientSlot || slot > invariantSlot(s))
        throw std::logic_error("no gradient program in slot " + std::to_string(slot));
    const std::size_t k = slot - kFirstGradientSlot - 2;
    return k % 2 == 0 ? s.events[k / 2].condition : s.events[k / 2].values;
}

const SparseExpressions* gradientExtra(const CompiledModelSource& s, std::size_t slot)
{
    return slot == kLieGradientSlot ? &s.switches.lieMode : nullptr;
}

std::vector<DensePart> denseLayout(const CompiledModelSource& s, std::size_t slot)
{
    if (slot >= kFirstGradientSlot)
        return {};
    const std::size_t n = s.stateCount(), np = s.parameterCount(), nu = s.inputCount(), ny = s.outputCount();
    const std::size_t ns = s.switchCount();
    const auto p = static_cast<Program>(slot >= ProgramCount ? slot - ProgramCount : slot);
    const DensePart f{nullptr, n, 1};
    // The switched form's Jacobians have the entries of the model's own.
    switch (p) {
    case StateJacobian: return {{&s.rhsStateJacobian, n, n}};
    case ParameterJacobian: return {{&s.rhsParamJacobian, n, np}};
    case TimeInputJacobian: return {{&s.rhsTimeInputJacobian, n, 1 + nu}};
    case RhsWithStateJacobian: return {f, {&s.rhsStateJacobian, n, n}};
    case RhsWithJacobians: return {f, {&s.rhsStateJacobian, n, n}, {&s.rhsParamJacobian, n, np}};
    case OutputStateJacobian: return {{&s.outputStateJacobian, ny, n}};
    case OutputParameterJacobian: return {{&s.outputParamJacobian, ny, np}};
    case InitialJacobian: return {{&s.initialStateJacobian, n, np}};
    case RhsModeJacobian: return {{&s.switches.rhsModeJacobian, n, ns}};
    case LieRates: return {{nullptr, ns, 1}, {&s.switches.lieMode, ns, ns}};
    default: return {};
    }
}

std::vector<std::string> programExpressions(const CompiledModelSource& s, std::size_t slot)
{
    std::vector<std::string> all;
    if (slot >= kFirstGradientSlot) {
        const auto& functions = gradientFunctions(s, slot);
        all = functions.values;
        for (const auto* part : {&functions.state, &functions.parameter, &functions.timeInput, gradientExtra(s, slot)})
            if (part)
                append(all, part->expressions);
        return all;
    }
    const bool switched = slot >= ProgramCount;
    const auto p = static_cast<Program>(switched ? slot - ProgramCount : slot);
    // The switched form has the same entry patterns (CompiledModelSource::switches).
    const auto& rhs = switched ? s.switches.rhs : s.rhs;
    const auto& jx = switched ? s.switches.rhsStateJacobian : s.rhsStateJacobian;
    const auto& jp = switched ? s.switches.rhsParamJacobian : s.rhsParamJacobian;
    const auto& jtu = switched ? s.switches.rhsTimeInputJacobian : s.rhsTimeInputJacobian;
    const auto& hx = switched ? s.switches.rhsStateHessian : s.rhsStateHessian;
    const auto& hp = switched ? s.switches.rhsMixedHessian : s.rhsMixedHessian;
    switch (p) {
    case Rhs: return rhs;
    case StateJacobian: return jx.expressions;
    case ParameterJacobian: return jp.expressions;
    case TimeInputJacobian: return jtu.expressions;
    case StateHessian:
    case MixedHessian:
        requireSecondDerivatives(s, "evaluating d2f/dx dz or d2f/dp dz");
        return p == StateHessian ? hx.expressions : hp.expressions;
    case RhsWithStateJacobian:
    case RhsWithJacobians:
        all = rhs;
        append(all, jx.expressions);
        if (p == RhsWithJacobians)
            append(all, jp.expressions);
        return all;
    case Outputs: return s.outputs;
    case OutputStateJacobian: return s.outputStateJacobian.expressions;
    case OutputParameterJacobian: return s.outputParamJacobian.expressions;
    case Initial: return s.initialState;
    case InitialJacobian: return s.initialStateJacobian.expressions;
    case Switching: return s.switches.functions.values;
    case RhsModeJacobian: return s.switches.rhsModeJacobian.expressions;
    case EventConditions:
        for (const auto& e : s.events)
            all.push_back(e.condition.values.front());
        return all;
    case LieRates:
        all = s.switches.lie.values;
        append(all, s.switches.lieMode.expressions);
        return all;
    case ProgramCount: break;
    }
    throw std::logic_error("CompiledModel: no such program");
}

}  // namespace sysid::eval
