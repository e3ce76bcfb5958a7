#pragma once

#include "engine/job/PeriodicJob.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <memory>

namespace sysid::ui {

using PeriodicResult = job::PeriodicJob::Result;

// Runs a periodic-solution job and its continuation (see JobRunner for the events): its
// iterations are Newton's on the orbit (cost = 1/2 ||F||^2), its log lines include one per
// branch point of a sweep.
class PeriodicRunner : public JobRunner {
    Q_OBJECT
public:
    explicit PeriodicRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    void start(job::PeriodicJob job);

signals:
    // Last signal of a run; `result` is null when the job failed (message says why).
    void finished(bool cancelled, const QString& message, std::shared_ptr<const sysid::ui::PeriodicResult> result);
};

}  // namespace sysid::ui
