#include "app/cli/FieldOptions.h"

namespace sysid::cli {

FieldOptionPolicy<estimate::MethodInput> fitOptionPolicy(const estimate::FitSettings& settings, bool refuse)
{
    FieldOptionPolicy<estimate::MethodInput> policy;
    policy.applies = [&settings](const estimate::MethodInput& input) {
        return estimate::takes(settings.method, input);
    };
    policy.takers = [](const std::vector<estimate::MethodInput>& inputs) { return estimate::methodsTaking(inputs); };
    if (refuse)
        policy.refusal = [&settings](std::string_view subject, const std::vector<estimate::MethodInput>& inputs) {
            return estimate::notTakenMessage(subject, inputs, settings.method);
        };
    policy.otherOptions = {{"priors", "prior"}};
    return policy;
}

}  // namespace sysid::cli
