#pragma once

#include "engine/job/ProfileLikelihood.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <memory>

namespace sysid::ui {

// Computes profile likelihoods on a worker thread (which spreads the profiles' sides over its own
// threads); each re-fit and the end arrive as queued signals.
class ProfileRunner : public JobRunner {
    Q_OBJECT
public:
    explicit ProfileRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    void start(job::ProfileLikelihood profile);

signals:
    // The optimum was fitted: the points that follow rise from `objectiveAtOptimum`.
    void optimumFound(double objectiveAtOptimum, double threshold, int sides);
    // A re-fit with `parameter` held at `value` ended with `objective` (-2 log L up to a constant).
    void pointComputed(const QString& parameter, double value, double objective, int sidesDone, int sides, int points);
    // Last signal of a run. `result` is null when the profiles could not start (message says why);
    // after Cancel it holds the points computed until then.
    void finished(bool cancelled, const QString& message, std::shared_ptr<const sysid::job::ProfileResult> result);
};

}  // namespace sysid::ui
