#pragma once
// Shared helpers of the measured-data benchmark suites: a bundled project fitted as sysid fit
// PROJECT fits it, and its data sets simulated at the estimate as the GUI's validation does.

#include "engine/job/ValidationSimulation.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"

#include <QtGlobal>

#include <chrono>
#include <cmath>
#include <map>
#include <string>

namespace sysid::validation {

inline project::Project bundledProject(const std::string& file)
{
    return project::loadProject(std::string(SYSID_SOURCE_DIR) + "/resources/examples/" + file);
}

struct TimedFit {
    estimate::FitResult result;
    double seconds = 0.0;
};

inline TimedFit runFit(const job::FitJob& fit)
{
    job::NullProgressSink sink;
    const auto start = std::chrono::steady_clock::now();
    TimedFit timed;
    timed.result = fit.run(sink);
    timed.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return timed;
}

inline std::map<std::string, double> estimatesOf(const estimate::FitResult& r)
{
    std::map<std::string, double> values;
    for (const auto& p : r.parameters)
        values[p.name] = p.value;
    return values;
}

// Data set `index` of `project` simulated at the estimate, as the GUI's validation does: the
// estimated initial values of the fitted record are the simulation's initial values too (the
// benchmarks' records start from the same state).
inline job::ValidationSimulation simulatedDataSet(const project::Project& project, const job::FitJob& fit,
                                                  const estimate::FitResult& r, std::size_t index)
{
    return job::simulateValidation(fit, project::experimentData(project, index), index, estimatesOf(r));
}

inline std::size_t outputIndex(const job::ValidationSimulation& s, const std::string& name)
{
    for (std::size_t i = 0; i < s.outputNames.size(); ++i)
        if (s.outputNames[i] == name)
            return i;
    qFatal("no output %s", name.c_str());
}

// RMS of a data column over all its samples.
inline double columnRms(const project::Project& project, std::size_t index, const std::string& column)
{
    const auto data = project::experimentData(project, index);
    double sum = 0.0;
    const auto& v = data.table.column(column);
    for (const double x : v)
        sum += x * x;
    return std::sqrt(sum / static_cast<double>(v.size()));
}

}  // namespace sysid::validation
