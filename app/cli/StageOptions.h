#pragma once

// The tolerance schedule of `sysid optimal` on the command line: --stages N and the repeatable
// --stage K:NAME=VALUE[,NAME=VALUE...], whose names, values and rules are those of
// estimate::optimalEstimationStageFields() (the project's "stages" and the GUI's schedule table).
#include "engine/estimate/OptimalEstimationStage.h"

#include <boost/program_options.hpp>

#include <vector>

namespace sysid::cli {

class NamedOptions;

void addStageOptions(boost::program_options::options_description& options, const NamedOptions& named);

// Applies --stages, then every --stage in order, to `stages` (a project's or the defaults), then
// checks the schedule; a value that cannot be read or a rule broken is a UsageError naming
// "--stage K:NAME".
void applyStageOptions(const boost::program_options::variables_map& vm,
                       std::vector<estimate::OptimalEstimationStage>& stages);

}  // namespace sysid::cli
