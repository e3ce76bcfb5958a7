#include "engine/model/ModelDescription.h"

#include "engine/model/UnitLabel.h"

#include <ginac/ginac.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace sysid::model {

namespace {

std::string text(const GiNaC::ex& e)
{
    std::ostringstream s;
    s << e;
    return s.str();
}

std::string hiddenCount(const Constraint& c)
{
    const std::size_t k = c.hidden.size();
    if (k == 0)
        return "";
    return ": " + std::to_string(k) + " hidden constraint" + (k == 1 ? "" : "s");
}

// "second time derivative" of a constraint.
std::string derivativeWord(std::size_t order)
{
    static const char* words[] = {"", "first", "second", "third", "fourth"};
    return std::string(order < 5 ? words[order] : "higher") + " time derivative";
}

std::string number(double v)
{
    std::ostringstream s;
    s << std::setprecision(12) << v;
    return s.str();
}

}  // namespace

std::string describeModel(const Model& model)
{
    std::ostringstream out;
    out << "model " << model.source << "\n";
    const std::size_t algebraic = model.algebraicCount();
    out << "states (" << model.states.size() - algebraic << "):\n";
    for (const auto& s : model.states) {
        if (s.algebraic)
            continue;
        out << "  " << std::left << std::setw(12) << s.name << " initial " << text(s.initial);
        if (algebraic > 0)
            out << (s.heldInitial ? " (held)" : " (free: the constraints may change it)");
        if (!s.unit.empty())
            out << " unit " << s.unit;
        out << "\n";
    }
    if (algebraic > 0) {
        out << "algebraic variables (" << algebraic << "):\n";
        for (std::size_t k = 0; k < model.states.size(); ++k) {
            const auto& s = model.states[k];
            if (!s.algebraic)
                continue;
            out << "  " << std::left << std::setw(12) << s.name;
            for (const auto& c : model.constraints)
                if (c.multiplier == s.name)
                    out << " multiplier of the constraint " << c.text << " (" << model.place(c.where) << ")";
            if (!s.unit.empty())
                out << " unit " << s.unit;
            out << "\n";
        }
        std::size_t hidden = 0;
        for (const auto& c : model.constraints)
            hidden += c.hidden.size();
        const std::size_t differential = model.states.size() - algebraic;
        out << "constraints (" << model.constraints.size() << "), differentiation index " << model.differentiationIndex
            << "; " << differential << " states under " << hidden << " hidden constraints leave "
            << differential - std::min(hidden, differential) << " independent:\n";
        for (const auto& c : model.constraints)
            out << "  " << c.text << "  (" << model.place(c.where) << ")" << hiddenCount(c) << "\n";
    }
    out << "parameters (" << model.parameters.size() << "):\n";
    for (const auto& p : model.parameters) {
        out << "  " << std::left << std::setw(12) << p.name << " = " << std::setw(12) << number(p.value);
        if (p.fixed)
            out << " fixed";
        else {
            out << " estimated";
            if (std::isfinite(p.lower) || std::isfinite(p.upper))
                out << " in [" << number(p.lower) << ", " << number(p.upper) << "]";
        }
        if (p.prior)
            out << " prior " << number(p.prior->mean) << " +- " << number(p.prior->sd);
        if (p.isInitialValue)
            out << " (initial value)";
        if (!p.unit.empty())
            out << " unit " << p.unit;
        out << "\n";
    }
    if (!model.fields.empty()) {
        out << "fields (" << model.fields.size() << "), by the method of lines:\n";
        for (const auto& f : model.fields) {
            out << "  " << f.name << " on";
            for (std::size_t d = 0; d < f.variables.size(); ++d) {
                const auto& c = f.coordinates[d];
                out << (d ? ", " : " ") << f.variables[d] << " = " << number(c.front()) << " .. " << number(c.back())
                    << " (" << c.size() << " nodes)";
            }
            out << ": states " << model.states[f.states.front()].name << " .. " << model.states[f.states.back()].name
                << "\n";
        }
    }
    out << "inputs (" << model.inputs.size() << "):";
    for (const auto& u : model.inputs) {
        out << " " << withUnit(u.name, u.unit);
        if (u.intersample)
            out << " (" << integrate::intersampleTable.name(*u.intersample) << ")";
    }
    out << "\noutputs (" << model.outputs.size() << "):";
    for (const auto& o : model.outputs)
        out << " " << withUnit(o.name, o.unit);
    if (!model.outputsDeclared)
        out << "  (no 'output' declared: every state)";
    out << "\n";
    for (const auto& o : model.outputs)
        if (o.anonymous)
            out << "  " << o.name << " = " << text(o.expression) << "\n";
    if (!model.bondGraph.empty())
        out << bondGraphSummary(model.bondGraph);
    if (!model.events.empty()) {
        out << "events (" << model.events.size() << "):\n";
        for (const auto& e : model.events)
            out << "  " << e.text << " : " << e.resetText << "  (line " << e.where.line << ")\n";
    }
    return out.str();
}

