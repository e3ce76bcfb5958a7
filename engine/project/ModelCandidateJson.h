#pragma once

#include "engine/job/ModelComparison.h"
#include "engine/project/Project.h"

#include <string>

namespace sysid::project {

// A fit result file of `sysid fit` (or the GUI's export) as a model to compare: the model it holds
// ("model": {"file", "text"}, or `modelFile` when given), the estimation method and the settings a
// comparison needs to reproduce the fit's response (integrator, intersample, periodic: from
// "report"), and the result. Throws ProjectError naming the file and the key.
job::ModelCandidate candidateFromResultFile(const std::string& path, const std::string& modelFile = {});

// A project's last result as a model to compare (its model, settings and starting values);
// ProjectError when it has none.
job::ModelCandidate candidateFromProject(const Project& project, const std::string& name);

// The settings keys (dotted, as a project writes them) a comparison takes from a fit's report:
// integrator.*, intersample.* and periodic.*.
bool comparisonSettingKey(const std::string& key);

}  // namespace sysid::project
