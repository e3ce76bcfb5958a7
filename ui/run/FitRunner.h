#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>
#include <stop_token>
#include <thread>

Q_DECLARE_METATYPE(sysid::estimate::IterationRecord)
Q_DECLARE_METATYPE(sysid::estimate::FitResult)

namespace sysid::ui {

// Runs a fit job on a worker thread and brings its events to the UI thread as signals.
// Traces are coalesced: at most one per experiment every ~33 ms (30 Hz). The UI thread never
// waits on the engine; cancel() asks the job to stop and returns at once.
class FitRunner : public QObject {
    Q_OBJECT

public:
    explicit FitRunner(QObject* parent = nullptr);
    ~FitRunner() override;  // cancels and joins a running job

    bool isRunning() const { return running_; }
    void start(job::FitJob job);
    void cancel();

signals:
    void started(const QStringList& parameterNames);
    void iteration(const sysid::estimate::IterationRecord& record);
    // Model outputs (samples x outputs) of one experiment at the current estimate.
    void trace(int experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs);
    void logLine(const QString& line);
    // Last signal of a run. `result` is empty when the job failed (message says why).
    void finished(bool cancelled, const QString& message, const std::optional<sysid::estimate::FitResult>& result);

private:
    class Sink;
    void flushTraces();

    bool running_ = false;
    std::jthread worker_;
    QTimer traceTimer_;
    std::shared_ptr<struct TraceBuffer> traces_;
};

}  // namespace sysid::ui
