#pragma once

#include "engine/job/FitJob.h"
#include "engine/project/Project.h"

namespace sysid::project {

// The fit a project describes: reads its data files (CSV) and converts its preprocessing.
// Throws job::JobError(Data) with the reader's "FILE:LINE: ..." message.
job::FitJob makeFitJob(const Project& project);

}  // namespace sysid::project
