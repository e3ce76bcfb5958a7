#include "engine/integrate/IntegratorSettings.h"

#include "engine/eval/CompiledModelSource.h"
#include "engine/model/Model.h"

namespace sysid::integrate {

std::optional<IntegrationMethod> parseIntegrationMethod(std::string_view name)
{
    if (name == "dopri5")
        return IntegrationMethod::Dopri5;
    if (name == "rosenbrock4")
        return IntegrationMethod::Rosenbrock4;
    if (name == "rk4")
        return IntegrationMethod::RK4;
    if (name == "euler")
        return IntegrationMethod::Euler;
    if (name == "sparse-implicit")
        return IntegrationMethod::SparseImplicit;
    if (name == "implicit-euler")
        return IntegrationMethod::ImplicitEuler;
    if (name == "crank-nicolson")
        return IntegrationMethod::CrankNicolson;
    return std::nullopt;
}

std::string methodName(IntegrationMethod method)
{
    switch (method) {
    case IntegrationMethod::Dopri5: return "dopri5";
    case IntegrationMethod::Rosenbrock4: return "rosenbrock4";
    case IntegrationMethod::RK4: return "rk4";
    case IntegrationMethod::Euler: return "euler";
    case IntegrationMethod::SparseImplicit: return "sparse-implicit";
    case IntegrationMethod::ImplicitEuler: return "implicit-euler";
    case IntegrationMethod::CrankNicolson: return "crank-nicolson";
    }
    return "unknown";
}

bool isAdaptive(IntegrationMethod method)
{
    return method == IntegrationMethod::Dopri5 || method == IntegrationMethod::Rosenbrock4 ||
        method == IntegrationMethod::SparseImplicit;
}

IntegrationMethod defaultMethodFor(bool modelHasFields)
{
    return modelHasFields ? IntegrationMethod::SparseImplicit : IntegrationMethod::Dopri5;
}

IntegrationMethod defaultMethodFor(const model::Model& model)
{
    return defaultMethodFor(!model.fields.empty());
}

IntegrationMethod defaultMethodFor(const eval::CompiledModelSource& model)
{
    return defaultMethodFor(!model.fields.empty());
}

void resolveMethod(IntegratorSettings& settings, const model::Model& model)
{
    if (!settings.methodChosen)
        settings.method = defaultMethodFor(model);
}

void resolveMethod(IntegratorSettings& settings, const eval::CompiledModelSource& model)
{
    if (!settings.methodChosen)
        settings.method = defaultMethodFor(model);
}

}  // namespace sysid::integrate
