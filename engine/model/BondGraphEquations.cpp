#include "engine/model/BondGraphBuilder.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>

// The state equations of a bond graph whose causality is assigned: one defining relation per bond
// variable, substituted in dependency order, algebraic loops solved; and the listing of the result.

namespace sysid::model {

namespace {

using GiNaC::ex;

std::string text(const ex& e)
{
    std::ostringstream s;
    s << e;
    return s.str();
}

}  // namespace

// x = g⁻¹(y) of a resistor's law y = g(x) when g is affine in x (the inverse GiNaC can give exactly).
ex BondGraphBuilder::lawInverse(std::size_t n, const GiNaC::symbol& argument, const GiNaC::symbol& subject) const
{
    const Node& node = nodes_[n];
    const ex law = node.relation.expand();
    const std::string& name = node.statement->name.text;
    const std::string given = node.lawGivesEffort ? "e" : "f", wanted = node.lawGivesEffort ? "f" : "e";
    if (!law.is_polynomial(argument) || law.degree(argument) != 1)
        fail(node.statement->name.where,
             "the " + node.title + " has to give its " + (wanted == "e" ? "effort" : "flow") +
                 " here (the graph's causality sets its " + (given == "e" ? "effort" : "flow") + "), but its law " +
                 given + " = " + text(node.relation.subs(GiNaC::lst{argument == GiNaC::symbol(name + "." + wanted)})) +
                 " cannot be inverted symbolically; write it as " + wanted + " = ...(" + given + ")");
    const ex slope = law.coeff(argument, 1);
    if (slope.is_zero())
        fail(node.statement->name.where, "the law of the " + node.title + " does not depend on its " + wanted);
    return (subject - law.coeff(argument, 0)) / slope;
}

// One defining expression per bond variable: the node at each end of a bond gives the variable its
// causality assigns to it (the effort from the end with the effort, the flow from the other).
std::vector<std::optional<ex>> BondGraphBuilder::definitions()
{
    std::vector<std::optional<ex>> def(2 * bonds_.size());
    auto setsEffort = [&](std::size_t b, std::size_t n) {
        return effortEnd_[b] == 1 ? bonds_[b].tail == n : bonds_[b].head == n;
    };
    auto define = [&](std::size_t b, bool effort, const ex& value) { def[2 * b + (effort ? 0 : 1)] = value; };
    // +1 for a bond whose half-arrow points into node n (power in), -1 for one pointing out.
    auto sign = [&](std::size_t b, std::size_t n) { return bonds_[b].head == n ? 1 : -1; };
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        const Node& node = nodes_[n];
        const BondNodeKind kind = node.statement->kind;
        const std::vector<std::size_t>& bs = node.bonds;
        switch (kind) {
        case BondNodeKind::EffortSource: define(bs[0], true, node.relation); break;
        case BondNodeKind::FlowSource: define(bs[0], false, node.relation); break;
        case BondNodeKind::Capacitor: define(bs[0], true, node.relation); break;
        case BondNodeKind::Inertia: define(bs[0], false, node.relation); break;
        case BondNodeKind::Resistor: {
            const Bond& b = bonds_[bs[0]];
            const bool givesEffort = setsEffort(bs[0], n);
            if (givesEffort == node.lawGivesEffort)
                define(bs[0], givesEffort, node.relation);
            else if (givesEffort)
                define(bs[0], true, lawInverse(n, b.effort, b.flow));
            else
                define(bs[0], false, lawInverse(n, b.flow, b.effort));
            break;
        }
        case BondNodeKind::ZeroJunction:
        case BondNodeKind::OneJunction: {
            const bool zero = kind == BondNodeKind::ZeroJunction;
            // The strong bond: the one bringing the common variable in.
            std::size_t strong = bs.front();
            for (std::size_t b : bs)
                if (setsEffort(b, n) != zero)
                    strong = b;
            ex sum = 0;
            for (std::size_t b : bs)
                if (b != strong) {
                    define(b, zero, zero ? ex(bonds_[strong].effort) : ex(bonds_[strong].flow));
                    sum += sign(b, n) * (zero ? ex(bonds_[b].flow) : ex(bonds_[b].effort));
                }
            define(strong, !zero, -sum / sign(strong, n));
            break;
        }
        case BondNodeKind::Transformer: {  // e1 = m e2, f2 = m f1
            const Bond &in = bonds_[bs[0]], &out = bonds_[bs[1]];
            if (setsEffort(bs[0], n)) {
                define(bs[0], true, node.relation * out.effort);
                define(bs[1], false, node.relation * in.flow);
            } else {
                define(bs[1], true, in.effort / node.relation);
                define(bs[0], false, out.flow / node.relation);
            }
            break;
        }
        case BondNodeKind::Gyrator: {  // e1 = r f2, e2 = r f1
            const Bond &in = bonds_[bs[0]], &out = bonds_[bs[1]];
            if (setsEffort(bs[0], n)) {
                define(bs[0], true, node.relation * out.flow);
                define(bs[1], true, node.relation * in.flow);
            } else {
                define(bs[0], false, out.effort / node.relation);
                define(bs[1], false, in.effort / node.relation);
            }
            break;
        }
        }
    }
    return def;
}