std::string describeEquations(const Model& model)
{
    std::ostringstream out;
    const bool constrained = !model.constraints.empty();
    bool multipliers = false;
    for (const auto& c : model.constraints)
        multipliers = multipliers || !c.multiplier.empty();
    if (!model.lagrangeEquations.empty()) {
        if (multipliers)
            out << "descriptor system M q'' + Phi_q^T lambda = Q with the constraints Phi = 0 (Lagrange's\n"
                   "equations d/dt(dL/dq') - dL/dq + dD/dq' + Phi_q^T lambda = Q, L = T - V):\n";
        else
            out << "Lagrange's equations, d/dt(dL/dq') - dL/dq + dD/dq' = Q, with L = T - V:\n";
        for (const auto& e : model.lagrangeEquations) {
            out << "  " << text(e.lhs);
            if (!e.constraintForce.is_zero())
                out << " + " << text(e.constraintForce);
            out << " = " << text(e.generalizedForce) << "\n";
        }
    }
    if (!model.bondGraph.empty())
        out << describeBondGraph(model.bondGraph);
    if (constrained) {
        out << "constraints (differentiation index " << model.differentiationIndex << "):\n";
        for (const auto& c : model.constraints) {
            out << "  " << c.text << "  (" << model.place(c.where) << ")";
            if (!c.multiplier.empty())
                out << ", multiplier " << c.multiplier << (c.onVelocities ? " (on velocities)" : "");
            out << "\n    0 = " << text(c.expression) << "\n";
            for (std::size_t k = 1; k < c.hidden.size(); ++k)
                out << "    hidden constraint (" << derivativeWord(k) << "): 0 = " << text(c.hidden[k]) << "\n";
            out << "    index-1 equation (" << (c.hidden.empty() ? std::string("as written") : derivativeWord(c.hidden.size()))
                << "): 0 = " << text(c.reduced) << "\n";
        }
        out << "integrated as an index-1 DAE: the states below, with the algebraic variables solved from\n"
               "the index-1 equations, kept on the constraints and the hidden constraints by projection\n"
               "after every step (or Baumgarte's terms, as the integrator's stabilisation setting says)\n";
    }
    out << (constrained ? "first-order system (differential states):\n" : "first-order system:\n");
    for (const auto& s : model.states)
        if (!s.algebraic)
            out << "  d/dt " << s.name << " = " << text(s.rhs) << "\n";
    out << "outputs:\n";
    for (const auto& o : model.outputs)
        out << "  " << withUnit(o.name, o.unit) << " = " << text(o.expression) << "\n";
    if (!model.events.empty()) {
        out << "events (the resets use the states just before the event and apply together):\n";
        for (const auto& e : model.events) {
            out << "  " << e.text << " (line " << e.where.line << "): fires when " << text(e.condition)
                << (e.direction < 0 ? " falls" : " rises") << " through 0\n";
            for (const auto& a : e.assignments)
                out << "    " << model.states[a.state].name << " = " << text(a.value) << "\n";
        }
    }
    return out.str();
}

}  // namespace sysid::model
