#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <optional>

Q_DECLARE_METATYPE(sysid::estimate::FitResult)

namespace sysid::ui {

// Runs a fit job (see JobRunner for the events and their pacing). When the fit has a result,
// its full report (project::fitReport) is the last log line before finished().
class FitRunner : public JobRunner {
    Q_OBJECT
public:
    explicit FitRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    void start(job::FitJob job);

signals:
    // Last signal of a run. `result` is empty when the job failed (message says why).
    void finished(bool cancelled, const QString& message, const std::optional<sysid::estimate::FitResult>& result);
};

}  // namespace sysid::ui
