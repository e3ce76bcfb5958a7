#include "ui/project/ModelSummary.h"

#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelDescription.h"
#include "engine/model/SymbolicLock.h"

#include <mutex>

namespace sysid::ui {

ModelSummary summarizeModel(const std::string& text, const std::string& source)
{
    ModelSummary summary;
    const std::lock_guard lock(model::symbolicMutex());
    try {
        const model::Model m = model::parseModel(text, source);
        for (const auto& s : m.states)
            summary.states.push_back(s.name);
        for (const auto& u : m.inputs)
            summary.inputs.push_back(u.name);
        for (const auto& o : m.outputs)
            summary.outputs.push_back(o.name);
        summary.parameters = m.parameters;
        summary.description = model::describeModel(m);
        summary.equations = model::describeEquations(m);
        summary.lagrangian = !m.lagrangeEquations.empty();
        summary.fields = m.fields;
        summary.valid = true;
    } catch (const model::ModelError& e) {
        summary.errors = e.diagnostics();
    }
    return summary;
}

}  // namespace sysid::ui
