#include "engine/model/BondGraphBuilder.h"

#include "engine/model/Causality.h"

#include <algorithm>

namespace sysid::model {

namespace {

using GiNaC::ex;

// The names that stand for a node's own variables in its law (the law's checks say which may
// appear: q in a C's, p in an I's, the other of e and f in an R's).
std::vector<std::string> localNamesOf(const BondGraphStatement& s)
{
    switch (s.kind) {
    case BondNodeKind::Capacitor: return {"q", "e", "f"};
    case BondNodeKind::Inertia: return {"p", "e", "f"};
    case BondNodeKind::Resistor: return {"e", "f"};
    default: return {};
    }
}

}  // namespace

std::string BondGraphBuilder::joinTitles(const std::vector<std::string>& titles)
{
    std::string out;
    for (std::size_t i = 0; i < titles.size(); ++i)
        out += (i == 0 ? "" : i + 1 == titles.size() ? " and " : ", ") + titles[i];
    return out;
}

std::optional<NamedPlace> BondGraphBuilder::storageState(const BondGraphStatement& s)
{
    if (s.kind == BondNodeKind::Capacitor)
        return NamedPlace{s.name.text + ".q", s.name.where};
    if (s.kind == BondNodeKind::Inertia)
        return NamedPlace{s.name.text + ".p", s.name.where};
    return std::nullopt;
}

void BondGraphBuilder::declare(const BondGraphStatement& s)
{
    const std::size_t n = nodes_.size();
    scope_.declareName({s.name.text, s.name.where}, NameKind::BondElement, n);
    nodes_.push_back({&s, bondNodeTitle(s.kind, s.name.text), {}, 0, true});
    auto variable = [&](const std::string& suffix, bool effort, std::size_t port) {
        scope_.declareName({s.name.text + "." + suffix, s.name.where}, NameKind::BondVariable, variables_.size());
        variables_.push_back({n, effort, port});
    };
    if (isTwoPort(s.kind)) {
        variable("e1", true, 0);
        variable("f1", false, 0);
        variable("e2", true, 1);
        variable("f2", false, 1);
    } else if (s.kind == BondNodeKind::ZeroJunction) {
        variable("e", true, 0);
    } else if (s.kind == BondNodeKind::OneJunction) {
        variable("f", false, 0);
    } else {
        variable("e", true, 0);
        variable("f", false, 0);
    }
}

std::string BondGraphBuilder::variablesOf(std::size_t n) const
{
    const std::string& name = nodes_[n].statement->name.text;
    switch (nodes_[n].statement->kind) {
    case BondNodeKind::Capacitor: return name + ".q, " + name + ".e or " + name + ".f";
    case BondNodeKind::Inertia: return name + ".p, " + name + ".e or " + name + ".f";
    case BondNodeKind::ZeroJunction: return name + ".e (its common effort)";
    case BondNodeKind::OneJunction: return name + ".f (its common flow)";
    case BondNodeKind::Transformer:
    case BondNodeKind::Gyrator: return name + ".e1, " + name + ".f1, " + name + ".e2 or " + name + ".f2";
    default: return name + ".e or " + name + ".f";
    }
}

const GiNaC::symbol& BondGraphBuilder::variableSymbol(const Variable& v) const
{
    const Bond& b = bonds_[nodes_[v.node].bonds[v.port]];
    return v.effort ? b.effort : b.flow;
}

ex BondGraphBuilder::resolveName(const ExpressionSyntax& e, const Declaration& d, Context ctx)
{
    const std::string written = e.name + std::string(static_cast<std::size_t>(e.primes), '\'');
    if (d.kind == NameKind::BondElement) {
        if (e.name.find('.') != std::string::npos)
            fail(e.where, "'" + written + "' is not a variable of the " + nodes_[d.index].title + "; write " +
                              variablesOf(d.index));
        fail(e.where, "'" + e.name + "' is the " + nodes_[d.index].title + "; write " + variablesOf(d.index));
    }
    const Variable& v = variables_[d.index];
    if (e.primes != 0)
        fail(e.where,
             "'" + written + "': the effort and flow of a bond have no time derivative in the model (the states " +
                 "are the C displacements and I momenta)");
    if (ctx == Context::Constant || ctx == Context::InitialValue)
        fail(e.where, "'" + written + "' cannot appear in a parameter value or an initial value");
    switch (phase_) {
    case Phase::Declaring:
        fail(e.where,
             "'" + written + "' is derived from the bond graph after the intermediates (let) are defined; use it " +
                 "in an output, an equation or an event");
    case Phase::Law:
        if (v.node != current_)
            fail(e.where,
                 "'" + written + "' belongs to the " + nodes_[v.node].title + "; the relation of the " +
                     nodes_[current_].title +
                     " may use its own effort and flow, states, parameters, inputs and t");
        return variableSymbol(v);
    case Phase::Derived: return variableSymbol(v).subs(solved_);
    case Phase::Failed: return 0;  // already reported
    }
    return 0;
}

void BondGraphBuilder::derive()
{
    const std::size_t before = errors_.size();
    connect();
    if (errors_.size() == before) {
        phase_ = Phase::Law;
        for (std::size_t n = 0; n < nodes_.size(); ++n)
            guarded(errors_, [&] { resolveRelation(n); });
    }
    if (errors_.size() == before)
        reportCausality();
    if (errors_.size() == before)
        guarded(errors_, [&] { solve(); });
    phase_ = errors_.size() == before ? Phase::Derived : Phase::Failed;
    if (phase_ == Phase::Derived)
        fillInfo();
}

// The bonds: a junction's members (a source's half-arrow points into the junction, a C's, I's or
// R's and another junction's out of it), and each two-port's ports (power in at FROM, out at TO).
void BondGraphBuilder::connect()
{
    const std::size_t before = errors_.size();
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        const BondGraphStatement& s = *nodes_[n].statement;
        if (isJunction(s.kind))
            for (const BondName& member : s.members)
                guarded(errors_, [&] { bondMember(n, member); });
        if (isTwoPort(s.kind)) {
            guarded(errors_, [&] { bondPort(n, s.from, true); });
            guarded(errors_, [&] { bondPort(n, s.to, false); });
        }
    }
    if (errors_.size() != before)
        return;  // a refused bond would make its nodes look unbonded too
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        const BondGraphStatement& s = *nodes_[n].statement;
        const std::size_t count = nodes_[n].bonds.size();
        if (isJunction(s.kind) && count < 2)
            errors_.push_back({s.name.where, "the " + nodes_[n].title + " joins " +
                                                 (count == 0 ? "no bond" : "only one bond") +
                                                 "; a junction joins two or more"});
        else if (!isJunction(s.kind) && !isTwoPort(s.kind) && count == 0)
            errors_.push_back({s.name.where, "the " + nodes_[n].title + " is not bonded: list " + s.name.text +
                                                 " in a junction (1 j : ..., " + s.name.text +
                                                 ") or name it at a port of a TF or GY"});
    }
}

