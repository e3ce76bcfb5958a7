#include "engine/eval/ExpressionTape.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace sysid::eval {

namespace {

using Op = ExpressionTape::Op;

// An operand while building: a constant (index into the constants), a used variable (index
// into the used variables) or the result of an instruction (index into the code).
constexpr std::uint32_t kConstant = 0x80000000u;
constexpr std::uint32_t kVariable = 0x40000000u;
constexpr std::uint32_t kIndex = 0x3fffffffu;

double apply(Op op, double a, double b)
{
    switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Neg: return -a;
    case Op::Pow: return std::pow(a, b);
    case Op::Sqrt: return std::sqrt(a);
    case Op::Sin: return std::sin(a);
    case Op::Cos: return std::cos(a);
    case Op::Tan: return std::tan(a);
    case Op::Asin: return std::asin(a);
    case Op::Acos: return std::acos(a);
    case Op::Atan: return std::atan(a);
    case Op::Atan2: return std::atan2(a, b);
    case Op::Sinh: return std::sinh(a);
    case Op::Cosh: return std::cosh(a);
    case Op::Tanh: return std::tanh(a);
    case Op::Exp: return std::exp(a);
    case Op::Log: return std::log(a);
    case Op::Abs: return std::abs(a);
    case Op::Sign: return a > 0 ? 1.0 : (a < 0 ? -1.0 : 0.0);
    case Op::Min: return a < b ? a : b;
    case Op::Max: return a > b ? a : b;
    }
    throw std::logic_error("ExpressionTape: unknown operation");
}

struct FunctionInfo {
    Op op;
    int arity;  // -1: two or more (min, max)
};

const std::unordered_map<std::string_view, FunctionInfo>& functions()
{
    static const std::unordered_map<std::string_view, FunctionInfo> table{
        {"sin", {Op::Sin, 1}},   {"cos", {Op::Cos, 1}},   {"tan", {Op::Tan, 1}},     {"asin", {Op::Asin, 1}},
        {"acos", {Op::Acos, 1}}, {"atan", {Op::Atan, 1}}, {"atan2", {Op::Atan2, 2}}, {"sinh", {Op::Sinh, 1}},
        {"cosh", {Op::Cosh, 1}}, {"tanh", {Op::Tanh, 1}}, {"exp", {Op::Exp, 1}},     {"ln", {Op::Log, 1}},
        {"sqrt", {Op::Sqrt, 1}}, {"abs", {Op::Abs, 1}},   {"sign", {Op::Sign, 1}},   {"min", {Op::Min, -1}},
        {"max", {Op::Max, -1}}};
    return table;
}

bool commutative(Op op)
{
    return op == Op::Add || op == Op::Mul || op == Op::Min || op == Op::Max;
}

// One operand (b unused): negation, square root and the one-argument functions.
bool unary(Op op)
{
    return op == Op::Neg || op == Op::Sqrt || (op >= Op::Sin && op != Op::Atan2 && op != Op::Min && op != Op::Max);
}

}  // namespace

// Recursive-descent parser that emits hash-consed instructions as it goes.
class TapeBuilder {
public:
    TapeBuilder(ExpressionTape& tape, const std::vector<ExpressionTape::Variable>& variables) : tape_(tape)
    {
        for (std::size_t i = 0; i < variables.size(); ++i)
            names_.emplace(variables[i].name, variables[i].address);
    }

    void add(const std::string& expression)
    {
        text_ = expression;
        pos_ = 0;
        const std::uint32_t r = parseSum();
        skipSpace();
        if (pos_ != text_.size())
            fail("unexpected '" + std::string(1, text_[pos_]) + "'");
        results_.push_back(r);
    }

