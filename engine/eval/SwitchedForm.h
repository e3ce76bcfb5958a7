#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

namespace sysid::eval {

// The switches of a model: each argument g of sign, abs, min or max (for min and max, a - b) that
// depends on time, a state or an input is a switching function, and the function is rewritten on
// one branch of it, a mode m = sign(g) held fixed between switches:
//   sign(g) = m,  abs(g) = m g,  min(a, b) = (a + b)/2 - m (a - b)/2,  max(a, b) = (a + b)/2 + m (a - b)/2.
// With m = sign(g) this is the function itself; with m held, f is smooth across the surface
// g = 0, so an integrator's stages past a switch extend the branch it is on, the crossing is
// located on the dense output and the step is restarted there (Hairer, Norsett & Wanner,
// Solving ODEs I, sec. II.6). A mode strictly inside (-1, 1) is Filippov's convex combination of
// the two branches (sliding on the surface). Equal and opposite arguments share one switch.
class SwitchedForm {
public:
    // `dynamic`: the symbols that vary along a solution (t, the states, the inputs).
    explicit SwitchedForm(std::vector<GiNaC::symbol> dynamic) : dynamic_(std::move(dynamic)) {}

    // e with every switch held on its mode; new switches found in e are added.
    GiNaC::ex substitute(const GiNaC::ex& e);

    std::size_t size() const { return functions_.size(); }
    // g_i, in terms of t, x, p, u and the modes of switches nested inside it (earlier ones).
    const std::vector<GiNaC::ex>& functions() const { return functions_; }
    const std::vector<GiNaC::symbol>& modes() const { return modes_; }
    // The function as written, e.g. "sign(q')", for messages.
    const std::vector<std::string>& written() const { return written_; }

private:
    bool dynamic(const GiNaC::ex& e) const;
    // sign(g) on the current branch: m or -m of an existing switch, or a new one (0: g is constant).
    GiNaC::ex mode(const GiNaC::ex& g, const GiNaC::ex& original);

    std::vector<GiNaC::symbol> dynamic_;
    std::vector<GiNaC::ex> functions_;
    std::vector<GiNaC::symbol> modes_;
    std::vector<std::string> written_;
};

}  // namespace sysid::eval
