#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::eval {

// The evaluation programs of a compiled model: which expressions of its CompiledModelSource each
// one evaluates, in which order. The interpreter (CompiledModel's tapes) and the native code
// (NativeCode) both read this table, so the two evaluate the same lists.
enum Program : std::size_t {
    Rhs,
    StateJacobian,
    ParameterJacobian,
    TimeInputJacobian,
    StateHessian,
    MixedHessian,
    RhsWithStateJacobian,  // f, then the nonzeros of df/dx
    RhsWithJacobians,  // f, df/dx, df/dp
    Outputs,
    OutputStateJacobian,
    OutputParameterJacobian,
    Initial,
    InitialJacobian,
    // The switched form only.
    Switching,
    RhsModeJacobian,
    EventConditions,
    LieRates,
    ProgramCount
};

// Program slots: [0, ProgramCount) as written; ProgramCount + p the switched form of p (the
// right-hand side's programs, p < Outputs: f on held modes); from kFirstGradientSlot on, the
// functions with their gradients (FunctionsWithGradients): the switching functions, their Lie
// derivatives (with dL/dm), then each event's condition and reset values, then the invariants.
inline constexpr std::size_t kFirstGradientSlot = 2 * ProgramCount;
inline constexpr std::size_t kSwitchingGradientSlot = kFirstGradientSlot;
inline constexpr std::size_t kLieGradientSlot = kFirstGradientSlot + 1;
inline std::size_t eventConditionSlot(std::size_t event)
{
    return kFirstGradientSlot + 2 + 2 * event;
}
inline std::size_t eventResetSlot(std::size_t event)
{
    return kFirstGradientSlot + 3 + 2 * event;
}
std::size_t invariantSlot(const CompiledModelSource& source);
std::size_t programSlotCount(const CompiledModelSource& source);

// The slot of program p in the form selected by `switched` (p < Outputs only have a switched form).
inline std::size_t programSlot(Program p, bool switched)
{
    return switched && p < Outputs ? ProgramCount + p : p;
}

// Whether the model has this program (the switched form only with switches, the Hessians only
// with second derivatives, events and invariants only where the model has them).
bool hasProgram(const CompiledModelSource& source, std::size_t slot);

// The expressions of a slot, in evaluation order. A gradient slot lists the values, then the
// nonzeros of the state, parameter and (time, input) gradients, then (Lie derivatives) dL/dm.
std::vector<std::string> programExpressions(const CompiledModelSource& source, std::size_t slot);

// How a program's values land in the caller's arrays: each part is either `rows` plain values
// (pattern null) or a dense column-major rows x columns array holding a pattern's nonzeros in
// order (zero elsewhere). Parts follow each other in the program's values.
struct DensePart {
    const SparseExpressions* pattern = nullptr;
    std::size_t rows = 0, columns = 0;
    std::size_t count() const { return pattern ? pattern->entries.size() : rows; }
    std::size_t size() const { return pattern ? rows * columns : rows; }
};
// The parts of a program the model returns in dense form (its Jacobians, f with them); empty for
// the others, whose values are returned as they are.
std::vector<DensePart> denseLayout(const CompiledModelSource& source, std::size_t slot);

// The functions and extra mode gradient of a gradient slot.
const FunctionsWithGradients& gradientFunctions(const CompiledModelSource& source, std::size_t slot);
const SparseExpressions* gradientExtra(const CompiledModelSource& source, std::size_t slot);

}  // namespace sysid::eval
