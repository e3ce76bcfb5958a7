#include "engine/estimate/FitSettings.h"

namespace sysid::estimate {

std::optional<EstimationMethod> parseEstimationMethod(std::string_view name)
{
    if (name == "output-error") return EstimationMethod::OutputError;
    if (name == "multiple-shooting") return EstimationMethod::MultipleShooting;
    if (name == "bayes") return EstimationMethod::Bayes;
    return std::nullopt;
}

std::string methodName(EstimationMethod method)
{
    switch (method) {
    case EstimationMethod::OutputError: return "output-error";
    case EstimationMethod::MultipleShooting: return "multiple-shooting";
    case EstimationMethod::Bayes: return "bayes";
    }
    return "unknown";
}

}  // namespace sysid::estimate
