#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::integrate {

// The constraints of a semi-explicit DAE as the integration core keeps them. The last
// algebraicCount() components of the state are algebraic: their rows of f are the residuals of
// index-1 equations (mass matrix diag(I, 0)), which only the implicit steppers take. The invariants
// G(t, x) = 0 are the hidden constraints of the index reduction (position and velocity levels of a
// mechanism), functions of the differential states. An OdeSystem with algebraic variables returns
// itself as its Constraints (OdeSystem::constraints()).
class Constraints {
public:
    virtual ~Constraints() = default;
    virtual std::size_t algebraicCount() const = 0;
    virtual std::size_t invariantCount() const = 0;
    // G(t, x) and its gradients, dense column-major: invariantCount() x dimension (Gx) and
    // invariantCount() x parameterCount() (Gp); a null output is skipped.
    virtual void invariants(double t, const double* x, double* G, double* Gx, double* Gp) = 0;
    // For messages: "the constraint 'x^2 + y^2 = l^2' (line 7)", "its first time derivative".
    virtual std::string invariantName(std::size_t i) const = 0;
    // Per state: whether its initial value is the user's (kept by the consistent initial values)
    // rather than a guess.
    virtual std::vector<char> heldInitialState() const = 0;
    // Baumgarte (1972) from now on: each index-1 equation G^(k) = 0 is integrated as
    // G^(k) + 2 alpha G^(k-1) + beta^2 G^(k-2) = 0 (0, 0: as reduced).
    virtual void stabilise(double alpha, double beta) = 0;
};

}  // namespace sysid::integrate
