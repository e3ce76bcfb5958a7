#pragma once

#include "engine/estimate/FitObserver.h"
#include "engine/estimate/OptimalEstimation.h"
#include "engine/job/OptimalEstimationJob.h"
#include "ui/run/FitRunner.h"  // declares IterationRecord as a metatype

#include <Eigen/Dense>

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <thread>
#include <vector>

Q_DECLARE_METATYPE(sysid::estimate::OptimalEstimationResult)

namespace sysid::ui {

// Runs an optimal estimation job on a worker thread and brings its events to the UI thread
// as queued signals; the trace is coalesced to at most one every ~33 ms. cancel() asks the
// job to stop and returns at once.
class OptimalEstimationRunner : public QObject {
    Q_OBJECT

public:
    explicit OptimalEstimationRunner(QObject* parent = nullptr);
    ~OptimalEstimationRunner() override;  // cancels and joins a running job

    bool isRunning() const { return running_; }
    void start(job::OptimalEstimationJob job);
    void cancel();

signals:
    // One per Newton iteration over all stages: cost = 1/2 ||F||^2 of the shooting system.
    void iteration(const sysid::estimate::IterationRecord& record);
    // Model outputs (samples x outputs) along the estimate.
    void trace(const std::vector<double>& times, const Eigen::MatrixXd& outputs);
    void logLine(const QString& line);
    // Last signal of a run; `result` is empty when the job failed (message says why).
    void finished(bool cancelled, const QString& message,
                  const std::optional<sysid::estimate::OptimalEstimationResult>& result);

private:
    class Sink;
    void flushTrace();

    bool running_ = false;
    std::jthread worker_;
    QTimer traceTimer_;
    std::shared_ptr<struct OptimalTraceBuffer> trace_;
};

}  // namespace sysid::ui
