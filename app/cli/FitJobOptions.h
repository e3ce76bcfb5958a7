#pragma once

// The options that describe a fit — the project or the model with its data, the method, its
// settings, starting values, priors and the preprocessing — shared by the commands that run fits
// (fit, profile).
#include "app/cli/CommandLine.h"
#include "app/cli/CommonOptions.h"

#include "engine/job/FitJob.h"
#include "engine/project/Project.h"

#include <boost/program_options.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace sysid::cli {

// --data, --time, --map, --method, --period, --frequency-parameter, --set, --prior, the CSV format,
// the preprocessing and every fit setting's option.
void addFitJobOptions(boost::program_options::options_description& options, const NamedOptions& named);

struct LoadedFit {
    job::FitJob job;
    std::map<std::string, double> trueValues;  // of a project's simulated data sets
    std::optional<project::Project> project;  // the PROJECT form's project, with the options applied
};

// The fit `input` (a .sysid project or a model with --data) and the options describe. Option errors
// come before anything is read; `checkOutput` is called where the command checks its output place
// (before the project is read, after the model form's data options). Throws UsageError.
LoadedFit loadFitJob(const boost::program_options::variables_map& vm, const std::string& input,
                     const std::function<void()>& checkOutput);

}  // namespace sysid::cli
