// What a method can take of a compiled model, apart from CompiledModelSource.cpp (the symbolic
// compilation) so that the numeric code asking it does not link GiNaC.
#include "engine/eval/CompiledModelSource.h"

#include "engine/core/InternalError.h"

#include <string>

namespace sysid::eval {

std::string constraintRefusal(const CompiledModelSource& model, const std::string& method)
{
    if (!model.isDae())
        return {};
    return method + " cannot take this model: it has algebraic variables (" + model.stateNames.back() +
        ") from its constraints, whose values an integration keeps consistent; use a method that integrates (output "
        "error, multiple shooting, or periodic solutions by shooting)";
}

std::string resetRefusal(const CompiledModelSource& model, const std::string& method)
{
    if (model.events.empty())
        return {};
    const auto& e = model.events.front();
    return method + " cannot apply the reset of '" + e.text + "'" +
        (e.line > 0 ? " (line " + std::to_string(e.line) + ")" : std::string()) +
        ": it evaluates the model without integrating it; use a method that integrates (output error, multiple "
        "shooting, or periodic solutions by shooting)";
}

void requireSecondDerivatives(const CompiledModelSource& model, std::string_view user)
{
    if (!model.hasSecondDerivatives)
        throw core::InternalError(std::string(user) + " needs the model's second derivatives, but " +
                                  (model.isDae() ? "a model with algebraic variables has none"
                                                 : "the model was compiled without them for this run") +
                                  "; please report this");
}

}  // namespace sysid::eval
