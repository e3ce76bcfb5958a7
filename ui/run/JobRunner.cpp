#include "ui/run/JobRunner.h"

#include <map>
#include <mutex>

namespace sysid::ui {

// Latest trace per experiment, written by the job's thread and drained by the UI timer: the
// engine may produce traces far faster than a plot can redraw.
struct JobRunner::TraceBuffer {
    std::mutex mutex;
    std::map<int, std::pair<std::vector<double>, Eigen::MatrixXd>> latest;
};

class JobRunner::Sink : public job::ProgressSink {
public:
    Sink(JobRunner* runner, std::shared_ptr<TraceBuffer> traces) : runner_(runner), traces_(std::move(traces)) {}

    void started(const std::vector<std::string>& names) override
    {
        QStringList list;
        for (const auto& n : names)
            list << QString::fromStdString(n);
        QMetaObject::invokeMethod(
            runner_,
            [runner = runner_, list] {
                if (!runner->cancelled_)
                    emit runner->started(list);
            },
            Qt::QueuedConnection);
    }

    void iteration(const estimate::IterationRecord& record) override
    {
        QMetaObject::invokeMethod(
            runner_,
            [runner = runner_, record] {
                if (!runner->cancelled_)
                    emit runner->iteration(record);
            },
            Qt::QueuedConnection);
    }

    void trace(std::size_t experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs) override
    {
        const std::lock_guard lock(traces_->mutex);
        traces_->latest[static_cast<int>(experiment)] = {times, outputs};
    }

    void log(const std::string& line) override
    {
        const QString text = QString::fromStdString(line);
        QMetaObject::invokeMethod(
            runner_, [runner = runner_, text] { emit runner->logLine(text); }, Qt::QueuedConnection);
    }

    void finished(job::JobStatus, const std::string&) override {}  // the subclass reports the end, with the result

private:
    JobRunner* runner_;
    std::shared_ptr<TraceBuffer> traces_;
};

JobRunner::JobRunner(QObject* parent) : QObject(parent), traces_(std::make_shared<TraceBuffer>())
{
    qRegisterMetaType<estimate::IterationRecord>();
    traceTimer_.setInterval(33);
    connect(&traceTimer_, &QTimer::timeout, this, &JobRunner::flushTraces);
}

JobRunner::~JobRunner()
{
    if (worker_.joinable()) {
        worker_.request_stop();
        worker_.join();
    }
}

void JobRunner::launch(std::function<Finish(job::ProgressSink&, std::stop_token)> work)
{
    if (running_)
        return;
    if (worker_.joinable())
        worker_.join();
    running_ = true;
    cancelled_ = false;
    {
        const std::lock_guard lock(traces_->mutex);
        traces_->latest.clear();
    }
    traceTimer_.start();
    worker_ = std::jthread([this, work = std::move(work), traces = traces_](std::stop_token stop) {
        Sink sink(this, traces);
        Finish finish = work(sink, stop);
        QMetaObject::invokeMethod(
            this,
            [this, finish = std::move(finish)] {
                flushTraces();
                traceTimer_.stop();
                running_ = false;
                finish();
            },
            Qt::QueuedConnection);
    });
}

void JobRunner::cancel()
{
    if (!running_)
        return;
    cancelled_ = true;
    worker_.request_stop();
}

void JobRunner::flushTraces()
{
    std::map<int, std::pair<std::vector<double>, Eigen::MatrixXd>> latest;
    {
        const std::lock_guard lock(traces_->mutex);
        latest.swap(traces_->latest);
    }
    if (cancelled_)
        return;
    for (const auto& [experiment, trace] : latest)
        emit this->trace(experiment, trace.first, trace.second);
}

}  // namespace sysid::ui
