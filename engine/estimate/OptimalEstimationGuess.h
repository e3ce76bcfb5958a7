#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/model/Model.h"

#include <map>
#include <string>
#include <vector>

namespace sysid::estimate {

// The starting guesses of augmented states written as expressions (OptimalEstimationSettings::
// guessExpressions), evaluated at the experiment's sample times. An expression may use t, the
// measured signals by name (the model's measured outputs and its inputs, as recorded) and the
// parameters (their starting values, or the experiment's fixed values), with the functions of
// the model language: Rutten (1993, ch. 5) starts the mixture's inner displacements at
// s2 = s_m/3 and s3 = 2 s_m/3 from the measured top displacement s_m. Throws
// OptimalEstimationError naming the state, the column and what is wrong. The caller holds
// model::symbolicMutex().
std::map<std::string, std::vector<double>> evaluateGuessExpressions(
    const std::map<std::string, std::string>& expressions, const model::Model& model, const Experiment& experiment);

}  // namespace sysid::estimate
