#pragma once

#include "engine/core/EnumTable.h"
#include "engine/estimate/EstimationMethod.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::estimate {

// What an estimation method takes from the fit settings. Each is one group of FitSettings
// (MethodInput of its entries in FitSettingFields.h); the command line refuses an option whose
// input the method does not take, and the estimator panel shows only what the method takes.
enum class MethodInput {
    SensitivityMethod,  // dy/dtheta by forward or structural sensitivities: single shooting
    ShootingIntervals,  // intervals of multiple shooting
    Priors,  // Gaussian priors of the parameters in the cost
    InitialValues,  // initial values marked `estimate` are unknowns (the equation-error methods take x(0) from the
                    // data)
    OutputWeights,  // weights of the output residuals
    OneStepFormula,  // the single-step method's formula
    MultistepFormula,  // the multistep method's formula
    StateWeights,  // weights of the states' equation errors
    Differentiation,  // velocities that are not measured come from the measured coordinates
    SimulateFit,  // whether the fitted model is simulated for traces and output residuals
    PeriodicResponse,  // forcing period, periods, periodic solver, intervals, nodes, scheme, settling periods
    Gain,  // the fixed gain of steepest descent
    Refinement,  // its estimate can start an output-error fit (sysid fit --refine, the GUI's Refine)
};

// The cost a method minimises, and so the problem it builds.
enum class Objective {
    OutputError,  // simulated outputs from the experiments' initial states (single shooting)
    MultipleShooting,  // outputs of the shooting intervals, continuity as constraints
    PeriodicResponse,  // outputs of the periodic steady state
    EquationError,  // one step of an integration formula on the measured states; no ODE solved
};

// How the cost is minimised.
enum class Minimiser {
    LevenbergMarquardt,  // Gauss-Newton as lambda -> 0, bounds by projection
    DampedGaussNewton,  // Gauss-Newton with a line search on an adaptive-penalty merit function (Bock 1983)
    SteepestDescent,  // theta <- theta - (K/2) dJ/dtheta with a fixed gain K (Bordan 1971, eq. 4.22)
    NewtonRaphson,  // exact second derivatives of the equation error, Gauss-Newton where they are indefinite
};

// The minimisers' names in the fit report and the result.
inline constexpr core::EnumTable minimiserTable{
    "minimiser",
    std::array{
        core::EnumSpelling<Minimiser>{Minimiser::LevenbergMarquardt, "Levenberg-Marquardt",
                                      "Gauss-Newton as the damping goes to 0, bounds by projection"},
        core::EnumSpelling<Minimiser>{Minimiser::DampedGaussNewton, "damped Gauss-Newton",
                                      "Gauss-Newton with a line search on an adaptive-penalty merit function"},
        core::EnumSpelling<Minimiser>{Minimiser::SteepestDescent, "steepest descent with a fixed gain",
                                      "theta <- theta - (K/2) dJ/dtheta"},
        core::EnumSpelling<Minimiser>{Minimiser::NewtonRaphson, "Newton-Raphson with the exact Hessian",
                                      "exact second derivatives, Gauss-Newton where they are indefinite"},
    }};

// Where the weights of the output residuals come from.
enum class OutputWeighting {
    NoiseEstimate,  // given, else 1/sigma^2 with sigma estimated from the data before the fit
    Unit,  // given, else 1 (the unweighted cost of Bordan 1971, eq. 4.19)
    // 1/sigma^2 with sigma estimated with the parameters: sigma_j^2 = M_jj(theta)/n_j at the optimum, the
    // maximum-likelihood estimate (Vankan 1992, eq. 2.12-2.13). Only output error (single shooting) has it.
    Estimated,
};

// One row per estimation method: everything the rest of sysid asks about a method.
struct MethodTraits {
    EstimationMethod method;
    Objective objective;
    Minimiser minimiser;
    std::uint32_t inputs;  // bits of MethodInput
    OutputWeighting weighting;

