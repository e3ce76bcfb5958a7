#pragma once

#include "engine/integrate/Constraints.h"
#include "engine/integrate/SensitivitySystem.h"

#include <Eigen/Dense>

#include <vector>

namespace sysid::integrate {

// Keeps the augmented state z = [x, S] of a DAE consistent: the differential states on the
// invariants G(t, x) = 0 and the algebraic variables solving their index-1 equations, with every
// sensitivity column moved the same way (the derivative of the projection, so that G_x S + G_p = 0
// and the algebraic columns solve the differentiated equations).
class ConsistentState {
public:
    // `project`: move the differential states onto the invariants after every step (post-stabilisation,
    // Ascher & Petzold 1998 sec. 10.2); false leaves them to the integration (and Baumgarte's terms).
    ConsistentState(SensitivitySystem& system, Constraints& constraints, bool project);

    // Consistent initial values: the differential states closest to z's (in the free components
    // only; those with held[i] keep their values; an empty held frees all) that satisfy the
    // invariants, by Gauss-Newton with minimum-norm steps, then the algebraic variables by Newton.
    // Throws IntegrationError(Constraints) naming the invariant left unsatisfied.
    void initialise(double t, double* z, const std::vector<char>& held);
    // After a step, an event or at a sample: projected onto the invariants (when projecting) and
    // the algebraic variables solved.
    void settle(double t, double* z);

private:
    void project(double t, double* z, const std::vector<std::size_t>& free, bool initial);
    void solveAlgebraic(double t, double* z);
    // The invariants at x with their state gradients (and parameter gradients when sensitivities
    // are integrated).
    void evaluateInvariants(double t, const double* x, bool parameters);
    [[noreturn]] void inconsistent(double t, const double* x, const std::vector<std::size_t>& free,
                                   bool initial) const;

    SensitivitySystem& system_;
    Constraints& constraints_;
    bool project_;
    std::size_t n_, algebraic_, differential_, invariants_, columns_;
    std::vector<std::size_t> all_;  // every differential component (projection after a step)
    std::vector<int> columnParameter_;  // per sensitivity column: its system parameter, or -1
    Eigen::VectorXd G_;
    Eigen::MatrixXd Gx_, Gp_, J_, Jp_;
    std::vector<double> f_;
};

}  // namespace sysid::integrate
