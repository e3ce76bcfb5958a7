#pragma once
// Which parameters the data cannot tell apart, said in the parameters' names: each direction of
// the information matrix's null space as relative changes of the parameters it moves.

#include "engine/estimate/FitResult.h"
#include "engine/estimate/Uncertainty.h"

#include <string>
#include <vector>

namespace sysid::estimate {

// The undetermined directions of `uncertainty` at the estimates as relative changes (dθ/|θ|; dθ
// where θ = 0), largest component +1, components below 1e-6 of it dropped.
std::vector<ParameterCombination> undeterminedCombinations(const Uncertainty& uncertainty,
                                                           const std::vector<ParameterEstimate>& estimates);

// What the log and the results say about one: "parameter c cannot be determined from these data
// (it has no effect on the fitted outputs); fix it" or, for a combination, which parameters move
// together, how, and to fix one of them.
std::string describe(const ParameterCombination& combination);

}  // namespace sysid::estimate
