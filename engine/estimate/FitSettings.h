#pragma once

#include "engine/integrate/IntegratorSettings.h"
#include "engine/model/Prior.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sysid::estimate {

enum class EstimationMethod {
    OutputError,       // single shooting: simulate each experiment from its initial state
    MultipleShooting,  // Bock: interval start states as extra unknowns, continuity as constraints
    Bayes,             // output error plus a Gaussian prior per parameter (seed note 000, eq. 2.10)
};

std::optional<EstimationMethod> parseEstimationMethod(std::string_view name);  // output-error, multiple-shooting, bayes
std::string methodName(EstimationMethod method);

using Prior = model::Prior;

struct FitSettings {
    EstimationMethod method = EstimationMethod::OutputError;
    integrate::IntegratorSettings integrator;
    std::size_t maxIterations = 100;
    double costTolerance = 1e-12;      // stop when the relative decrease of the cost is below this
    double stepTolerance = 1e-10;      // stop when the relative parameter step is below this
    double gradientTolerance = 1e-10;  // stop when the scaled gradient is below this
    // Weight per output name. An output without an entry gets 1/sigma^2 with sigma estimated
    // from the data (difference-based noise estimate), so outputs in different units balance.
    std::map<std::string, double> outputWeights;
    std::size_t shootingIntervals = 10;  // multiple shooting
    std::map<std::string, Prior> priors;  // Bayes: parameters without a prior are unconstrained
};

}  // namespace sysid::estimate
