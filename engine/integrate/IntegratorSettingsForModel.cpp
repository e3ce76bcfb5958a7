// The integrator's default for a symbolic model, apart from IntegratorSettings.cpp so that code
// choosing it for a compiled model does not link GiNaC (the command line's start: docs/DECISIONS.md,
// "The command line without GiNaC").
#include "engine/integrate/IntegratorSettings.h"
#include "engine/model/Model.h"

namespace sysid::integrate {

IntegrationMethod defaultMethodFor(const model::Model& model)
{
    return defaultMethodFor(!model.fields.empty(), model.algebraicCount() > 0);
}

void resolveMethod(IntegratorSettings& settings, const model::Model& model)
{
    if (!settings.methodChosen)
        settings.method = defaultMethodFor(model);
}

}  // namespace sysid::integrate
