#pragma once

#include "engine/data/Preprocessing.h"
#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/discretise/PeriodicSolver.h"
#include "engine/estimate/EquationErrorFormula.h"
#include "engine/estimate/EstimationMethod.h"
#include "engine/estimate/SensitivityMethod.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/Intersample.h"
#include "engine/model/Prior.h"
#include "engine/shooting/JacobianReuse.h"

#include <cstddef>
#include <map>
#include <string>

namespace sysid::estimate {

// Every setting's key, option, help and rule is its entry in FitSettingFields.h; validate()
// checks those rules and the ones between settings, and throws core::SettingError with the key
// of the setting (relative to the struct) and the rule it broke.

// The periodic-response method: each experiment is one measured steady state.
struct PeriodicResponseSettings {
    // The forcing period: 2*pi / (value of frequencyParameter in each experiment) when that is
    // named, else `period`. The frequency parameter must be fixed (per experiment through its
    // fixedValues, or in the model), not estimated.
    double period = 0.0;
    std::string frequencyParameter;
    std::size_t periods = 1;  // the response is periods*T-periodic (subharmonics)
    discretise::PeriodicSolver solver = discretise::PeriodicSolver::Shooting;
    std::size_t intervals = 1;  // shooting intervals
    std::size_t nodes = 200;  // discretisation nodes per forcing period
    discretise::PeriodicScheme scheme = discretise::PeriodicScheme::HermiteSimpson;
    // The first guess of the orbit: the model simulated from its own initial state over this
    // many periods (the transient dies out); later evaluations start from the last accepted orbit.
    std::size_t settlePeriods = 20;
    // When the shooting Newton re-uses its Jacobian (Vankan 1992, eq. 4.42), also from one fit
    // iteration's orbit to the next.
    shooting::JacobianReuse jacobianReuse = shooting::JacobianReuse::Automatic;

    void validate() const;
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

    void validate() const;
};

using Prior = model::Prior;

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
    // How each model input behaves between its samples: zero-order hold (a sampled, piecewise-constant
    // signal), linear, or a cubic spline (a smooth band-limited one). An input without an entry is linear.
    std::map<std::string, integrate::Intersample> intersample;
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

    // Every setting, whichever method it serves: a project keeps them all, and a method chosen
    // later takes them as they are. Whether the method can take the structural sensitivity
    // method is estimate::fit's check.
    void validate() const;
};

// Why `method` cannot take the structural sensitivity method, for the user.
std::string structuralSensitivityRefusal(EstimationMethod method);

// Whether a fit with these settings evaluates the model's second derivatives, so must compile them
// (eval::CompileOptions): the equation-error objective (its Newton-Raphson Hessian, kMethodTraits'
// Objective::EquationError), or the forward sensitivities every other objective integrates, with an
// integrator that needs them (integrate::sensitivitiesNeedSecondDerivatives).
bool needsSecondDerivatives(const FitSettings& settings);

}  // namespace sysid::estimate
