#pragma once

#include "engine/data/DataTable.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/integrate/Intersample.h"
#include "engine/integrate/Trajectory.h"
#include "engine/job/JobError.h"
#include "engine/job/ProgressSink.h"
#include "engine/job/SyntheticData.h"

#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// One simulation of model text on a time grid, with everything copied in (see FitJob).
struct SimulationJob {
    std::string modelText;
    std::string modelSource = "<model>";
    std::map<std::string, double> parameterValues;  // overriding the model text
    integrate::IntegratorSettings settings;
    std::vector<double> times;  // output grid, strictly increasing; starts at x(0)
    std::optional<data::DataTable> inputs;  // required when the model has inputs
    std::map<std::string, std::string> inputMapping;  // model input -> column; same name if absent
    std::map<std::string, integrate::Intersample> intersample;  // per input; linear if absent
    std::optional<OutputNoise> noise;  // added by runSynthetic only

    // Simulates; the sink gets one trace (experiment 0, the model outputs) and finished().
    // A stop request ends the integration within a step: JobError(Integration) "cancelled",
    // with finished(Cancelled). Other problems throw JobError, finished(Failed) first.
    integrate::Trajectory run(ProgressSink& sink, std::stop_token stop = {}) const;
    // As run, then the outputs as a synthetic record with `noise` added (job::syntheticData).
    // A noise that cannot be added (a negative percentage, outputs that are not finite) is
    // JobError(Settings).
    SyntheticData runSynthetic(ProgressSink& sink, std::stop_token stop = {}) const;
};

}  // namespace sysid::job
