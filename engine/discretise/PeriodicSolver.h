#pragma once

#include "engine/core/EnumTable.h"

#include <array>

namespace sysid::discretise {

// How a periodic orbit is found: by (multiple) shooting or by the time discretisation of the
// whole period (Vankan 1992, ch. 3). Periodic solutions (job::PeriodicJob) and periodic-response
// identification (estimate::PeriodicResponseSettings) both offer the choice.
enum class PeriodicSolver {
    Shooting,  // shooting::findPeriodicSolution
    Discretisation,  // discretise::findPeriodicSolutionByDiscretisation
};

inline constexpr core::EnumTable kPeriodicSolvers{
    "periodic solver",
    std::to_array<core::EnumSpelling<PeriodicSolver>>({
        {.value = PeriodicSolver::Shooting,
         .name = "shooting",
         .description = "the periodicity condition solved by Newton on the flow over one period, "
                        "split into shooting intervals",
         .label = "Shooting"},
        {.value = PeriodicSolver::Discretisation,
         .name = "discretisation",
         .description = "the whole period discretised in time, one large sparse algebraic system",
         .alias = "discretization",
         .label = "Time discretisation"},
    })};

}  // namespace sysid::discretise
