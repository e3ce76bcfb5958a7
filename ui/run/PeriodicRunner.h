#pragma once

#include "engine/job/PeriodicJob.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <thread>

namespace sysid::ui {

using PeriodicResult = job::PeriodicJob::Result;

// Runs a periodic-solution job (and its continuation) on a worker thread; its events come to
// the UI thread as queued signals. cancel() asks the job to stop and returns at once.
class PeriodicRunner : public QObject {
    Q_OBJECT
public:
    explicit PeriodicRunner(QObject* parent = nullptr);
    ~PeriodicRunner() override;  // cancels and joins a running job
    bool isRunning() const { return running_; }
    void start(job::PeriodicJob job);
    void cancel();

signals:
    void iteration(int iteration, double cost);  // Newton on the orbit
    void logLine(const QString& line);            // also one per branch point of a sweep
    // Last signal of a run; `result` is null when the job failed (message says why).
    void finished(bool cancelled, const QString& message, std::shared_ptr<const sysid::ui::PeriodicResult> result);

private:
    bool running_ = false;
    std::jthread worker_;
};

}  // namespace sysid::ui