std::size_t BondGraphBuilder::nodeNamed(const BondName& name, const std::string& where)
{
    const Declaration* d = scope_.declaration(name.text);
    if (!d)
        fail(name.where, "unknown bond-graph element '" + name.text + "' in " + where + scope_.suggestion(name.text));
    if (d->kind != NameKind::BondElement)
        fail(name.where, "'" + name.text + "' is " + kindWord(d->kind) + ", not a bond-graph element (in " + where + ")");
    return d->index;
}

void BondGraphBuilder::bondMember(std::size_t junction, const BondName& member)
{
    const std::string& title = nodes_[junction].title;
    const std::size_t k = nodeNamed(member, "the " + title);
    const BondGraphStatement& other = *nodes_[k].statement;
    if (k == junction)
        fail(member.where, "the " + title + " cannot be bonded to itself");
    if (isTwoPort(other.kind))
        fail(member.where, "the " + nodes_[k].title + " is bonded by its own statement (" + at(other.keyword) +
                               "): name the junctions at its ports there (" + std::string(bondNodeTable.name(other.kind)) +
                               " " + other.name.text + " = MODULUS : FROM -> TO)");
    if (isJunction(other.kind)) {
        for (std::size_t b : nodes_[junction].bonds)
            if (bonds_[b].tail == k || bonds_[b].head == k)
                fail(member.where, "the " + title + " and the " + nodes_[k].title + " are already bonded (" +
                                       at(bonds_[b].where) + "); write a bond between two junctions once");
        addBond(junction, k, member.where);
        return;
    }
    if (!nodes_[k].bonds.empty()) {
        const Bond& b = bonds_[nodes_[k].bonds.front()];
        const std::size_t to = b.tail == k ? b.head : b.tail;
        fail(member.where, "the " + nodes_[k].title + " is already bonded to the " + nodes_[to].title + " (" +
                               at(b.where) + "); a one-port element has one bond");
    }
    if (isSource(other.kind))
        addBond(k, junction, member.where);
    else
        addBond(junction, k, member.where);
}

