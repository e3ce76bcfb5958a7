#include "engine/model/ModelDescription.h"

#include "engine/model/UnitLabel.h"

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
    out << "states (" << model.states.size() << "):\n";
    for (const auto& s : model.states) {
        out << "  " << std::left << std::setw(12) << s.name << " initial " << text(s.initial);
        if (!s.unit.empty())
            out << " unit " << s.unit;
        out << "\n";
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
    if (!model.lagrangeEquations.empty()) {
        out << "Lagrange's equations, d/dt(dL/dq') - dL/dq + dD/dq' = Q, with L = T - V:\n";
        for (const auto& e : model.lagrangeEquations)
            out << "  " << text(e.lhs) << " = " << text(e.generalizedForce) << "\n";
    }
    if (!model.bondGraph.empty())
        out << describeBondGraph(model.bondGraph);
    out << "first-order system:\n";
    for (const auto& s : model.states)
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
