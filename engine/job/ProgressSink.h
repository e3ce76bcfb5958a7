#pragma once

#include "engine/estimate/ProgressSink.h"

namespace sysid::job {

// The jobs report through the estimators' observer interface (one callback type for both).
using estimate::JobStatus;
using estimate::NullProgressSink;
using estimate::ProgressSink;

}  // namespace sysid::job