void BondGraphBuilder::bondPort(std::size_t twoPort, const BondName& port, bool input)
{
    const std::string& title = nodes_[twoPort].title;
    const std::size_t k = nodeNamed(port, "the ports of the " + title);
    const BondGraphStatement& other = *nodes_[k].statement;
    if (k == twoPort)
        fail(port.where, "the " + title + " cannot be bonded to itself");
    if (isTwoPort(other.kind))
        fail(port.where, "the " + title + " cannot be bonded directly to the " + nodes_[k].title +
                             "; put a 1-junction between them");
    if (!isJunction(other.kind)) {
        if (!nodes_[k].bonds.empty()) {
            const Bond& b = bonds_[nodes_[k].bonds.front()];
            const std::size_t to = b.tail == k ? b.head : b.tail;
            fail(port.where, "the " + nodes_[k].title + " is already bonded to the " + nodes_[to].title + " (" +
                                 at(b.where) + "); a one-port element has one bond");
        }
        if (input && !isSource(other.kind))
            fail(port.where, "the " + nodes_[k].title + " takes power in, so it cannot feed the input port of the " +
                                 title + "; bond it at the output port (after ->) or through a junction");
        if (!input && isSource(other.kind))
            fail(port.where, "the " + nodes_[k].title + " gives power out, so it cannot take the output port of the " +
                                 title + "; bond it at the input port (before ->) or through a junction");
    }
    if (input)
        addBond(k, twoPort, port.where);
    else
        addBond(twoPort, k, port.where);
}

void BondGraphBuilder::addBond(std::size_t tail, std::size_t head, SourceLocation where)
{
    const std::size_t b = bonds_.size();
    auto symbolName = [&](const char* what) { return std::string(what) + std::to_string(b + 1); };
    bonds_.push_back({tail, head, where, GiNaC::symbol(symbolName("e")), GiNaC::symbol(symbolName("f"))});
    nodes_[tail].bonds.push_back(b);
    nodes_[head].bonds.push_back(b);
}

// In a law, q (C), p (I) and the argument e or f (R) are the element's own: NAME.q and so on.
ExpressionPtr BondGraphBuilder::localNames(const ExpressionPtr& e, std::size_t n)
{
    const BondGraphStatement& s = *nodes_[n].statement;
    if (e->kind == ExpressionSyntax::Kind::Name && e->primes == 0) {
        const std::vector<std::string> locals = localNamesOf(s);
        if (std::find(locals.begin(), locals.end(), e->name) == locals.end())
            return e;
        if (const Declaration* d = scope_.declaration(e->name))
            fail(e->where, "'" + e->name + "' in the law of the " + nodes_[n].title + " is its own " + e->name + " (" +
                               s.name.text + "." + e->name + "), but the model also declares " + e->name + " as " +
                               kindWord(d->kind) + " on " + at(d->where) + "; rename that");
        auto renamed = std::make_shared<ExpressionSyntax>(*e);
        renamed->name = s.name.text + "." + e->name;
        localUses_.emplace(e->name, e->where);
        return renamed;
    }
    if (e->operands.empty())
        return e;
    auto copy = std::make_shared<ExpressionSyntax>(*e);
    for (auto& operand : copy->operands)
        operand = localNames(operand, n);
    return copy;
}

