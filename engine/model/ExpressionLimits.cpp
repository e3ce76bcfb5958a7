#include "engine/model/ExpressionLimits.h"

#include "engine/model/SymbolicFunctions.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <new>
#include <vector>

namespace sysid::model {

namespace {

using GiNaC::ex;

const GiNaC::basic* key(const ex& e)
{
    return &GiNaC::ex_to<GiNaC::basic>(e);
}

// A function of constants in double arithmetic, as the compiled model would evaluate it.
std::optional<double> functionValue(const GiNaC::function& f, const std::vector<double>& a)
{
    const unsigned serial = f.get_serial();
    if (serial == sysid_abs_SERIAL::serial)
        return std::fabs(a[0]);
    if (serial == sysid_sign_SERIAL::serial)
        return a[0] > 0 ? 1.0 : a[0] < 0 ? -1.0 : 0.0;
    if (serial == sysid_min_SERIAL::serial)
        return std::min(a[0], a[1]);
    if (serial == sysid_max_SERIAL::serial)
        return std::max(a[0], a[1]);
    static const std::unordered_map<std::string, double (*)(double)> unary{
        {"sin", [](double x) { return std::sin(x); }},   {"cos", [](double x) { return std::cos(x); }},
        {"tan", [](double x) { return std::tan(x); }},   {"asin", [](double x) { return std::asin(x); }},
        {"acos", [](double x) { return std::acos(x); }}, {"atan", [](double x) { return std::atan(x); }},
        {"sinh", [](double x) { return std::sinh(x); }}, {"cosh", [](double x) { return std::cosh(x); }},
        {"tanh", [](double x) { return std::tanh(x); }}, {"exp", [](double x) { return std::exp(x); }},
        {"log", [](double x) { return std::log(x); }},
    };
    if (a.size() == 1)
        if (const auto it = unary.find(f.get_name()); it != unary.end())
            return it->second(a[0]);
    if (a.size() == 2 && f.get_name() == "atan2")
        return std::atan2(a[0], a[1]);
    return std::nullopt;
}

ExpressionShape combine(const ex& e, const std::vector<const ExpressionShape*>& parts)
{
    ExpressionShape s;
    s.size = 1;
    bool constant = true;
    std::vector<double> values;
    for (const ExpressionShape* p : parts) {
        s.depth = std::max(s.depth, p->depth);
        s.size += p->size;
        s.overflows = s.overflows || p->overflows;
        s.complex = s.complex || p->complex;
        constant = constant && p->value.has_value();
        if (p->value)
            values.push_back(*p->value);
    }
    s.depth += 1;
    if (GiNaC::is_a<GiNaC::numeric>(e)) {
        const auto& n = GiNaC::ex_to<GiNaC::numeric>(e);
        if (n.is_real())
            s.value = n.to_double();
        else
            s.complex = true;
    } else if (GiNaC::is_a<GiNaC::constant>(e)) {
        const ex v = e.evalf();
        if (GiNaC::is_a<GiNaC::numeric>(v) && GiNaC::ex_to<GiNaC::numeric>(v).is_real())
            s.value = GiNaC::ex_to<GiNaC::numeric>(v).to_double();
    } else if (constant && !parts.empty()) {
        if (GiNaC::is_a<GiNaC::add>(e)) {
            double sum = 0;
            for (double v : values)
                sum += v;
            s.value = sum;
        } else if (GiNaC::is_a<GiNaC::mul>(e)) {
            double product = 1;
            for (double v : values)
                product *= v;
            s.value = product;
        } else if (GiNaC::is_a<GiNaC::power>(e)) {
            s.value = std::pow(values[0], values[1]);
        } else if (GiNaC::is_a<GiNaC::function>(e)) {
            s.value = functionValue(GiNaC::ex_to<GiNaC::function>(e), values);
        }
    }
    if (s.value && !std::isfinite(*s.value))
        s.overflows = true;
    return s;
}

long bitsOf(const GiNaC::numeric& n)
{
    if (!n.is_rational())
        return 0;
    return std::max(n.numer().int_length(), n.denom().int_length());
}

}  // namespace

ExpressionShape ExpressionMeter::measure(const ex& root)
{
    if (const auto it = seen_.find(key(root)); it != seen_.end())
        return it->second.second;
    // Iterative, so that measuring does not itself need a deep stack. The operands are taken once
    // per node: op() may build a new object (a term's coefficient and rest recombined).
    struct Frame {
        ex e;
        std::vector<ex> operands;
        std::size_t next = 0;
    };
    auto frame = [](const ex& e) {
        Frame f{e, {}, 0};
        f.operands.reserve(e.nops());
        for (std::size_t i = 0; i < e.nops(); ++i)
            f.operands.push_back(e.op(i));
        return f;
    };
    std::vector<Frame> stack;
    stack.push_back(frame(root));
    std::vector<const ExpressionShape*> parts;
    while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.next < top.operands.size()) {
            const ex& child = top.operands[top.next++];
            if (!seen_.count(key(child)))
                stack.push_back(frame(child));
            continue;
        }
        parts.clear();
        for (const ex& c : top.operands)
            parts.push_back(&seen_.at(key(c)).second);
        ExpressionShape shape = combine(top.e, parts);
        ex e = std::move(top.e);
        stack.pop_back();
        seen_.emplace(key(e), std::pair{e, shape});
    }
    return seen_.at(key(root)).second;
}

