#include "engine/estimate/FitSettings.h"

namespace sysid::estimate {

std::optional<EstimationMethod> parseEstimationMethod(std::string_view name)
{
    if (name == "output-error") return EstimationMethod::OutputError;
    if (name == "multiple-shooting") return EstimationMethod::MultipleShooting;
    if (name == "bayes") return EstimationMethod::Bayes;
    if (name == "periodic-response") return EstimationMethod::PeriodicResponse;
    if (name == "single-step") return EstimationMethod::SingleStep;
    if (name == "multistep") return EstimationMethod::Multistep;
    if (name == "steepest-descent") return EstimationMethod::SteepestDescent;
    return std::nullopt;
}

std::string methodName(EstimationMethod method)
{
    switch (method) {
    case EstimationMethod::OutputError: return "output-error";
    case EstimationMethod::MultipleShooting: return "multiple-shooting";
    case EstimationMethod::Bayes: return "bayes";
    case EstimationMethod::PeriodicResponse: return "periodic-response";
    case EstimationMethod::SingleStep: return "single-step";
    case EstimationMethod::Multistep: return "multistep";
    case EstimationMethod::SteepestDescent: return "steepest-descent";
    }
    return "unknown";
}

bool isEquationError(EstimationMethod method)
{
    return method == EstimationMethod::SingleStep || method == EstimationMethod::Multistep;
}

std::optional<PeriodicSolver> parsePeriodicSolver(std::string_view name)
{
    if (name == "shooting") return PeriodicSolver::Shooting;
    if (name == "discretisation") return PeriodicSolver::Discretisation;
    return std::nullopt;
}

std::string periodicSolverName(PeriodicSolver solver)
{
    return solver == PeriodicSolver::Shooting ? "shooting" : "discretisation";
}

std::optional<discretise::PeriodicScheme> parsePeriodicScheme(std::string_view name)
{
    if (name == "central-difference") return discretise::PeriodicScheme::CentralDifference;
    if (name == "hermite-simpson") return discretise::PeriodicScheme::HermiteSimpson;
    return std::nullopt;
}

std::string periodicSchemeName(discretise::PeriodicScheme scheme)
{
    return scheme == discretise::PeriodicScheme::CentralDifference ? "central-difference" : "hermite-simpson";
}

}  // namespace sysid::estimate
