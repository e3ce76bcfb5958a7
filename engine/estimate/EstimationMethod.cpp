#include "engine/estimate/EstimationMethod.h"

namespace sysid::estimate {

std::optional<EstimationMethod> parseEstimationMethod(std::string_view name)
{
    return kEstimationMethods.parse(name);
}

std::string methodName(EstimationMethod method)
{
    return std::string(kEstimationMethods.name(method));
}

}  // namespace sysid::estimate