// The bond variables in terms of the states, parameters, inputs and t: each defining expression
// with the variables it uses substituted, in dependency order (Tarjan 1972); an algebraic loop
// (a strongly connected set) is solved as a linear system when it is one.
void BondGraphBuilder::solve()
{
    const std::vector<std::optional<ex>> def = definitions();
    const std::size_t count = def.size();
    std::vector<GiNaC::symbol> symbols;
    std::map<ex, std::size_t, GiNaC::ex_is_less> index;
    for (std::size_t b = 0; b < bonds_.size(); ++b) {
        symbols.push_back(bonds_[b].effort);
        symbols.push_back(bonds_[b].flow);
    }
    for (std::size_t v = 0; v < count; ++v) {
        index[symbols[v]] = v;
        if (!def[v])
            fail(bonds_[v / 2].where, "internal: bond " + std::to_string(v / 2 + 1) + " has no " +
                                          (v % 2 ? "flow" : "effort") + " after causality assignment");
    }
    std::vector<std::vector<std::size_t>> uses(count);
    for (std::size_t v = 0; v < count; ++v)
        for (auto it = def[v]->preorder_begin(); it != def[v]->preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::symbol>(*it))
                if (auto found = index.find(*it); found != index.end())
                    uses[v].push_back(found->second);

    // Tarjan's strongly connected components: each is complete after everything it uses.
    std::vector<std::size_t> order(count, none), low(count, 0), stack;
    std::vector<bool> onStack(count, false);
    std::vector<std::vector<std::size_t>> components;
    std::size_t counter = 0;
    std::function<void(std::size_t)> visit = [&](std::size_t v) {
        order[v] = low[v] = counter++;
        stack.push_back(v);
        onStack[v] = true;
        for (std::size_t w : uses[v]) {
            if (order[w] == none) {
                visit(w);
                low[v] = std::min(low[v], low[w]);
            } else if (onStack[w]) {
                low[v] = std::min(low[v], order[w]);
            }
        }
        if (low[v] == order[v]) {
            std::vector<std::size_t> component;
            std::size_t w;
            do {
                w = stack.back();
                stack.pop_back();
                onStack[w] = false;
                component.push_back(w);
            } while (w != v);
            components.push_back(std::move(component));
        }
    };
    for (std::size_t v = 0; v < count; ++v)
        if (order[v] == none)
            visit(v);

    solved_.clear();
    for (const auto& component : components) {
        const std::size_t v = component.front();
        const bool loop = component.size() > 1 || std::count(uses[v].begin(), uses[v].end(), v) > 0;
        if (!loop) {
            solved_[symbols[v]] = def[v]->subs(solved_);
            continue;
        }
        // The nodes whose relations close the loop, to name it.
        std::set<std::size_t> inLoop;
        for (std::size_t w : component)
            for (std::size_t n : {bonds_[w / 2].tail, bonds_[w / 2].head})
                if (!isJunction(nodes_[n].statement->kind))
                    inLoop.insert(n);
        std::vector<std::string> members;
        std::size_t firstResistor = none;
        for (std::size_t n : inLoop) {
            members.push_back(nodes_[n].title);
            if (firstResistor == none && nodes_[n].statement->kind == BondNodeKind::Resistor)
                firstResistor = n;
        }
        const std::string named = joinTitles(members);
        GiNaC::lst equations, unknowns;
        for (std::size_t w : component)
            unknowns.append(symbols[w]);
        bool linear = true;
        for (std::size_t w : component) {
            const ex residual = (symbols[w] - def[w]->subs(solved_)).expand();
            for (std::size_t u : component)
                linear = linear && residual.is_polynomial(symbols[u]) && residual.degree(symbols[u]) <= 1;
            equations.append(symbols[w] == def[w]->subs(solved_));
        }
        const SourceLocation where =
            firstResistor != none ? nodes_[firstResistor].statement->name.where : bonds_[v / 2].where;
        if (!linear)
            fail(where, "algebraic loop through " + named +
                            ": their efforts and flows depend on each other, and a nonlinear law in the loop "
                            "cannot be solved symbolically; add a storage element (a small C or I) in the loop");
        ex solution;
        try {
            solution = GiNaC::lsolve(equations, unknowns);
        } catch (const std::exception&) {
            solution = GiNaC::lst{};
        }
        if (solution.nops() != component.size())
            fail(where, "algebraic loop through " + named + " has no unique solution (its equations are singular)");
        for (std::size_t i = 0; i < solution.nops(); ++i)
            solved_[solution.op(i).op(0)] = solution.op(i).op(1);
        info_.loops.push_back(named);
    }

    stateEquations_.clear();
    for (const Node& node : nodes_) {
        const BondNodeKind kind = node.statement->kind;
        if (!isStorage(kind))
            continue;
        const Bond& b = bonds_[node.bonds.front()];
        // q' = f of a C, p' = e of an I: the bond's half-arrow points into the element.
        const ex rate = kind == BondNodeKind::Capacitor ? ex(b.flow) : ex(b.effort);
        stateEquations_.push_back({storageState(*node.statement)->name, rate.subs(solved_)});
    }
}

