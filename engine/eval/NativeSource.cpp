#include "engine/eval/NativeSource.h"

#include "engine/eval/ExpressionTape.h"
#include "engine/eval/ModelPrograms.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace sysid::eval {

namespace {

using Op = ExpressionTape::Op;

// A double as a C literal that reads back exactly.
std::string literal(double value)
{
    if (std::isnan(value))
        return "(0.0 / 0.0)";
    if (std::isinf(value))
        return value > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
    char text[64];
    std::snprintf(text, sizeof text, "%a", value);
    return std::string("(") + text + ")";
}

std::string reg(std::uint32_t r)
{
    return "r" + std::to_string(r);
}

const char* functionName(Op op)
{
    switch (op) {
    case Op::Pow: return "pow";
    case Op::Sqrt: return "sqrt";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Tan: return "tan";
    case Op::Asin: return "asin";
    case Op::Acos: return "acos";
    case Op::Atan: return "atan";
    case Op::Atan2: return "atan2";
    case Op::Sinh: return "sinh";
    case Op::Cosh: return "cosh";
    case Op::Tanh: return "tanh";
    case Op::Exp: return "exp";
    case Op::Log: return "log";
    case Op::Abs: return "fabs";
    default: return nullptr;
    }
}

// One instruction as a C expression of its operand registers, the tape's operation exactly
// (ExpressionTape::evaluate).
std::string operation(const ExpressionTape::Instruction& in)
{
    const std::string a = reg(in.a), b = reg(in.b);
    switch (in.op) {
    case Op::Add: return a + " + " + b;
    case Op::Sub: return a + " - " + b;
    case Op::Mul: return a + " * " + b;
    case Op::Div: return a + " / " + b;
    case Op::Neg: return "-" + a;
    case Op::Sign: return a + " > 0 ? 1.0 : (" + a + " < 0 ? -1.0 : 0.0)";
    case Op::Min: return a + " < " + b + " ? " + a + " : " + b;
    case Op::Max: return a + " > " + b + " ? " + a + " : " + b;
    default: break;
    }
    const char* name = functionName(in.op);
    if (!name)
        throw std::logic_error("native code: an operation without a C spelling");
    return std::string(name) + "(" + a + (ExpressionTape::isUnary(in.op) ? "" : ", " + b) + ")";
}

// Where variable i of [t, x, p, u, m] is read: t and x from the caller's arguments (no copy into the
// evaluator per call), the rest from v.
std::string variable(std::size_t i, std::size_t states)
{
    if (i == 0)
        return "t";
    if (i <= states)
        return "x[" + std::to_string(i - 1) + "]";
    return "v[" + std::to_string(i) + "]";
}

// The program's statements: its variables, its constants, its instructions.
void writeBody(std::string& out, const ExpressionTape& tape, std::size_t states)
{
    const auto& names = tape.variableNames();
    std::uint32_t r = 0;
    for (const auto& name : names)
        out += "    const double " + reg(r++) + " = " + variable(std::stoul(name.substr(1)), states) + ";\n";
    for (double c : tape.constants())
        out += "    const double " + reg(r++) + " = " + literal(c) + ";\n";
    for (const auto& in : tape.code())
        out += "    const double " + reg(r++) + " = " + operation(in) + ";\n";
}

std::string result(const ExpressionTape& tape, std::size_t k)
{
    return reg(tape.results()[k]);
}

// Every function's leading arguments: the point (t, x) and the evaluator's variables v (p, u, m are
// read there; its t and x are not).
constexpr const char* kPoint = "double t, const double* restrict x, const double* restrict v";

void writeValues(std::string& out, std::size_t slot, const ExpressionTape& tape, std::size_t states)
{
    out += "void sysid_v" + std::to_string(slot) + "(" + kPoint + ", double* restrict out)\n{\n";
    writeBody(out, tape, states);
    for (std::size_t k = 0; k < tape.size(); ++k)
        out += "    out[" + std::to_string(k) + "] = " + result(tape, k) + ";\n";
    out += "}\n\n";
}

// Explicit zeros up to this many, else a loop (a method-of-lines model's n x n Jacobian).
constexpr std::size_t kUnrolledZeros = 256;

// A large program's other forms read its values function's results from a buffer instead of
// repeating its instructions: the compiler's time grows faster than the code.
constexpr std::size_t kRepeatedInstructions = 3000;

// The program's values, as registers or in a buffer (large programs); returns the name of
// result k through `result`.
void writeValuesOrCall(std::string& out, std::size_t slot, const ExpressionTape& tape, std::size_t states)
{
    if (tape.instructionCount() <= kRepeatedInstructions) {
        writeBody(out, tape, states);
        return;
    }
    out += "    static _Thread_local double values[" + std::to_string(tape.size()) + "];\n";
    out += "    sysid_v" + std::to_string(slot) + "(t, x, v, values);\n";
}

std::string resultOf(const ExpressionTape& tape, std::size_t k)
{
    if (tape.instructionCount() <= kRepeatedInstructions)
        return reg(tape.results()[k]);
    return "values[" + std::to_string(k) + "]";
}

void writeDense(std::string& out, std::size_t slot, const ExpressionTape& tape, const std::vector<DensePart>& layout,
                std::size_t states)
{
    out += "void sysid_d" + std::to_string(slot) + "(" + kPoint +
        ", double* restrict a, double* restrict b, double* restrict c)\n{\n";
    writeValuesOrCall(out, slot, tape, states);
    const char* arrays[] = {"a", "b", "c"};
    std::size_t k = 0;
    for (std::size_t part = 0; part < layout.size(); ++part) {
        const DensePart& d = layout[part];
        const std::string array = arrays[part];
        if (!d.pattern) {
            for (std::size_t i = 0; i < d.rows; ++i)
                out += "    " + array + "[" + std::to_string(i) + "] = " + resultOf(tape, k++) + ";\n";
            continue;
        }
        std::vector<std::size_t> positions;
        std::set<std::size_t> covered;
        for (const auto& e : d.pattern->entries) {
            positions.push_back(e.column * d.rows + e.row);
            covered.insert(positions.back());
        }
        if (d.size() > kUnrolledZeros) {
            out += "    for (size_t i = 0; i < " + std::to_string(d.size()) + "; ++i)\n        " + array +
                "[i] = 0.0;\n";
        } else {
            for (std::size_t i = 0; i < d.size(); ++i)
                if (!covered.count(i))
                    out += "    " + array + "[" + std::to_string(i) + "] = 0.0;\n";
        }
        for (std::size_t position : positions)
            out += "    " + array + "[" + std::to_string(position) + "] = " + resultOf(tape, k++) + ";\n";
    }
    out += "}\n\n";
}

// f and dS = df/dx S + df/dp for the columns of S. Each row sums its nonzeros in column order,
// as the dense product over the same Jacobian (SensitivitySystem) does.
void writeSensitivity(std::string& out, std::size_t slot, const ExpressionTape& tape, const CompiledModelSource& s,
                      bool parameters)
{
    const std::size_t n = s.stateCount();
    const std::string N = std::to_string(n);
    out += "void sysid_s" + std::to_string(slot) + "(" + kPoint +
        ", const double* restrict S, size_t m, const int* restrict column, double* restrict dx, double* restrict dS)\n{\n";
    writeValuesOrCall(out, slot, tape, n);
    for (std::size_t i = 0; i < n; ++i)
        out += "    dx[" + std::to_string(i) + "] = " + resultOf(tape, i) + ";\n";
    std::vector<std::string> rows(n);
    const auto& jx = s.rhsStateJacobian.entries;
    for (std::size_t k = 0; k < jx.size(); ++k)
        rows[jx[k].row] += std::string(rows[jx[k].row].empty() ? "" : " + ") + resultOf(tape, n + k) + " * s[" +
            std::to_string(jx[k].column) + "]";
    out += "    for (size_t c = 0; c < m; ++c) {\n";
    out += "        const double* restrict s = S + c * " + N + ";\n";
    out += "        double* restrict d = dS + c * " + N + ";\n";
    for (std::size_t i = 0; i < n; ++i)
        out += "        d[" + std::to_string(i) + "] = " + (rows[i].empty() ? std::string("0.0") : rows[i]) + ";\n";
    out += "    }\n";
    if (parameters && !s.rhsParamJacobian.entries.empty()) {
        out += "    int c;\n";
        const auto& jp = s.rhsParamJacobian.entries;
        for (std::size_t k = 0; k < jp.size(); ++k)
            out += "    c = column[" + std::to_string(jp[k].column) + "];\n    if (c >= 0)\n        dS[(size_t)c * " + N +
                " + " + std::to_string(jp[k].row) + "] += " + resultOf(tape, n + jx.size() + k) + ";\n";
    }
    out += "}\n\n";
}

// Larger programs stay with the interpreter: a mechanism's second derivatives in one angle run to
// tens of thousands of instructions, which take the C compiler minutes, and only Rosenbrock
// sensitivities and the equation-error estimators use them.
constexpr std::size_t kLargestProgram = 20000;

}  // namespace

