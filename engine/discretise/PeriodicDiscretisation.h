#pragma once

#include "engine/core/EnumTable.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/InputSignals.h"
#include "engine/shooting/DampedNewton.h"
#include "engine/shooting/PeriodicSolution.h"

#include <Eigen/Dense>

#include <array>
#include <cstddef>
#include <stop_token>
#include <vector>

namespace sysid::discretise {

enum class PeriodicScheme {
    // Seed 000 eq. 3.8-3.11: second-order pairs (q, q') by z'' = (z- - 2z + z+)/d^2 with the
    // velocity eliminated through z' = (z+ - z-)/2d; first-order states by the trapezoidal rule.
    CentralDifference,
    // Hermite-Simpson collocation on every state: fourth order, one-step, so no spurious mode.
    HermiteSimpson,
};

inline constexpr core::EnumTable kPeriodicSchemes{
    "scheme",
    std::to_array<core::EnumSpelling<PeriodicScheme>>({
        {.value = PeriodicScheme::CentralDifference,
         .name = "central-difference",
         .description = "second-order central differences on second-order pairs, the trapezoidal rule on "
                        "first-order states (Vankan 1992, eq. 3.8-3.11)",
         .alias = "central",
         .label = "Central differences (2nd order)"},
        {.value = PeriodicScheme::HermiteSimpson,
         .name = "hermite-simpson",
         .description = "Hermite-Simpson collocation on every state: fourth order",
         .label = "Hermite–Simpson (4th order)"},
    })};

struct DiscretisationSettings {
    double period = 0.0;  // forcing period T (forced) or first guess of the period (autonomous)
    std::size_t periods = 1;  // n·T subharmonics
    std::size_t nodes = 200;  // time points per forcing period (periodicity built in); n·nodes in all
    PeriodicScheme scheme = PeriodicScheme::CentralDifference;
    shooting::PeriodKind kind = shooting::PeriodKind::Automatic;
    double startTime = 0.0;
    shooting::NewtonSettings newton;
    // A model with measured inputs: its inputs over one forcing period, extended periodically
    // (InputSignals::periodic). Not owned; null for a model without.
    const integrate::InputSignals* inputs = nullptr;
};

// The periodic solution of `model` (current parameters) from a guess of the whole orbit:
// guessTimes / guessStates (samples x states) are mapped onto the nodes modulo the period and
// interpolated linearly; a single row (any guessTimes) is a constant orbit. Bad input, a
// singular Jacobian or non-convergence come back as newton.stop / newton.message, never thrown.
shooting::PeriodicSolution findPeriodicSolutionByDiscretisation(
    eval::CompiledModel& model, const std::vector<double>& guessTimes, const Eigen::MatrixXd& guessStates,
    const DiscretisationSettings& settings, const shooting::NewtonObserver& observer = {}, std::stop_token stop = {});

}  // namespace sysid::discretise
