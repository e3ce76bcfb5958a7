#include "engine/model/SymbolicFunctions.h"

namespace sysid::model {

using GiNaC::ex;
using GiNaC::numeric;

namespace {

bool isRealNumber(const ex& x)
{
    return GiNaC::is_exactly_a<numeric>(x) && GiNaC::ex_to<numeric>(x).is_real();
}

int signOf(const numeric& n)
{
    return n.is_zero() ? 0 : (n.is_positive() ? 1 : -1);
}

ex absEval(const ex& x)
{
    if (isRealNumber(x))
        return GiNaC::abs(GiNaC::ex_to<numeric>(x));
    return sysid_abs(x).hold();
}
ex absEvalf(const ex& x)
{
    return absEval(x.evalf());
}
ex absDerivative(const ex& x, unsigned)
{
    return sysid_sign(x);
}
void absPrint(const ex& x, const GiNaC::print_context& c)
{
    c.s << "abs(";
    x.print(c);
    c.s << ")";
}

ex signEval(const ex& x)
{
    if (isRealNumber(x))
        return signOf(GiNaC::ex_to<numeric>(x));
    return sysid_sign(x).hold();
}
ex signEvalf(const ex& x)
{
    return signEval(x.evalf());
}
ex signDerivative(const ex&, unsigned)
{
    return 0;
}
void signPrint(const ex& x, const GiNaC::print_context& c)
{
    c.s << "sign(";
    x.print(c);
    c.s << ")";
}

ex minEval(const ex& a, const ex& b)
{
    if (isRealNumber(a) && isRealNumber(b))
        return GiNaC::ex_to<numeric>(a) < GiNaC::ex_to<numeric>(b) ? a : b;
    return sysid_min(a, b).hold();
}
ex minEvalf(const ex& a, const ex& b)
{
    return minEval(a.evalf(), b.evalf());
}
// d min(a,b)/da = 1 where a < b, 0 where a > b, 1/2 on the tie (the average of both sides).
ex minDerivative(const ex& a, const ex& b, unsigned which)
{
    return which == 0 ? (1 - sysid_sign(a - b)) / 2 : (1 + sysid_sign(a - b)) / 2;
}
void minPrint(const ex& a, const ex& b, const GiNaC::print_context& c)
{
    c.s << "min(";
    a.print(c);
    c.s << ", ";
    b.print(c);
    c.s << ")";
}

ex maxEval(const ex& a, const ex& b)
{
    if (isRealNumber(a) && isRealNumber(b))
        return GiNaC::ex_to<numeric>(a) > GiNaC::ex_to<numeric>(b) ? a : b;
    return sysid_max(a, b).hold();
}
ex maxEvalf(const ex& a, const ex& b)
{
    return maxEval(a.evalf(), b.evalf());
}
ex maxDerivative(const ex& a, const ex& b, unsigned which)
{
    return which == 0 ? (1 + sysid_sign(a - b)) / 2 : (1 - sysid_sign(a - b)) / 2;
}
void maxPrint(const ex& a, const ex& b, const GiNaC::print_context& c)
{
    c.s << "max(";
    a.print(c);
    c.s << ", ";
    b.print(c);
    c.s << ")";
}

}  // namespace

REGISTER_FUNCTION(
    sysid_abs,
    eval_func(absEval).evalf_func(absEvalf).derivative_func(absDerivative).print_func<GiNaC::print_context>(absPrint))
REGISTER_FUNCTION(sysid_sign,
                  eval_func(signEval)
                      .evalf_func(signEvalf)
                      .derivative_func(signDerivative)
                      .print_func<GiNaC::print_context>(signPrint))
REGISTER_FUNCTION(
    sysid_min,
    eval_func(minEval).evalf_func(minEvalf).derivative_func(minDerivative).print_func<GiNaC::print_context>(minPrint))
REGISTER_FUNCTION(
    sysid_max,
    eval_func(maxEval).evalf_func(maxEvalf).derivative_func(maxDerivative).print_func<GiNaC::print_context>(maxPrint))

}  // namespace sysid::model
