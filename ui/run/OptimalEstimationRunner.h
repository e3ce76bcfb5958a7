#pragma once

#include "engine/estimate/OptimalEstimation.h"
#include "engine/job/OptimalEstimationJob.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <optional>

Q_DECLARE_METATYPE(sysid::estimate::OptimalEstimationResult)
Q_DECLARE_METATYPE(sysid::estimate::StiffnessDiagnostics)

namespace sysid::ui {

// Runs an optimal estimation job (see JobRunner for the events and their pacing). Its
// iterations are the Newton iterations over all stages, with cost = 1/2 ||F||^2 of the shooting
// system; its trace (experiment 0) is the model outputs along the estimate.
class OptimalEstimationRunner : public JobRunner {
    Q_OBJECT
public:
    explicit OptimalEstimationRunner(QObject* parent = nullptr);
    void start(job::OptimalEstimationJob job);
    // The stiffness along the job's starting guess, without solving (OptimalEstimationJob::diagnose).
    void diagnose(job::OptimalEstimationJob job);

signals:
    // Last signal of a run; `result` is empty when the job failed (message says why).
    void finished(bool cancelled, const QString& message,
                  const std::optional<sysid::estimate::OptimalEstimationResult>& result);
    // Last signal of diagnose(); `diagnostics` is empty when the job failed (message says why).
    void diagnosed(const QString& message, const std::optional<sysid::estimate::StiffnessDiagnostics>& diagnostics);
};

}  // namespace sysid::ui