    void finish()
    {
        removeDeadCode();
        const auto variables = static_cast<std::uint32_t>(tape_.variables_.size());
        const auto constants = static_cast<std::uint32_t>(constants_.size());
        auto reg = [&](std::uint32_t ref) {
            if (ref & kConstant)
                return variables + (ref & kIndex);
            if (ref & kVariable)
                return ref & kIndex;
            return variables + constants + ref;
        };
        for (auto& in : tape_.code_) {
            in.a = reg(in.a);
            in.b = reg(in.b);
        }
        for (std::uint32_t r : results_)
            tape_.results_.push_back(reg(r));
        tape_.fixedRegisters_ = variables + constants;
        tape_.registers_.assign(variables + constants + tape_.code_.size(), 0.0);
        std::copy(constants_.begin(), constants_.end(), tape_.registers_.begin() + variables);
    }

private:
    // The rewrites above leave instructions no result needs (a negation folded into a
    // difference): they are dropped and the rest renumbered.
    void removeDeadCode()
    {
        auto& code = tape_.code_;
        std::vector<char> live(code.size(), 0);
        auto isCode = [](std::uint32_t ref) { return (ref & (kConstant | kVariable)) == 0; };
        for (std::uint32_t r : results_)
            if (isCode(r))
                live[r] = 1;
        for (std::size_t i = code.size(); i-- > 0;) {
            if (!live[i])
                continue;
            if (isCode(code[i].a))
                live[code[i].a] = 1;
            if (!unary(code[i].op) && isCode(code[i].b))
                live[code[i].b] = 1;
        }
        std::vector<std::uint32_t> index(code.size(), 0);
        std::size_t kept = 0;
        auto renumber = [&](std::uint32_t ref) { return isCode(ref) ? index[ref] : ref; };
        for (std::size_t i = 0; i < code.size(); ++i) {
            if (!live[i])
                continue;
            index[i] = static_cast<std::uint32_t>(kept);
            ExpressionTape::Instruction in = code[i];
            in.a = renumber(in.a);
            in.b = renumber(in.b);
            code[kept++] = in;
        }
        code.resize(kept);
        for (auto& r : results_)
            r = renumber(r);
    }

    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::invalid_argument("internal error compiling the model for evaluation: " + what + " at position " +
                                    std::to_string(pos_ + 1) + " of: " + std::string(text_.substr(0, 200)));
    }

    void skipSpace()
    {
        while (pos_ < text_.size() && text_[pos_] == ' ')
            ++pos_;
    }

    bool accept(char c)
    {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    std::uint32_t constant(double value)
    {
        std::uint64_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        const auto [it, fresh] = constantIndex_.emplace(bits, static_cast<std::uint32_t>(constants_.size()));
        if (fresh)
            constants_.push_back(value);
        return it->second | kConstant;
    }

    bool isConstant(std::uint32_t ref) const { return (ref & kConstant) != 0; }
    double valueOf(std::uint32_t ref) const { return constants_[ref & kIndex]; }
    bool isInstruction(std::uint32_t ref, Op op) const
    {
        return (ref & (kConstant | kVariable)) == 0 && tape_.code_[ref].op == op;
    }

    std::uint32_t variable(const std::string& name, const double* address)
    {
        const auto [it, fresh] = variableIndex_.emplace(address, static_cast<std::uint32_t>(tape_.variables_.size()));
        if (fresh) {
            tape_.variables_.push_back(address);
            tape_.variableNames_.push_back(name);
        }
        return it->second | kVariable;
    }

    std::uint32_t emit(Op op, std::uint32_t a, std::uint32_t b = 0)
    {
        const bool single = unary(op);
        if (isConstant(a) && (single || isConstant(b)))
            return constant(apply(op, valueOf(a), single ? 0.0 : valueOf(b)));
        if (single)
            b = 0;
        // The printer writes a negation as a product with -1 and a difference as a sum with it.
        if (op == Op::Mul && (isConstant(a) || isConstant(b))) {
            const std::uint32_t other = isConstant(a) ? b : a;
            const double factor = valueOf(isConstant(a) ? a : b);
            if (factor == 1.0)
                return other;
            if (factor == -1.0)
                return emit(Op::Neg, other);
        }
        if (op == Op::Mul && isInstruction(a, Op::Neg))
            return emit(Op::Neg, emit(Op::Mul, tape_.code_[a].a, b));
        if (op == Op::Mul && isInstruction(b, Op::Neg))
            return emit(Op::Neg, emit(Op::Mul, a, tape_.code_[b].a));
        if (op == Op::Add && isInstruction(b, Op::Neg))
            return emit(Op::Sub, a, tape_.code_[b].a);
        if (op == Op::Add && isInstruction(a, Op::Neg))
            return emit(Op::Sub, b, tape_.code_[a].a);
        if (commutative(op) && b < a)
            std::swap(a, b);
        const std::uint64_t key = (static_cast<std::uint64_t>(a) << 32 | b) * 31 + static_cast<std::uint64_t>(op);
        auto range = instructionIndex_.equal_range(key);
        for (auto it = range.first; it != range.second; ++it) {
            const auto& in = tape_.code_[it->second];
            if (in.op == op && in.a == a && in.b == b)
                return it->second;
        }
        const auto index = static_cast<std::uint32_t>(tape_.code_.size());
        tape_.code_.push_back({op, a, b});
        instructionIndex_.emplace(key, index);
        return index;
    }

    std::uint32_t parseSum()
    {
        std::uint32_t left = parseProduct();
        while (true) {
            if (accept('+'))
                left = emit(Op::Add, left, parseProduct());
            else if (accept('-'))
                left = emit(Op::Sub, left, parseProduct());
            else
                return left;
        }
    }

    std::uint32_t parseProduct()
    {
        std::uint32_t left = parseUnary();
        while (true) {
            if (accept('*'))
                left = emit(Op::Mul, left, parseUnary());
            else if (accept('/'))
                left = emit(Op::Div, left, parseUnary());
            else
                return left;
        }
    }

    std::uint32_t parseUnary()
    {
        if (accept('-'))
            return emit(Op::Neg, parseUnary());
        if (accept('+'))
            return parseUnary();
        return parsePower();
    }

    std::uint32_t parsePower()
    {
        const std::uint32_t base = parsePrimary();
        if (!accept('^'))
            return base;
        return power(base, parseUnary());  // right associative, as in muParser
    }

    // Small integer powers by repeated squaring (the squares are shared through the hash-consing).
    std::uint32_t power(std::uint32_t base, std::uint32_t exponent)
    {
        if (isConstant(exponent)) {
            const double e = valueOf(exponent);
            if (e == 0.5)
                return emit(Op::Sqrt, base);
            if (e == std::floor(e) && std::abs(e) <= 64) {
                auto n = static_cast<long>(std::abs(e));
                std::uint32_t result = constant(1.0), square = base;
                bool first = true;
                while (n > 0) {
                    if (n & 1) {
                        result = first ? square : emit(Op::Mul, result, square);
                        first = false;
                    }
                    n >>= 1;
                    if (n > 0)
                        square = emit(Op::Mul, square, square);
                }
                return e < 0 ? emit(Op::Div, constant(1.0), result) : result;
            }
        }
        return emit(Op::Pow, base, exponent);
    }

    std::uint32_t parsePrimary()
    {
        skipSpace();
        if (pos_ >= text_.size())
            fail("unexpected end");
        const char c = text_[pos_];
        if (c == '(') {
            ++pos_;
            const std::uint32_t inner = parseSum();
            if (!accept(')'))
                fail("missing ')'");
            return inner;
        }
        if ((c >= '0' && c <= '9') || c == '.') {
            double value = 0.0;
            const auto result = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
            if (result.ec != std::errc())
                fail("malformed number");
            pos_ = static_cast<std::size_t>(result.ptr - text_.data());
            return constant(value);
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = pos_;
            while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
                ++pos_;
            const std::string_view name = text_.substr(start, pos_ - start);
            if (accept('('))
                return call(name);
            const auto it = names_.find(std::string(name));
            if (it == names_.end())
                fail("unknown variable '" + std::string(name) + "'");
            return variable(it->first, it->second);
        }
        fail("unexpected '" + std::string(1, c) + "'");
    }

    std::uint32_t call(std::string_view name)
    {
        const auto it = functions().find(name);
        if (it == functions().end())
            fail("unknown function '" + std::string(name) + "'");
        std::vector<std::uint32_t> args{parseSum()};
        while (accept(','))
            args.push_back(parseSum());
        if (!accept(')'))
            fail("missing ')' after the arguments of " + std::string(name));
        const auto [op, arity] = it->second;
        if ((arity > 0 && args.size() != static_cast<std::size_t>(arity)) || (arity < 0 && args.size() < 2))
            fail(std::string(name) + " called with " + std::to_string(args.size()) + " arguments");
        std::uint32_t result = args[0];
        if (arity == 1)
            return emit(op, result);
        for (std::size_t i = 1; i < args.size(); ++i)
            result = emit(op, result, args[i]);
        return result;
    }

    ExpressionTape& tape_;
    std::unordered_map<std::string, const double*> names_;
    std::unordered_map<const double*, std::uint32_t> variableIndex_;
    std::unordered_map<std::uint64_t, std::uint32_t> constantIndex_;
    std::unordered_multimap<std::uint64_t, std::uint32_t> instructionIndex_;
    std::vector<double> constants_;
    std::vector<std::uint32_t> results_;
    std::string_view text_;
    std::size_t pos_ = 0;
};