// A source's value, a C's, I's or R's law (as written or from its linear parameter), a two-port's
// modulus, in the bond symbols of the node and the states, parameters, inputs and t.
void BondGraphBuilder::resolveRelation(std::size_t n)
{
    current_ = n;
    Node& node = nodes_[n];
    const BondGraphStatement& s = *node.statement;
    if (isJunction(s.kind))
        return;
    const Bond& bond = bonds_[node.bonds.front()];
    const std::string lawWhat = s.kind == BondNodeKind::Capacitor ? "its effort from its displacement: e = ...(q)"
        : s.kind == BondNodeKind::Inertia                         ? "its flow from its momentum: f = ...(p)"
                                                                  : "e = ...(f) or f = ...(e)";
    if (s.law) {
        const std::string& subject = s.law->subject.text;
        if ((s.kind == BondNodeKind::Capacitor && subject != "e") || (s.kind == BondNodeKind::Inertia && subject != "f"))
            fail(s.law->subject.where, "the law of " + std::string(s.kind == BondNodeKind::Inertia ? "an " : "a ") +
                                           std::string(bondNodeTable.label(s.kind)) + " gives " + lawWhat);
        node.lawGivesEffort = subject == "e";
        localUses_.clear();
        node.relation = scope_.resolve(localNames(s.law->value, n), Context::Dynamics);
        // Where the law uses a variable it may not: the first use written bare, else the law's start.
        auto use = [&](const std::string& variable) {
            const auto it = localUses_.find(variable);
            return it != localUses_.end() ? it->second : s.law->subject.where;
        };
        const GiNaC::symbol& own = node.lawGivesEffort ? bond.effort : bond.flow;
        if (node.relation.has(own))
            fail(use(subject), "the law of the " + node.title + " gives " + subject + "; " + s.name.text + "." +
                                   subject + " cannot appear on its right-hand side");
        const std::string other = node.lawGivesEffort ? "f" : "e";
        if (s.kind != BondNodeKind::Resistor && node.relation.has(node.lawGivesEffort ? bond.flow : bond.effort))
            fail(use(other), "the law of the " + node.title + " gives " + lawWhat + "; its " +
                                 (other == "f" ? "flow" : "effort") + " cannot appear in it");
        return;
    }
    const ex value = scope_.resolve(s.value, Context::Dynamics);
    for (std::size_t b : node.bonds)
        if (value.has(bonds_[b].effort) || value.has(bonds_[b].flow))
            fail(s.value->where, "the value of the " + node.title +
                                     " cannot depend on its own effort or flow; write a law (R NAME : e = ...(f))");
    const bool dividesBy = s.kind == BondNodeKind::Capacitor || s.kind == BondNodeKind::Inertia;
    if (value.is_zero() && (dividesBy || isTwoPort(s.kind)))
        fail(s.value->where, "the " + std::string(isTwoPort(s.kind) ? "modulus" : "parameter") + " of the " +
                                 node.title + " is zero");
    auto state = [&](const std::string& suffix) {
        auto name = std::make_shared<ExpressionSyntax>();
        name->kind = ExpressionSyntax::Kind::Name;
        name->name = s.name.text + "." + suffix;
        name->where = s.name.where;
        return scope_.resolve(name, Context::Dynamics);
    };
    switch (s.kind) {
    case BondNodeKind::Capacitor: node.relation = state("q") / value; break;  // e = q/C
    case BondNodeKind::Inertia:  // f = p/I
        node.relation = state("p") / value;
        node.lawGivesEffort = false;
        break;
    case BondNodeKind::Resistor: node.relation = value * bond.flow; break;  // e = R*f
    default: node.relation = value;
    }
}

