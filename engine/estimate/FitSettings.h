#pragma once

#include "engine/discretise/PeriodicDiscretisation.h"
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
    PeriodicResponse,  // steady-state periodic responses: the model response is the periodic solution (seed 000 ch. 5-6)
};

// output-error, multiple-shooting, bayes, periodic-response
std::optional<EstimationMethod> parseEstimationMethod(std::string_view name);
std::string methodName(EstimationMethod method);

enum class PeriodicSolver {
    Shooting,        // shooting::findPeriodicSolution (intervals = PeriodicResponseSettings::intervals)
    Discretisation,  // discretise::findPeriodicSolutionByDiscretisation; response interpolated between the nodes
};
std::optional<PeriodicSolver> parsePeriodicSolver(std::string_view name);  // shooting, discretisation
std::string periodicSolverName(PeriodicSolver solver);
std::optional<discretise::PeriodicScheme> parsePeriodicScheme(std::string_view name);  // central-difference, hermite-simpson
std::string periodicSchemeName(discretise::PeriodicScheme scheme);

// The periodic-response method: each experiment is one measured steady state.
struct PeriodicResponseSettings {
    // The forcing period: 2*pi / (value of frequencyParameter in each experiment) when that is
    // named, else `period`. The frequency parameter must be fixed (per experiment through its
    // fixedValues, or in the model), not estimated.
    double period = 0.0;
    std::string frequencyParameter;
    std::size_t periods = 1;            // the response is periods*T-periodic (subharmonics)
    PeriodicSolver solver = PeriodicSolver::Shooting;
    std::size_t intervals = 1;          // shooting intervals
    std::size_t nodes = 200;            // discretisation nodes per forcing period
    discretise::PeriodicScheme scheme = discretise::PeriodicScheme::HermiteSimpson;
    // The first guess of the orbit: the model simulated from its own initial state over this
    // many periods (the transient dies out); later evaluations start from the last accepted orbit.
    std::size_t warmupPeriods = 20;
};

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
    std::map<std::string, Prior> priors;  // Bayes, periodic-response: parameters without a prior are unconstrained
    PeriodicResponseSettings periodic;    // periodic-response
};

}  // namespace sysid::estimate
