#pragma once

#include "engine/job/FitJob.h"
#include "engine/job/ValidationSimulation.h"

#include <map>
#include <stop_token>
#include <string>

namespace sysid::job {

// The periodic steady state of a periodic-response fit's model at `estimates` on `record`: what
// that fit compares with its data (estimate::PeriodicResponseProblem, with the fit's periodic
// settings: period or frequency parameter, solver, measured inputs folded onto the period), sampled
// at the record's times folded onto the period. No transient and no initial state: the result's
// initialState is empty. Throws JobError naming the record when its data, the settings or the
// periodic solution fail.
ValidationSimulation periodicSteadyStateOnRecord(const FitJob& fit, const ExperimentData& record,
                                                 std::size_t recordIndex,
                                                 const std::map<std::string, double>& estimates,
                                                 std::stop_token stop = {});

}  // namespace sysid::job
