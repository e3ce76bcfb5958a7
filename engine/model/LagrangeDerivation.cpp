#include "engine/model/LagrangeDerivation.h"

namespace sysid::model {

using GiNaC::ex;

LagrangeResult deriveLagrange(const LagrangeSystem& system)
{
    const std::size_t n = system.coordinates.size();
    const ex lagrangian = system.kinetic - system.potential;
    GiNaC::matrix mass(static_cast<unsigned>(n), static_cast<unsigned>(n));
    GiNaC::matrix rest(static_cast<unsigned>(n), 1);
    LagrangeResult result;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& qi = system.coordinates[i];
        const ex momentum = lagrangian.diff(qi.velocity);
        for (const auto& u : system.inputs)
            if (momentum.has(u))
                throw LagrangeError("the kinetic energy depends on input " + u.get_name() +
                                    "; Lagrange's equations would need its time derivative");
        // d/dt(dL/dq_i') = sum_j dp/dq_j' q_j'' + sum_j dp/dq_j q_j' + dp/dt
        ex lhs = 0;
        ex remainder = momentum.diff(system.time);
        for (std::size_t j = 0; j < n; ++j) {
            const auto& qj = system.coordinates[j];
            const ex mij = momentum.diff(qj.velocity);
            mass(static_cast<unsigned>(i), static_cast<unsigned>(j)) = mij;
            lhs += mij * qj.acceleration;
            remainder += momentum.diff(qj.position) * qj.velocity;
        }
        remainder += -lagrangian.diff(qi.position) + system.dissipation.diff(qi.velocity);
        rest(static_cast<unsigned>(i), 0) = qi.force - qi.constraintForce - remainder;
        result.equations.push_back({qi.name, (lhs + remainder).expand(), qi.force, qi.constraintForce.expand()});
    }
    const ex determinant = mass.determinant().normal();
    if (determinant.is_zero())
        throw LagrangeError("the kinetic energy gives a singular mass matrix: every coordinate's velocity must "
                            "appear quadratically in T");
    GiNaC::matrix unknowns(static_cast<unsigned>(n), 1);
    for (std::size_t i = 0; i < n; ++i)
        unknowns(static_cast<unsigned>(i), 0) = system.coordinates[i].acceleration;
    const GiNaC::matrix solution = mass.solve(unknowns, rest);
    for (std::size_t i = 0; i < n; ++i)
        result.accelerations.push_back(solution(static_cast<unsigned>(i), 0).normal());
    return result;
}

}  // namespace sysid::model
