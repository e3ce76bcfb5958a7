#pragma once

#include "engine/data/Preprocessing.h"
#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/estimate/EquationErrorFormula.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/model/Prior.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sysid::estimate {

enum class EstimationMethod {
    OutputError,  // single shooting: simulate each experiment from its initial state
    MultipleShooting,  // Bock: interval start states as extra unknowns, continuity as constraints
    Bayes,  // output error plus a Gaussian prior per parameter (seed note 000, eq. 2.10)
    PeriodicResponse,  // steady-state periodic responses: the model response is the periodic solution (seed 000 ch.
                       // 5-6)
    SingleStep,  // equation error of a one-step formula on the measured states (seed 004 ch. 3)
    Multistep,  // equation error of a multistep formula on the measured states (seed 004 ch. 4)
    SteepestDescent,  // output error minimised by the seed's fixed-gain gradient step (seed 003 sec. 4.1)
};

bool isEquationError(EstimationMethod method);

// output-error, multiple-shooting, bayes, periodic-response, single-step, multistep, steepest-descent
std::optional<EstimationMethod> parseEstimationMethod(std::string_view name);
std::string methodName(EstimationMethod method);

enum class PeriodicSolver {
    Shooting,  // shooting::findPeriodicSolution (intervals = PeriodicResponseSettings::intervals)
    Discretisation,  // discretise::findPeriodicSolutionByDiscretisation; response interpolated between the nodes
};
std::optional<PeriodicSolver> parsePeriodicSolver(std::string_view name);  // shooting, discretisation
std::string periodicSolverName(PeriodicSolver solver);
std::optional<discretise::PeriodicScheme> parsePeriodicScheme(
    std::string_view name);  // central-difference, hermite-simpson
std::string periodicSchemeName(discretise::PeriodicScheme scheme);

// The periodic-response method: each experiment is one measured steady state.
struct PeriodicResponseSettings {
    // The forcing period: 2*pi / (value of frequencyParameter in each experiment) when that is
    // named, else `period`. The frequency parameter must be fixed (per experiment through its
    // fixedValues, or in the model), not estimated.
    double period = 0.0;
    std::string frequencyParameter;
    std::size_t periods = 1;  // the response is periods*T-periodic (subharmonics)
    PeriodicSolver solver = PeriodicSolver::Shooting;
    std::size_t intervals = 1;  // shooting intervals
    std::size_t nodes = 200;  // discretisation nodes per forcing period
    discretise::PeriodicScheme scheme = discretise::PeriodicScheme::HermiteSimpson;
    // The first guess of the orbit: the model simulated from its own initial state over this
    // many periods (the transient dies out); later evaluations start from the last accepted orbit.
    std::size_t warmupPeriods = 20;
};

// The equation-error methods: no ODE is solved; the measured states are substituted into one
// step of an integration formula and its mismatch is minimised by Newton-Raphson.
struct EquationErrorSettings {
    EquationErrorFormula oneStep = EquationErrorFormula::Heun;  // single-step
    EquationErrorFormula multistep = EquationErrorFormula::NewtonCotes6;  // multistep
    // Weight of each state's residual in the objective. A state without an entry gets the
    // seed's scaling (eq. 3.6): 1/T^2 for a coordinate whose velocity is a state too (T the
    // record length, so both terms have units of velocity^2), 1 for every other state.
    std::map<std::string, double> stateWeights;
    // Velocities that are not measured come from the measured coordinates by this method.
    data::Preprocessing::Derivative differentiation;
    // Simulate the fitted model from the first measured sample for the live traces and the
    // output residual RMS. Off for models that cannot be simulated stably, and when only the
    // estimate is wanted (it costs one integration per iteration when traces are watched).
    bool simulateFit = true;
};

using Prior = model::Prior;

// How the single-shooting methods (output-error, bayes, steepest-descent) get dy/dtheta.
enum class SensitivityMethod {
    // Meissinger's parameter-sensitivity equations integrated with the model (any model).
    Forward,
    // The structural-sensitivity method (seed 003 sec. 3.4, integrate::structuralSensitivity):
    // one sensitivity model driven at its sensitivity points, propagated by the matrix
    // exponential. Only for models linear in the states with constant coefficients (a
    // discretised linear PDE); the integrator settings do not apply to it.
    Structural,
};
std::optional<SensitivityMethod> parseSensitivityMethod(std::string_view name);  // forward, structural
std::string sensitivityMethodName(SensitivityMethod method);
// True for the methods whose Jacobian is the single-shooting output sensitivity.
bool acceptsSensitivityMethod(EstimationMethod method);
// Why `method` cannot take the structural method, for the user.
std::string structuralSensitivityRefusal(EstimationMethod method);

struct FitSettings {
    EstimationMethod method = EstimationMethod::OutputError;
    integrate::IntegratorSettings integrator;
    std::size_t maxIterations = 100;
    double costTolerance = 1e-12;  // stop when the relative decrease of the cost is below this
    double stepTolerance = 1e-10;  // stop when the relative parameter step is below this
    double gradientTolerance = 1e-10;  // stop when the scaled gradient is below this
    // Weight per output name. An output without an entry gets 1/sigma^2 with sigma estimated
    // from the data (difference-based noise estimate), so outputs in different units balance.
    std::map<std::string, double> outputWeights;
    std::size_t shootingIntervals = 10;  // multiple shooting
    std::map<std::string, Prior> priors;  // Bayes, periodic-response: parameters without a prior are unconstrained
    PeriodicResponseSettings periodic;  // periodic-response
    EquationErrorSettings equationError;  // single-step, multistep
    // Steepest descent: theta <- theta - (K/2) dJ/dtheta with J = sum over experiments of
    // int sum_j w_j (q_j - y_j)^2 dt (trapezoid rule over the sample times), w_j = 1 unless
    // given in outputWeights (not the 1/sigma^2 default of the other methods). With unit weights
    // this is the seed's J = int sum_i (q_i - S_i)^2 dt and its update (4.22),
    // da_j = -K int sum_i (q_i - S_i) U_ij dt, so its K = 0.02 means the same here.
    double steepestDescentGain = 0.02;
    SensitivityMethod sensitivity = SensitivityMethod::Forward;  // output-error, bayes, steepest-descent
};

}  // namespace sysid::estimate
