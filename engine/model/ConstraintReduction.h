#pragma once

#include "engine/model/Model.h"

#include <ginac/ginac.h>

#include <utility>
#include <vector>

namespace sysid::model {

// The semi-explicit DAE x' = f(t, x, z, p, u), 0 = Phi_j(t, x, z, p) (one equation per constraint)
// whose index is to be reduced.
struct DaeSystem {
    GiNaC::symbol time;
    std::vector<GiNaC::symbol> states;  // differential states x
    std::vector<GiNaC::ex> rhs;  // their derivatives f
    std::vector<GiNaC::symbol> algebraic;  // z
    std::vector<GiNaC::symbol> inputs;
    std::vector<std::string> inputNames;
    std::vector<std::pair<GiNaC::symbol, double>> parameters;  // with their values (for the rank test)
    std::vector<std::string> algebraicNames;
};

// Index reduction by differentiating the constraints (Hairer & Wanner, Solving ODEs II, sec. VII.1;
// for mechanical systems Gear, Gupta & Leimkuhler 1985 keep the position and velocity levels as
// invariants): each constraint without an algebraic variable is replaced by its derivative along
// the solution, dPhi/dt = Phi_t + Phi_x f, until one appears; the levels passed over are its
// hidden constraints. Fills hidden and reduced of every constraint and returns the differentiation
// index. Fails (BuildFailure at the constraint) when a constraint holds an input that would need
// differentiating, when three differentiations bring in no algebraic variable, or when the
// reduced equations do not determine the algebraic variables (their Jacobian is singular at two
// generic points: a repeated constraint, or one acting on a coordinate without mass).
int reduceIndex(const DaeSystem& system, std::vector<Constraint>& constraints);

}  // namespace sysid::model
