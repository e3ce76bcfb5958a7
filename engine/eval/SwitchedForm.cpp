#include "engine/eval/SwitchedForm.h"

#include "engine/model/SymbolicFunctions.h"

#include <functional>
#include <sstream>

namespace sysid::eval {

namespace {

using GiNaC::ex;

class Substitution : public GiNaC::map_function {
public:
    explicit Substitution(std::function<ex(const ex&, const ex&)> mode) : mode_(std::move(mode)) {}

    ex operator()(const ex& e) override
    {
        // Inner switches first: the argument of an outer one is then written on their modes.
        const ex inner = e.map(*this);
        if (is_ex_the_function(inner, model::sysid_sign))
            return switched(inner, inner.op(0), [](const ex& m, const ex&) { return m; });
        if (is_ex_the_function(inner, model::sysid_abs))
            return switched(inner, inner.op(0), [&](const ex& m, const ex&) { return m * inner.op(0); });
        if (is_ex_the_function(inner, model::sysid_min) || is_ex_the_function(inner, model::sysid_max)) {
            const ex a = inner.op(0), b = inner.op(1);
            const int side = is_ex_the_function(inner, model::sysid_max) ? 1 : -1;
            return switched(inner, a - b, [&](const ex& m, const ex&) { return (a + b) / 2 + side * m * (a - b) / 2; });
        }
        return inner;
    }

private:
    template <class Branch>
    ex switched(const ex& function, const ex& g, Branch branch)
    {
        const ex m = mode_(g, function);
        return m.is_zero() ? function : branch(m, g);
    }

    std::function<ex(const ex&, const ex&)> mode_;
};

}  // namespace

bool SwitchedForm::dynamic(const GiNaC::ex& e) const
{
    for (const auto& s : dynamic_)
        if (e.has(s))
            return true;
    for (const auto& m : modes_)
        if (e.has(m))
            return true;
    return false;
}

GiNaC::ex SwitchedForm::mode(const GiNaC::ex& g, const GiNaC::ex& original)
{
    if (!dynamic(g))
        return 0;  // constant along a solution: stays as written
    for (std::size_t i = 0; i < functions_.size(); ++i) {
        if (functions_[i].is_equal(g))
            return modes_[i];
        if ((functions_[i] + g).expand().is_zero())
            return -modes_[i];
    }
    functions_.push_back(g);
    modes_.emplace_back("m" + std::to_string(modes_.size()));
    std::ostringstream text;
    text << original;
    written_.push_back(text.str());
    return modes_.back();
}

GiNaC::ex SwitchedForm::substitute(const GiNaC::ex& e)
{
    Substitution substitution([this](const GiNaC::ex& g, const GiNaC::ex& original) { return mode(g, original); });
    return substitution(e);
}

}  // namespace sysid::eval
