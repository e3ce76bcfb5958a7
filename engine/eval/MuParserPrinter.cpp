#include "engine/eval/MuParserPrinter.h"

#include "engine/model/ExpressionLimits.h"
#include "engine/model/SymbolicFunctions.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <vector>
#include <stdexcept>

namespace sysid::eval {

namespace {

using GiNaC::ex;

thread_local double printBudget = HUGE_VAL;  // characters toMuParser may still write (PrintBudget)

[[noreturn]] void overBudget()
{
    throw std::invalid_argument(
        "its equations and their derivatives, written out with the intermediates (let) they use, are too large to "
        "evaluate; shorten chains of intermediates that each build on the one before (their derivatives grow "
        "quickly, exponentially when each uses the one before more than once)");
}

std::string spent(std::string s)
{
    printBudget -= static_cast<double>(s.size());
    if (printBudget < 0)
        overBudget();
    return s;
}

std::string number(double v)
{
    // The model builder refuses constants beyond double; one that a derivative or a product of
    // constants pushes there must not reach the evaluator as the name "inf".
    if (!std::isfinite(v))
        throw std::invalid_argument(
            "a constant in its equations or their derivatives is beyond the range of double (about 1.8e308)");
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    std::string s(buffer, result.ptr);
    return v < 0 ? "(" + s + ")" : s;
}

std::string numeric(const GiNaC::numeric& n)
{
    if (!n.is_real())
        throw std::invalid_argument(
            "the expression has a complex constant, which cannot be evaluated in real arithmetic");
    if (n.is_integer() && GiNaC::abs(n) < GiNaC::numeric(1000000000))
        return n.is_negative() ? "(" + std::to_string(n.to_long()) + ")" : std::to_string(n.to_long());
    return number(n.to_double());
}

const std::map<std::string, std::string>& functionNames()
{
    static const std::map<std::string, std::string> names{
        {"sin", "sin"},   {"cos", "cos"},     {"tan", "tan"},   {"asin", "asin"}, {"acos", "acos"},
        {"atan", "atan"}, {"atan2", "atan2"}, {"sinh", "sinh"}, {"cosh", "cosh"}, {"tanh", "tanh"},
        {"exp", "exp"},   {"log", "ln"},      {"abs", "abs"}};
    return names;
}

class Printer {
public:
    explicit Printer(const SymbolNames& names) : names_(names) {}

    std::string print(const ex& e) const
    {
        if (GiNaC::is_a<GiNaC::numeric>(e))
            return numeric(GiNaC::ex_to<GiNaC::numeric>(e));
        if (GiNaC::is_a<GiNaC::symbol>(e)) {
            auto it = names_.find(e);
            if (it == names_.end())
                throw std::invalid_argument("no value for symbol " + GiNaC::ex_to<GiNaC::symbol>(e).get_name());
            return it->second;
        }
        if (GiNaC::is_a<GiNaC::constant>(e))
            return number(GiNaC::ex_to<GiNaC::numeric>(e.evalf()).to_double());
        if (GiNaC::is_a<GiNaC::add>(e))
            return spent(joined(e, " + "));
        if (GiNaC::is_a<GiNaC::mul>(e))
            return spent(joined(e, "*"));
        if (GiNaC::is_a<GiNaC::power>(e))
            return spent(power(e.op(0), e.op(1)));
        if (GiNaC::is_a<GiNaC::function>(e))
            return spent(function(e));
        throw std::invalid_argument("cannot evaluate the expression part " + toString(e));
    }

private:
    static std::string toString(const ex& e)
    {
        std::ostringstream s;
        s << e;
        return s.str();
    }

    // GiNaC orders the terms of sums and products by hash values that change with address-space
    // layout, so the operands are sorted by their text: the same model then evaluates with the
    // same rounding in every run.
    std::string joined(const ex& e, const char* separator) const
    {
        std::vector<std::string> operands;
        for (std::size_t i = 0; i < e.nops(); ++i)
            operands.push_back(print(e.op(i)));
        std::sort(operands.begin(), operands.end());
        std::string s = "(";
        for (std::size_t i = 0; i < operands.size(); ++i) {
            if (i)
                s += separator;
            s += operands[i];
        }
        return s + ")";
    }

    std::string power(const ex& base, const ex& exponent) const
    {
        if (GiNaC::is_a<GiNaC::numeric>(exponent)) {
            const auto& n = GiNaC::ex_to<GiNaC::numeric>(exponent);
            if (n == GiNaC::numeric(1, 2))
                return "sqrt(" + print(base) + ")";
            if (n == GiNaC::numeric(-1, 2))
                return "(1/sqrt(" + print(base) + "))";
            if (n == -1)
                return "(1/" + print(base) + ")";
            if (n.is_integer() && n.is_negative())
                return "(1/(" + print(base) + ")^" + numeric(-n) + ")";
        }
        return "((" + print(base) + ")^(" + print(exponent) + "))";
    }

    std::string function(const ex& e) const
    {
        const auto& f = GiNaC::ex_to<GiNaC::function>(e);
        const unsigned serial = f.get_serial();
        std::string name;
        if (serial == model::sysid_abs_SERIAL::serial)
            name = "abs";
        else if (serial == model::sysid_sign_SERIAL::serial)
            name = "sign";
        else if (serial == model::sysid_min_SERIAL::serial)
            name = "min";
        else if (serial == model::sysid_max_SERIAL::serial)
            name = "max";
        else if (auto it = functionNames().find(f.get_name()); it != functionNames().end())
            name = it->second;
        else
            throw std::invalid_argument("function " + f.get_name() + " cannot be evaluated");
        std::string s = name + "(";
        for (std::size_t i = 0; i < e.nops(); ++i) {
            if (i)
                s += ",";
            s += print(e.op(i));
        }
        return s + ")";
    }

    const SymbolNames& names_;
};

}  // namespace

PrintBudget::PrintBudget(double characters) : previous_(printBudget)
{
    printBudget = characters;
}

PrintBudget::~PrintBudget()
{
    printBudget = previous_;
}

std::string toMuParser(const GiNaC::ex& e, const SymbolNames& names)
{
    if (printBudget < 0)
        overBudget();
    // Expanded, the same expression has one tree shape whatever order GiNaC built it in; one whose
    // expanded form would be huge ((x + y)^1000, a product of many sums) is printed as it stands,
    // which is deterministic too, since the operands are sorted by their text.
    return Printer(names).print(model::expandWhenSmall(e, GiNaC::expand_options::expand_function_args));
}

}  // namespace sysid::eval
