#include "engine/estimate/FitSettings.h"

namespace sysid::estimate {

std::optional<EstimationMethod> parseEstimationMethod(std::string_view name)
{
    if (name == "output-error")
        return EstimationMethod::OutputError;
    if (name == "multiple-shooting")
        return EstimationMethod::MultipleShooting;
    if (name == "bayes")
        return EstimationMethod::Bayes;
    if (name == "periodic-response")
        return EstimationMethod::PeriodicResponse;
    if (name == "single-step")
        return EstimationMethod::SingleStep;
    if (name == "multistep")
        return EstimationMethod::Multistep;
    if (name == "steepest-descent")
        return EstimationMethod::SteepestDescent;
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

std::optional<SensitivityMethod> parseSensitivityMethod(std::string_view name)
{
    if (name == "forward")
        return SensitivityMethod::Forward;
    if (name == "structural")
        return SensitivityMethod::Structural;
    return std::nullopt;
}

std::string sensitivityMethodName(SensitivityMethod method)
{
    return method == SensitivityMethod::Forward ? "forward" : "structural";
}

bool acceptsSensitivityMethod(EstimationMethod method)
{
    return method == EstimationMethod::OutputError || method == EstimationMethod::Bayes ||
        method == EstimationMethod::SteepestDescent;
}

std::string structuralSensitivityRefusal(EstimationMethod method)
{
    return "the structural sensitivity method is for output-error, bayes and steepest-descent fits; " +
        methodName(method) + " forms its own derivatives (use sensitivity forward)";
}

bool isEquationError(EstimationMethod method)
{
    return method == EstimationMethod::SingleStep || method == EstimationMethod::Multistep;
}

std::optional<PeriodicSolver> parsePeriodicSolver(std::string_view name)
{
    if (name == "shooting")
        return PeriodicSolver::Shooting;
    if (name == "discretisation")
        return PeriodicSolver::Discretisation;
    return std::nullopt;
}

std::string periodicSolverName(PeriodicSolver solver)
{
    return solver == PeriodicSolver::Shooting ? "shooting" : "discretisation";
}

std::optional<discretise::PeriodicScheme> parsePeriodicScheme(std::string_view name)
{
    if (name == "central-difference")
        return discretise::PeriodicScheme::CentralDifference;
    if (name == "hermite-simpson")
        return discretise::PeriodicScheme::HermiteSimpson;
    return std::nullopt;
}

std::string periodicSchemeName(discretise::PeriodicScheme scheme)
{
    return scheme == discretise::PeriodicScheme::CentralDifference ? "central-difference" : "hermite-simpson";
}

}  // namespace sysid::estimate
