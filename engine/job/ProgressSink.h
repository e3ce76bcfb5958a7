#pragma once

#include "engine/estimate/FitObserver.h"

#include <Eigen/Dense>

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::job {

enum class JobStatus {
    Succeeded,  // ran to its end (a fit that did not converge still succeeded: its result says why it stopped)
    Cancelled,  // stopped by the stop token; a fit still returns its best estimate
    Failed,  // could not run; run() throws JobError with the same message
};

// Receives a job's events, on the job's thread, in order: started, then iterations (numbers
// increasing), traces and log lines interleaved, and finished exactly once, last, also when
// run() throws. Implementations must return quickly (a GUI queues the event to its thread).
class ProgressSink {
public:
    virtual ~ProgressSink() = default;

    // Before the first iteration: the names of the estimated parameters, in the order of
    // IterationRecord::parameters and FitResult::parameters. Not called by a simulation.
    virtual void started(const std::vector<std::string>& /*parameterNames*/) {}
    virtual void iteration(const estimate::IterationRecord& record) = 0;
    // Model outputs (samples x outputs, model output order) of one experiment at the current estimate.
    virtual void trace(std::size_t experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs) = 0;
    virtual void log(const std::string& line) = 0;
    // The last event. `message`: the stop reason, or the error for Failed.
    virtual void finished(JobStatus status, const std::string& message) = 0;
};

// Ignores every event.
class NullProgressSink final : public ProgressSink {
public:
    void iteration(const estimate::IterationRecord&) override {}
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
    void log(const std::string&) override {}
    void finished(JobStatus, const std::string&) override {}
};

}  // namespace sysid::job
