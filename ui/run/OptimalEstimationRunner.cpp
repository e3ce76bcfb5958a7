#include "ui/run/OptimalEstimationRunner.h"

#include "engine/job/ProgressSink.h"

#include <mutex>

namespace sysid::ui {

// The latest trace, written by the job's thread and drained by the UI timer.
struct OptimalTraceBuffer {
    std::mutex mutex;
    std::optional<std::pair<std::vector<double>, Eigen::MatrixXd>> latest;
};

class OptimalEstimationRunner::Sink : public job::ProgressSink {
public:
    Sink(OptimalEstimationRunner* runner, std::shared_ptr<OptimalTraceBuffer> trace)
        : runner_(runner), trace_(std::move(trace))
    {
    }

    void iteration(const estimate::IterationRecord& record) override
    {
        QMetaObject::invokeMethod(runner_, [runner = runner_, record] { emit runner->iteration(record); },
                                  Qt::QueuedConnection);
    }

    void trace(std::size_t, const std::vector<double>& times, const Eigen::MatrixXd& outputs) override
    {
        const std::lock_guard lock(trace_->mutex);
        trace_->latest.emplace(times, outputs);
    }

    void log(const std::string& line) override
    {
        const QString text = QString::fromStdString(line);
        QMetaObject::invokeMethod(runner_, [runner = runner_, text] { emit runner->logLine(text); }, Qt::QueuedConnection);
    }

    void finished(job::JobStatus, const std::string&) override {}  // the runner reports the end, with the result

private:
    OptimalEstimationRunner* runner_;
    std::shared_ptr<OptimalTraceBuffer> trace_;
};

OptimalEstimationRunner::OptimalEstimationRunner(QObject* parent)
    : QObject(parent), trace_(std::make_shared<OptimalTraceBuffer>())
{
    qRegisterMetaType<estimate::OptimalEstimationResult>();
    traceTimer_.setInterval(33);
    connect(&traceTimer_, &QTimer::timeout, this, &OptimalEstimationRunner::flushTrace);
}

OptimalEstimationRunner::~OptimalEstimationRunner()
{
    if (worker_.joinable()) {
        worker_.request_stop();
        worker_.join();
    }
}

void OptimalEstimationRunner::start(job::OptimalEstimationJob job)
{
    if (running_)
        return;
    if (worker_.joinable())
        worker_.join();
    running_ = true;
    {
        const std::lock_guard lock(trace_->mutex);
        trace_->latest.reset();
    }
    traceTimer_.start();
    worker_ = std::jthread([this, job = std::move(job), trace = trace_](std::stop_token stop) {
        Sink sink(this, trace);
        std::optional<estimate::OptimalEstimationResult> result;
        QString message;
        try {
            result = job.run(sink, stop);
            message = QString::fromStdString(result->message);
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        const bool cancelled = stop.stop_requested() && !(result && result->converged);
        QMetaObject::invokeMethod(
            this,
            [this, cancelled, message, result] {
                flushTrace();
                traceTimer_.stop();
                running_ = false;
                emit finished(cancelled, message, result);
            },
            Qt::QueuedConnection);
    });
}

void OptimalEstimationRunner::cancel()
{
    if (running_)
        worker_.request_stop();
}

void OptimalEstimationRunner::flushTrace()
{
    std::optional<std::pair<std::vector<double>, Eigen::MatrixXd>> latest;
    {
        const std::lock_guard lock(trace_->mutex);
        latest.swap(trace_->latest);
    }
    if (latest)
        emit trace(latest->first, latest->second);
}

}  // namespace sysid::ui
