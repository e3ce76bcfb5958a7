#pragma once

#include "engine/eval/CompiledModel.h"

#include <cstddef>
#include <string>

namespace sysid::integrate {

// The largest stable explicit Euler step of a model at one point, from a bound on the spectral
// radius of df/dx. Explicit Euler multiplies a mode with eigenvalue lambda by 1 + h lambda per step,
// so for real negative eigenvalues it is stable when h |lambda| <= 2. For the method of lines'
// heat equation s_t = alpha s_xx the bound is 4 max alpha / dx^2 and the limit the seed's
// dt <= dx^2 / (2 max alpha) (seed 003, eq. 2.19).
struct ExplicitEulerLimit {
    double spectralBound = 0.0;  // max_i |a_ii| + sum_{j != i} |a_ij|  (>= every |lambda|)
    double largestStep = 0.0;  // 2 / spectralBound; infinite when df/dx is zero
    std::size_t criticalState = 0;  // the row attaining the bound
};

// df/dx is evaluated at the model's current point (set by the caller, e.g. the start state).
ExplicitEulerLimit explicitEulerLimit(eval::CompiledModel& model);

// The limit in the user's terms, for a step h beyond it: for a 1-D field as dx^2 / (2 max alpha)
// with alpha = spectralBound dx^2 / 4 at the node that attains it, else as 2 / |lambda|max at the
// state (or field node) that attains it; with the ways out.
std::string explicitEulerLimitMessage(const eval::CompiledModelSource& source, const ExplicitEulerLimit& limit,
                                      double step);

}  // namespace sysid::integrate
