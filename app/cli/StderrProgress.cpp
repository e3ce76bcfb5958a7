#include "app/cli/StderrProgress.h"

#include <cstdio>
#include <iostream>

namespace sysid::cli {

namespace {

std::string format(const char* spec, double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, spec, value);
    return buffer;
}

}  // namespace

void StderrProgress::iteration(const estimate::IterationRecord& record)
{
    if (quiet_ || !iterationLines_)
        return;
    std::string line = "iteration " + std::to_string(record.iteration) + "  cost " + format("%.4e", record.cost) + " ";
    for (std::size_t k = 0; k < record.parameters.size(); ++k)
        line += " " + (k < names_.size() ? names_[k] : "p" + std::to_string(k)) + "=" +
            format("%.6g", record.parameters[k]);
    std::cerr << line << '\n' << std::flush;
}

void StderrProgress::log(const std::string& line)
{
    if (!quiet_)
        std::cerr << line << '\n' << std::flush;
}

void StderrProgress::finished(job::JobStatus status, const std::string& message)
{
    if (quiet_ || status == job::JobStatus::Failed)  // a failure is printed once, by the caller
        return;
    std::cerr << (status == job::JobStatus::Cancelled ? "cancelled: " : "stopped: ") << message << '\n' << std::flush;
}

}  // namespace sysid::cli
