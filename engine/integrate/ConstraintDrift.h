#pragma once

#include "engine/integrate/Trajectory.h"

#include <string>
#include <vector>

namespace sysid::integrate {

// How far a simulation of a model with constraints left them: per invariant (a constraint or one
// of its time derivatives), the largest |residual| over the samples and where.
struct ConstraintDrift {
    std::string constraint;  // as written
    std::size_t level = 0;  // 0: the constraint, k: its k-th time derivative
    double largest = 0.0;
    double time = 0.0;
};

// Empty for a trajectory without invariants (an ODE, or algebraic equations of index 1).
std::vector<ConstraintDrift> constraintDrift(const Trajectory& trajectory);

// "constraint drift (largest |residual| over the samples): x^2 + y^2 = l^2 3.3e-16 (t = 2.1), its
// first time derivative 1.1e-15 (t = 4)", or empty when there is none.
std::string describeDrift(const std::vector<ConstraintDrift>& drift);

}  // namespace sysid::integrate
