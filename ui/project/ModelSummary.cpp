#include "ui/project/ModelSummary.h"

#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelDescription.h"
#include "engine/model/SymbolicLock.h"

#include <mutex>

namespace sysid::ui {

std::string ModelSummary::unitOf(const std::string& name) const
{
    const auto it = units.find(name);
    return it == units.end() ? std::string() : it->second;
}

ModelSummary summarizeModel(const std::string& text, const std::string& source)
{
    ModelSummary summary;
    const std::lock_guard lock(model::symbolicMutex());
    try {
        const model::Model m = model::parseModel(text, source);
        const auto noteUnit = [&summary](const std::string& name, const std::string& unit) {
            if (!unit.empty())
                summary.units[name] = unit;
        };
        for (const auto& s : m.states) {
            summary.states.push_back(s.name);
            noteUnit(s.name, s.unit);
        }
        for (const auto& u : m.inputs) {
            summary.inputs.push_back(u.name);
            noteUnit(u.name, u.unit);
        }
        for (const auto& o : m.outputs) {
            summary.outputs.push_back(o.name);
            noteUnit(o.name, o.unit);
        }
        for (const auto& e : m.events)
            summary.events.push_back(e.text + " : " + e.resetText);
        summary.bondGraph = m.bondGraph.nodes;
        for (const auto& c : m.constraints)
            summary.constraints.push_back(c.text + (c.multiplier.empty() ? "" : " (multiplier " + c.multiplier + ")"));
        for (const auto& s : m.states)
            if (s.algebraic)
                summary.algebraic.push_back(s.name);
        summary.differentiationIndex = m.differentiationIndex;
        summary.declaredIntersample = m.declaredIntersample();
        summary.parameters = m.parameters;
        summary.description = model::describeModel(m);
        summary.equations = model::describeEquations(m);
        summary.lagrangian = !m.lagrangeEquations.empty();
        summary.fields = m.fields;
        summary.valid = true;
    } catch (const model::ModelError& e) {
        summary.errors = e.diagnostics();
    } catch (const std::exception& e) {
        // The engine turns every failure into a ModelError; should one slip through, the editor,
        // which checks the model while it is typed, shows it rather than ending the application.
        summary.errors = {{{}, std::string("the model cannot be checked: ") + e.what()}};
    } catch (...) {
        summary.errors = {{{}, "the model cannot be checked"}};
    }
    return summary;
}

}  // namespace sysid::ui
