#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/FitSettings.h"

#include <vector>

namespace sysid::estimate {

// Weight of each model output's residuals: the user's, or 1/sigma^2 with sigma the noise
// level estimated from all experiments' data (0 for outputs never measured).
std::vector<double> outputWeights(const eval::CompiledModelSource& model, const std::vector<Experiment>& experiments,
                                  const FitSettings& settings);

}  // namespace sysid::estimate
