#pragma once

#include "engine/model/Model.h"

#include <ginac/ginac.h>

#include <stdexcept>
#include <vector>

namespace sysid::model {

struct LagrangeCoordinate {
    std::string name;
    GiNaC::symbol position, velocity, acceleration;
    GiNaC::ex force;  // generalized force Q
    GiNaC::ex constraintForce = 0;  // the constraints' forces on it, (Phi_q^T lambda)_i: moved to the left
};

struct LagrangeSystem {
    GiNaC::symbol time;
    GiNaC::ex kinetic, potential, dissipation;
    std::vector<LagrangeCoordinate> coordinates;
    std::vector<GiNaC::symbol> inputs;
};

struct LagrangeResult {
    std::vector<LagrangeEquation> equations;  // as derived, for display
    std::vector<GiNaC::ex> accelerations;  // q'' solved from them
};

class LagrangeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// d/dt(dL/dq') - dL/dq + dD/dq' + (Phi_q^T lambda)_i = Q with L = T - V, then solved for q''
// (Goldstein, Classical Mechanics, 3rd ed., sec. 1.5, Rayleigh dissipation function).
LagrangeResult deriveLagrange(const LagrangeSystem& system);

}  // namespace sysid::model