ExpressionTape::ExpressionTape(const std::vector<std::string>& expressions, const std::vector<Variable>& variables)
{
    TapeBuilder builder(*this, variables);
    for (const auto& e : expressions)
        builder.add(e);
    builder.finish();
}

std::vector<double> ExpressionTape::constants() const
{
    return {registers_.begin() + static_cast<long>(variables_.size()),
            registers_.begin() + static_cast<long>(fixedRegisters_)};
}

bool ExpressionTape::isUnary(Op op)
{
    return unary(op);
}

void ExpressionTape::evaluate(double* out) const
{
    double* r = registers_.data();
    for (std::size_t i = 0; i < variables_.size(); ++i)
        r[i] = *variables_[i];
    double* w = r + fixedRegisters_;
    for (const Instruction& in : code_) {
        switch (in.op) {
        case Op::Add: *w = r[in.a] + r[in.b]; break;
        case Op::Sub: *w = r[in.a] - r[in.b]; break;
        case Op::Mul: *w = r[in.a] * r[in.b]; break;
        case Op::Div: *w = r[in.a] / r[in.b]; break;
        case Op::Neg: *w = -r[in.a]; break;
        default: *w = apply(in.op, r[in.a], r[in.b]); break;
        }
        ++w;
    }
    for (std::size_t i = 0; i < results_.size(); ++i)
        out[i] = r[results_[i]];
}

}  // namespace sysid::eval