    constexpr bool takes(MethodInput input) const { return (inputs >> static_cast<unsigned>(input)) & 1u; }
};

constexpr std::uint32_t inputBits(std::initializer_list<MethodInput> inputs)
{
    std::uint32_t bits = 0;
    for (const auto input : inputs)
        bits |= 1u << static_cast<unsigned>(input);
    return bits;
}

// The rows, in EstimationMethod order.
inline constexpr std::array<MethodTraits, 8> kMethodTraits{{
    {EstimationMethod::OutputError, Objective::OutputError, Minimiser::LevenbergMarquardt,
     inputBits({MethodInput::SensitivityMethod, MethodInput::InitialValues, MethodInput::OutputWeights}),
     OutputWeighting::NoiseEstimate},
    {EstimationMethod::MultipleShooting, Objective::MultipleShooting, Minimiser::DampedGaussNewton,
     inputBits({MethodInput::ShootingIntervals, MethodInput::InitialValues, MethodInput::OutputWeights}),
     OutputWeighting::NoiseEstimate},
    {EstimationMethod::Bayes, Objective::OutputError, Minimiser::LevenbergMarquardt,
     inputBits(
         {MethodInput::SensitivityMethod, MethodInput::InitialValues, MethodInput::OutputWeights, MethodInput::Priors}),
     OutputWeighting::NoiseEstimate},
    {EstimationMethod::PeriodicResponse, Objective::PeriodicResponse, Minimiser::LevenbergMarquardt,
     inputBits(
         {MethodInput::InitialValues, MethodInput::OutputWeights, MethodInput::Priors, MethodInput::PeriodicResponse}),
     OutputWeighting::NoiseEstimate},
    {EstimationMethod::SingleStep, Objective::EquationError, Minimiser::NewtonRaphson,
     inputBits({MethodInput::OneStepFormula, MethodInput::StateWeights, MethodInput::Differentiation,
                MethodInput::SimulateFit, MethodInput::Refinement}),
     OutputWeighting::NoiseEstimate},
    {EstimationMethod::Multistep, Objective::EquationError, Minimiser::NewtonRaphson,
     inputBits({MethodInput::MultistepFormula, MethodInput::StateWeights, MethodInput::Differentiation,
                MethodInput::SimulateFit, MethodInput::Refinement}),
     OutputWeighting::NoiseEstimate},
    {EstimationMethod::SteepestDescent, Objective::OutputError, Minimiser::SteepestDescent,
     inputBits(
         {MethodInput::SensitivityMethod, MethodInput::InitialValues, MethodInput::OutputWeights, MethodInput::Gain}),
     OutputWeighting::Unit},
    // With priors it is the Bayesian estimator with estimated variances (Vankan 1992, eq. 2.10 with 2.12). Output
    // error only: multiple shooting and periodic response keep weights fixed before the fit.
    {EstimationMethod::MaximumLikelihood, Objective::OutputError, Minimiser::LevenbergMarquardt,
     inputBits({MethodInput::SensitivityMethod, MethodInput::InitialValues, MethodInput::Priors}),
     OutputWeighting::Estimated},
}};

const MethodTraits& traitsOf(EstimationMethod method);
bool takes(EstimationMethod method, MethodInput input);
// The methods that take `input` (any of `inputs`): "output-error, bayes or steepest-descent"
// (`last` joins the last two names).
std::string methodsTaking(MethodInput input, std::string_view last = " or ");
std::string methodsTaking(const std::vector<MethodInput>& inputs, std::string_view last = " or ");
// "--OPTION is for --method M1 or M2, not M": the command line's refusal of a setting the method
// does not take (`subject` is the option as given, with its value where that matters; `inputs`
// the inputs of the settings the option sets).
std::string notTakenMessage(std::string_view subject, const std::vector<MethodInput>& inputs, EstimationMethod method);

}  // namespace sysid::estimate
