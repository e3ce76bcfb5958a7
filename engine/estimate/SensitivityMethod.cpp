#include "engine/estimate/SensitivityMethod.h"

namespace sysid::estimate {

std::optional<SensitivityMethod> parseSensitivityMethod(std::string_view name)
{
    return kSensitivityMethods.parse(name);
}

std::string sensitivityMethodName(SensitivityMethod method)
{
    return std::string(kSensitivityMethods.name(method));
}

}  // namespace sysid::estimate
