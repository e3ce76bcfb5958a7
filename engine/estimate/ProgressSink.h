#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::estimate {

struct IterationRecord {
    std::size_t iteration = 0;
    std::vector<double> parameters;  // estimated parameters, in FitResult order
    double cost = 0.0;
    double stepNorm = 0.0;  // relative size of the accepted step
    double lambda = 0.0;  // Levenberg-Marquardt damping
};

enum class JobStatus {
    Succeeded,  // ran to its end (a fit that did not converge still succeeded: its result says why it stopped)
    Cancelled,  // stopped by the stop token; a fit still returns its best estimate
    Failed,  // could not run; run() throws JobError with the same message
};

// The one observer of a running computation: the estimators report iterations, traces and log
// lines through it, and the jobs around them (job::FitJob, PeriodicJob, ...) add started() and
// finished(). Events come on the computation's thread, in order: started, then iterations
// (numbers increasing), traces and log lines interleaved, and finished exactly once, last, also
// when a job's run() throws. Implementations must return quickly (a GUI queues the event to its
// thread); every event has an empty default, so an observer overrides only what it shows.
class ProgressSink {
public:
    virtual ~ProgressSink() = default;

    // Before the first iteration: the names of the estimated parameters, in the order of
    // IterationRecord::parameters and FitResult::parameters. Not called by a simulation.
    virtual void started(const std::vector<std::string>& /*parameterNames*/) {}
    virtual void iteration(const IterationRecord& /*record*/) {}
    // Model outputs (samples x outputs, model output order) of one experiment at the current estimate.
    virtual void trace(std::size_t /*experiment*/, const std::vector<double>& /*times*/,
                       const Eigen::MatrixXd& /*outputs*/)
    {
    }
    virtual void log(const std::string& /*line*/) {}
    // The last event. `message`: the stop reason, or the error for Failed.
    virtual void finished(JobStatus /*status*/, const std::string& /*message*/) {}
};

// Ignores every event.
class NullProgressSink final : public ProgressSink {};

}  // namespace sysid::estimate