void BondGraphBuilder::fillInfo()
{
    info_.nodes.clear();
    for (const Node& n : nodes_)
        info_.nodes.push_back(n.title);
    info_.bonds.clear();
    for (std::size_t b = 0; b < bonds_.size(); ++b) {
        const Bond& bond = bonds_[b];
        BondGraphBond out;
        out.number = static_cast<int>(b + 1);
        out.tail = nodes_[bond.tail].title;
        out.head = nodes_[bond.head].title;
        out.tailSetsEffort = effortEnd_[b] == 1;
        // The causality of the one-port element at either end, if any.
        for (std::size_t n : {bond.head, bond.tail}) {
            const BondNodeKind kind = nodes_[n].statement->kind;
            if (isJunction(kind) || isTwoPort(kind))
                continue;
            const bool elementSetsEffort = (n == bond.tail) == out.tailSetsEffort;
            if (isSource(kind))
                out.causality = "source";
            else if (isStorage(kind))
                out.causality = "integral causality";
            else
                out.causality = elementSetsEffort ? "resistance causality: e from f" : "conductance causality: f from e";
            break;
        }
        out.effort = ex(bond.effort).subs(solved_);
        out.flow = ex(bond.flow).subs(solved_);
        info_.bonds.push_back(std::move(out));
    }
}

}  // namespace sysid::model
