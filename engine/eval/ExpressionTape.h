#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sysid::eval {

// Expressions in the syntax MuParserPrinter writes (numbers, variables, + - * / ^, calls of
// sin cos tan asin acos atan atan2 sinh cosh tanh exp ln sqrt abs sign min max) compiled
// together into one straight-line program in static single assignment form. Equal
// subexpressions, within one expression or across the list, are computed once, and constant
// parts are folded. An evaluation is one pass over a flat instruction array, several times
// faster than muParser's interpreter for the many small, repetitive expressions of a model and
// its derivatives (docs/DECISIONS.md, "Model evaluation").
class ExpressionTape {
public:
    struct Variable {
        std::string name;
        const double* address;
    };

    ExpressionTape() = default;
    // Throws std::invalid_argument naming the expression and the position of a syntax error.
    ExpressionTape(const std::vector<std::string>& expressions, const std::vector<Variable>& variables);

    std::size_t size() const { return results_.size(); }
    std::size_t instructionCount() const { return code_.size(); }
    // Reads the variables through their addresses and writes size() values to out.
    void evaluate(double* out) const;

    enum class Op : std::uint8_t {
        Add,
        Sub,
        Mul,
        Div,
        Neg,
        Pow,
        Sqrt,
        Sin,
        Cos,
        Tan,
        Asin,
        Acos,
        Atan,
        Atan2,
        Sinh,
        Cosh,
        Tanh,
        Exp,
        Log,
        Abs,
        Sign,
        Min,
        Max
    };
    struct Instruction {
        Op op;
        std::uint32_t a, b;  // operand registers
    };

    // The program as data, for a code generator (NativeCode): registers are the used variables
    // (variableNames(), in register order), then the constants, then one per instruction.
    const std::vector<Instruction>& code() const { return code_; }
    const std::vector<std::string>& variableNames() const { return variableNames_; }
    std::vector<double> constants() const;
    const std::vector<std::uint32_t>& results() const { return results_; }
    static bool isUnary(Op op);

private:
    friend class TapeBuilder;
    // Registers: the variables the expressions use (copied in at each evaluation), the
    // constants, then one per instruction in order.
    std::vector<Instruction> code_;
    std::vector<const double*> variables_;  // of the used variables, in register order
    std::vector<std::string> variableNames_;  // their names
    std::vector<std::uint32_t> results_;
    mutable std::vector<double> registers_;
    std::size_t fixedRegisters_ = 0;  // variables + constants: the first instruction's register
};

}  // namespace sysid::eval