std::string describeSymbolicFailure(const std::exception& e)
{
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return "working it out needs more memory than is available";
    std::string what = e.what();
    // GiNaC names its function first ("log_eval(): log(0)", "power::eval(): division by zero").
    if (const std::size_t p = what.find("(): "); p != std::string::npos)
        what = what.substr(p + 4);
    if (dynamic_cast<const GiNaC::pole_error*>(&e))
        return "the value is infinite here (" + what + ")";
    return "it cannot be worked out symbolically (" + what + ")";
}

bool powerWithinLimits(const GiNaC::numeric& base, const GiNaC::numeric& exponent)
{
    if (!exponent.is_real())
        return true;
    const long bits = bitsOf(base) - 1;  // log2 of the larger of numerator and denominator, rounded down
    if (bits <= 0)
        return true;
    return std::fabs(exponent.to_double()) * static_cast<double>(bits) <= static_cast<double>(kMaxNumberBits);
}

bool numberWithinLimits(const GiNaC::numeric& n)
{
    if (!n.is_real())
        return numberWithinLimits(n.real()) && numberWithinLimits(n.imag());
    return bitsOf(n) <= kMaxNumberBits;
}

GiNaC::ex expandWhenSmall(const ex& e, unsigned options, double maxNodes)
{
    // Terms and nodes of the expanded form, estimated from above.
    struct Estimate {
        double terms = 1, nodes = 1;
        double written = 1;  // nodes as it stands
    };
    constexpr int kMaxExpandedPower = 16;
    std::unordered_map<const GiNaC::basic*, std::pair<ex, Estimate>> seen;
    std::function<Estimate(const ex&)> estimate = [&](const ex& x) -> Estimate {
        if (const auto it = seen.find(key(x)); it != seen.end())
            return it->second.second;
        Estimate r;
        if (GiNaC::is_a<GiNaC::add>(x)) {
            r = {0, 0, 1};
            for (std::size_t i = 0; i < x.nops(); ++i) {
                const Estimate t = estimate(x.op(i));
                r.terms += t.terms;
                r.nodes += t.nodes;
                r.written += t.written;
            }
        } else if (GiNaC::is_a<GiNaC::mul>(x)) {
            double perTerm = 0;
            for (std::size_t i = 0; i < x.nops(); ++i) {
                const Estimate f = estimate(x.op(i));
                r.terms *= f.terms;
                perTerm += f.nodes / f.terms;
                r.written += f.written;
            }
            r.nodes = r.terms * (perTerm + 1);
        } else if (GiNaC::is_a<GiNaC::power>(x)) {
            const Estimate b = estimate(x.op(0));
            const Estimate p = estimate(x.op(1));
            r.written = b.written + p.written + 1;
            const ex n = x.op(1);
            if (b.terms > 1 && GiNaC::is_a<GiNaC::numeric>(n) && GiNaC::ex_to<GiNaC::numeric>(n).is_integer()) {
                const double k = std::fabs(GiNaC::ex_to<GiNaC::numeric>(n).to_double());
                if (k > kMaxExpandedPower)
                    return {HUGE_VAL, HUGE_VAL, r.written};
                // (t terms)^k has C(k + t - 1, t - 1) terms.
                r.terms = std::exp(std::lgamma(k + b.terms) - std::lgamma(k + 1) - std::lgamma(b.terms));
                r.nodes = r.terms * (std::min(k, b.terms) * (b.nodes / b.terms + 1) + 1);
            } else {
                r.nodes = b.nodes + p.nodes + 1;
            }
        } else {
            for (std::size_t i = 0; i < x.nops(); ++i) {
                const Estimate a = estimate(x.op(i));
                r.nodes += a.nodes;
                r.written += a.written;
            }
        }
        seen.emplace(key(x), std::pair{x, r});
        return r;
    };
    // A long sum expands to about its own size: what is refused is growth, not length.
    const Estimate whole = estimate(e);
    if (!(whole.nodes <= std::max(maxNodes, 2 * whole.written)))
        return e;
    return e.expand(options);
}

}  // namespace sysid::model
