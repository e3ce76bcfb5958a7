#pragma once

#include "engine/job/ProgressSink.h"

#include <string>
#include <vector>

namespace sysid::cli {

// Writes one line per job event on stderr, or nothing at all when quiet. A job whose own log
// lines describe each iteration passes iterationLines = false.
class StderrProgress final : public job::ProgressSink {
public:
    explicit StderrProgress(bool quiet, bool iterationLines = true) : quiet_(quiet), iterationLines_(iterationLines) {}
    void started(const std::vector<std::string>& names) override { names_ = names; }
    void iteration(const estimate::IterationRecord& record) override;
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
    void log(const std::string& line) override;
    void finished(job::JobStatus status, const std::string& message) override;

private:
    bool quiet_;
    bool iterationLines_;
    std::vector<std::string> names_;
};

}  // namespace sysid::cli
