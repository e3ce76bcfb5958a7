#pragma once

#include "engine/job/NoiseStudy.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <memory>

namespace sysid::ui {

// Runs a Monte Carlo noise study on a worker thread (which spreads the realisations over its
// own threads); progress per finished realisation and the end arrive as queued signals.
class StudyRunner : public JobRunner {
    Q_OBJECT
public:
    explicit StudyRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    void start(job::NoiseStudy study);

signals:
    // A realisation finished (`failed`: its fit could not run; `message` then says why).
    void realisationFinished(int finished, int total, bool failed, const QString& message);
    // Last signal of a run. `result` is null when the study could not start (message says why);
    // after Cancel it holds the realisations that finished.
    void finished(bool cancelled, const QString& message, std::shared_ptr<const sysid::job::NoiseStudyResult> result);
};

}  // namespace sysid::ui
