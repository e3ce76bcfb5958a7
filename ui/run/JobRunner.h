#pragma once

#include "engine/job/ProgressSink.h"

#include <Eigen/Dense>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>
#include <stop_token>
#include <thread>
#include <vector>

Q_DECLARE_METATYPE(sysid::estimate::IterationRecord)

namespace sysid::ui {

// Runs one engine job at a time on a worker thread and brings its events to the UI thread as
// queued signals. Traces are coalesced: at most one per experiment every ~33 ms (30 Hz). The
// UI thread never waits on the engine; cancel() asks the job to stop and returns at once, and
// nothing the job streams after it reaches the views.
// Subclasses start their job with launch() and announce its end with their own signal.
class JobRunner : public QObject {
    Q_OBJECT
public:
    ~JobRunner() override;  // cancels and joins a running job
    bool isRunning() const { return running_; }
    void cancel();

signals:
    void started(const QStringList& parameterNames);
    void iteration(const sysid::estimate::IterationRecord& record);
    // Model outputs (samples x outputs) of one experiment at the current estimate.
    void trace(int experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs);
    void logLine(const QString& line);

protected:
    explicit JobRunner(QObject* parent);
    using Finish = std::function<void()>;
    // Runs work(sink, stop) on the worker thread; the sink forwards the job's events as the
    // signals above. The function work returns is called on the UI thread after the last trace:
    // it ends the run (and emits the subclass's finished signal). Ignored while running.
    void launch(std::function<Finish(job::ProgressSink&, std::stop_token)> work);

private:
    class Sink;
    struct TraceBuffer;
    void flushTraces();

    bool running_ = false;
    // Set by cancel(): the views may already show another project, so the iterations and traces
    // the job still sends until it stops are dropped (its log lines and its end are not).
    bool cancelled_ = false;
    std::jthread worker_;
    QTimer traceTimer_;
    std::shared_ptr<TraceBuffer> traces_;
};

}  // namespace sysid::ui