std::string nativeSource(const CompiledModelSource& s)
{
    // The tapes read nothing here: they are built for their instructions, over stand-in addresses.
    std::vector<double> variables(1 + s.stateCount() + s.parameterCount() + s.inputCount() + s.switchCount());
    std::vector<ExpressionTape::Variable> bound;
    for (std::size_t i = 0; i < variables.size(); ++i)
        bound.push_back({"v" + std::to_string(i), &variables[i]});

    std::string out = "/* sysid: native code of one model, generated; see NativeSource.h */\n"
                      "#include <math.h>\n#include <stddef.h>\n\n";
    const std::size_t slots = programSlotCount(s);
    std::string table;
    for (std::size_t slot = 0; slot < slots; ++slot) {
        const std::string k = std::to_string(slot);
        std::string values = "0", dense = "0", sensitivity = "0";
        const auto expressions = hasProgram(s, slot) ? programExpressions(s, slot) : std::vector<std::string>{};
        if (!expressions.empty()) {
            const ExpressionTape tape(expressions, bound);
            if (tape.instructionCount() <= kLargestProgram) {
                writeValues(out, slot, tape, s.stateCount());
                values = "(sysid_function)sysid_v" + k;
                const auto layout = denseLayout(s, slot);
                if (!layout.empty()) {
                    writeDense(out, slot, tape, layout, s.stateCount());
                    dense = "(sysid_function)sysid_d" + k;
                }
                const std::size_t program = slot % ProgramCount;
                if (slot < kFirstGradientSlot && (program == RhsWithStateJacobian || program == RhsWithJacobians)) {
                    writeSensitivity(out, slot, tape, s, program == RhsWithJacobians);
                    sensitivity = "(sysid_function)sysid_s" + k;
                }
            }
        }
        table += "    " + values + ", " + dense + ", " + sensitivity + ",\n";
    }
    out += "\ntypedef void (*sysid_function)(void);\nconst size_t sysid_slots = " + std::to_string(slots) +
        ";\nconst sysid_function sysid_functions[] = {\n" + (table.empty() ? std::string("    0,\n") : table) +
        "};\n";
    return out;
}

}  // namespace sysid::eval
