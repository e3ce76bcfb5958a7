#include "engine/discretise/PeriodicSolver.h"

namespace sysid::discretise {

std::optional<PeriodicSolver> parsePeriodicSolver(std::string_view name)
{
    return kPeriodicSolvers.parse(name);
}

std::string periodicSolverName(PeriodicSolver solver)
{
    return std::string(kPeriodicSolvers.name(solver));
}

}  // namespace sysid::discretise