void BondGraphBuilder::reportCausality()
{
    std::vector<CausalNode> nodes;
    for (const Node& n : nodes_)
        nodes.push_back({n.statement->kind, n.lawGivesEffort});
    std::vector<CausalEdge> edges;
    for (const Bond& b : bonds_)
        edges.push_back({b.tail, b.head});
    const CausalityResult result = assignCausality(nodes, edges);
    effortEnd_.clear();
    for (EffortEnd e : result.effort)
        effortEnd_.push_back(e == EffortEnd::Tail ? 1 : 0);
    auto title = [&](std::size_t n) { return n == none ? std::string("an arbitrary choice") : "the " + nodes_[n].title; };
    auto titles = [&](const std::vector<std::size_t>& ns) {
        std::vector<std::string> out;
        for (std::size_t n : ns)
            out.push_back(nodes_[n].title);
        return joinTitles(out);
    };
    for (const CausalityProblem& p : result.problems) {
        const std::size_t cause = p.causes.empty() ? none : p.causes.front();
        switch (p.kind) {
        case CausalityProblem::Kind::SourceConflict: {
            const bool effort = nodes_[p.node].statement->kind == BondNodeKind::EffortSource;
            const std::string what = effort ? "effort" : "flow";
            errors_.push_back({nodes_[p.node].statement->name.where,
                               "causal conflict: the " + nodes_[p.node].title + " cannot impose its " + what +
                                   ", because " + title(cause) + " already sets it through the " +
                                   nodes_[p.at].title + " (two sources fix the same " + what + ")"});
            break;
        }
        case CausalityProblem::Kind::Derivative: {
            const bool c = nodes_[p.node].statement->kind == BondNodeKind::Capacitor;
            const std::string variable = c ? "effort" : "flow";
            const std::string stored = c ? "displacement" : "momentum";
            std::string message = "the " + nodes_[p.node].title + " is forced into derivative causality: the " +
                nodes_[p.at].title + " sets its " + variable + ", as the causality of " + title(cause) + " requires. ";
            if (cause != none && isSource(nodes_[cause].statement->kind))
                message += "Its " + stored + " follows from the source and is no state of its own (the equations "
                           "would be a DAE); put a resistor between them or leave the element out";
            else
                message += "Dependent storage elements make the equations a DAE, not state equations; join the "
                           "dependent elements into one, or put a " +
                           std::string(c ? "resistor or an inertia" : "resistor or a compliance") + " between them";
            errors_.push_back({nodes_[p.node].statement->name.where, message});
            break;
        }
        case CausalityProblem::Kind::JunctionConflict: {
            const BondNodeKind kind = nodes_[p.at].statement->kind;
            std::string why;
            if (isJunction(kind)) {
                const bool zero = kind == BondNodeKind::ZeroJunction;
                const std::string what = zero ? "effort" : "flow";
                why = p.causes.size() > 1 ? titles(p.causes) + " both set its " + what
                                          : "none of its bonds can set its " + what +
                                                (p.causes.empty() ? std::string() : " once " + titles(p.causes) +
                                                                                        " fixed the others");
            } else if (kind == BondNodeKind::Transformer) {
                why = "a transformer passes effort through one way and flow the other, but " +
                      (p.causes.empty() ? std::string("the graph") : titles(p.causes)) +
                      " give both its ports the same causality";
            } else {
                why = "a gyrator takes flows in at both ports or efforts in at both, but " +
                      (p.causes.empty() ? std::string("the graph") : titles(p.causes)) + " give its ports different ones";
            }
            const std::size_t placeNode = p.node == none ? p.at : p.node;
            errors_.push_back({nodes_[placeNode].statement->name.where,
                               "causal conflict at the " + nodes_[p.at].title + ": " + why});
            break;
        }
        }
    }
}

}  // namespace sysid::model
