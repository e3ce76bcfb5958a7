#pragma once

#include "engine/core/SolverStatistics.h"
#include "engine/data/DataTable.h"
#include "engine/discretise/PeriodicDiscretisation.h"
#include "engine/discretise/PeriodicSolver.h"
#include "engine/job/JobError.h"
#include "engine/job/ProgressSink.h"
#include "engine/shooting/Continuation.h"
#include "engine/shooting/PeriodicShooting.h"

#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// A frequency-response (or any one-parameter) continuation of the periodic solution.
struct PeriodicSweep {
    std::string parameter;  // model parameter continued
    double from = 0.0, to = 1.0;  // the first orbit is found at `from`
    bool frequency = false;  // the parameter is the forcing's angular frequency: T = 2 pi / value
    double step = 0.02;  // initial (arclength) step
    std::size_t maxPoints = 200;
    shooting::ContinuationMethod method = shooting::ContinuationMethod::PseudoArclength;
    std::string amplitudeState;  // state whose (max - min)/2 is the amplitude; default the first

    // from != to, both finite (and > 0 for a frequency); step > 0; maxPoints >= 2.
    void validate() const;
};

// One periodic steady state (and optionally its continuation), with everything copied in.
struct PeriodicJob {
    std::string modelText;
    std::string modelSource = "<model>";
    std::map<std::string, double> parameterValues;  // overriding the model text
    discretise::PeriodicSolver solver = discretise::PeriodicSolver::Shooting;
    shooting::PeriodicSettings shooting;  // period, periods, intervals, integrator, Newton settings
    discretise::PeriodicScheme scheme = discretise::PeriodicScheme::CentralDifference;
    std::size_t nodes = 200;  // time-discretisation nodes per forcing period
    // Starting guess of x(t0) by state name; states not named start from the model's x(0).
    std::map<std::string, double> guess;
    // Periods simulated from the guess before Newton starts, so that a stable orbit's
    // basin is reached (0: Newton starts at the guess itself).
    std::size_t settlePeriods = 10;
    std::optional<PeriodicSweep> sweep;
    // A model with measured inputs: their record over one forcing period, or over whole periods
    // (averaged), extended periodically (integrate::periodicInputsFromTable). Columns are named as
    // the inputs unless `inputColumns` (input -> column) maps them.
    std::optional<data::DataTable> inputRecord;
    std::map<std::string, std::string> inputColumns;
    // Whole periods of the record to use from its start (averaged when more than one); 0: all the
    // whole periods it holds.
    std::size_t inputPeriods = 0;
    // How each input behaves between its samples (absent: as the model declares it, else linear).
    std::map<std::string, integrate::Intersample> intersample;

    // The settings' rules (a period > 0 unless a frequency sweep sets it, periods and intervals
    // >= 1, nodes >= 3, samples >= 2, Newton iterations >= 1 and tolerance > 0, the integrator's,
    // the sweep's); throws core::SettingError with the key of the setting ("period", "sweep.step").
    void validate() const;

    struct Result {
        std::vector<std::string> stateNames, outputNames;
        shooting::PeriodicSolution solution;  // at the sweep's start when there is a sweep
        std::optional<shooting::ContinuationResult> branch;
        core::SolverStatistics statistics;  // of the whole job (settling, solve, continuation)
    };
    // The sink gets Newton iterations (cost = 1/2||F||^2), one log line per branch point, the
    // orbit's outputs as trace 0, log lines with the termination and the statistics, and finished(). A solve that does
    // not converge is a result (solution.newton says why), not an error; bad settings, an unknown name or an
    // integration that blows up while settling throw JobError after finished(Failed), as does an input
    // record that cannot be read over one period.
    Result run(ProgressSink& sink, std::stop_token stop = {}) const;
};

// Key, `sysid periodic` option, help and rule of the job's settings (the shooting settings, the
// time discretisation's, the settling periods and the integrator's under "integrator").
const core::FieldTable<PeriodicJob>& periodicJobFields();

}  // namespace sysid::job
