#pragma once

#include "engine/core/EnumTable.h"

#include <array>
#include <string>

namespace sysid::estimate {

enum class EstimationMethod {
    OutputError,  // single shooting: simulate each experiment from its initial state
    MultipleShooting,  // Bock: interval start states as extra unknowns, continuity as constraints
    Bayes,  // output error plus a Gaussian prior per parameter (Vankan 1992, eq. 2.10)
    PeriodicResponse,  // steady-state periodic responses: the model response is the periodic solution (Vankan 1992)
    SingleStep,  // equation error of a one-step formula on the measured states (Normann 1989, ch. 3)
    Multistep,  // equation error of a multistep formula on the measured states (Normann 1989, ch. 4)
    SteepestDescent,  // output error minimised by a fixed-gain gradient step (Bordan 1971, sec. 4.1)
    MaximumLikelihood,  // output error with each output's noise variance estimated too (Vankan 1992, eq. 2.12)
};

// What each method takes from the settings is its row in MethodTraits.h.
inline constexpr core::EnumTable kEstimationMethods{
    "method",
    std::to_array<core::EnumSpelling<EstimationMethod>>({
        {.value = EstimationMethod::OutputError,
         .name = "output-error",
         .description = "simulate each experiment from its initial state and minimise the weighted output "
                        "residuals (Gauss-Newton / Levenberg-Marquardt)",
         .label = "Output error"},
        {.value = EstimationMethod::MultipleShooting,
         .name = "multiple-shooting",
         .description = "the states at the shooting intervals' starts are unknowns too, continuity a "
                        "constraint (Bock 1983; damped Gauss-Newton)",
         .label = "Multiple shooting"},
        {.value = EstimationMethod::Bayes,
         .name = "bayes",
         .description = "output error plus a Gaussian prior per parameter (Vankan 1992, eq. 2.10)",
         .label = "Bayes"},
        {.value = EstimationMethod::PeriodicResponse,
         .name = "periodic-response",
         .description = "the model's periodic steady state fitted to measured periodic responses (Vankan "
                        "1992)",
         .label = "Periodic response"},
        {.value = EstimationMethod::SingleStep,
         .name = "single-step",
         .description = "equation error of a one-step formula on the measured states, no differential "
                        "equation solved (Normann 1989)",
         .label = "Single-step (equation error)"},
        {.value = EstimationMethod::Multistep,
         .name = "multistep",
         .description = "equation error of a multistep formula on the measured states (Normann 1989)",
         .label = "Multistep (equation error)"},
        {.value = EstimationMethod::SteepestDescent,
         .name = "steepest-descent",
         .description = "output error minimised by a fixed-gain gradient step (Bordan 1971, eq. 4.22)",
         .label = "Steepest descent (Bordan 1971)"},
        {.value = EstimationMethod::MaximumLikelihood,
         .name = "ml",
         .description = "maximum likelihood: output error with each output's noise variance estimated with the "
                        "parameters (Vankan 1992, eq. 2.12); with priors, the Bayesian estimator with estimated "
                        "variances",
         .label = "Maximum likelihood"},
    })};

inline std::string methodName(EstimationMethod method)
{
    return std::string(kEstimationMethods.name(method));
}

}  // namespace sysid::estimate
