#pragma once

#include "engine/job/FitJob.h"
#include "engine/project/Project.h"

namespace sysid::project {

// The fit a project describes: reads the files of the data sets it fits (estimationDataSets:
// included, for estimation) and converts its preprocessing. Throws job::JobError(Data) with the
// reader's "FILE:LINE: ..." message, or saying that no data set is left to fit when the project
// has data sets but none of them is an included estimation data set.
job::FitJob makeFitJob(const Project& project);

// Data set `index` of the project, read from its file, as a fit's record.
// Throws job::JobError(Data) like makeFitJob.
job::ExperimentData experimentData(const Project& project, std::size_t index);

}  // namespace sysid::project
