#include "ui/run/PeriodicRunner.h"

#include "engine/job/ProgressSink.h"

namespace sysid::ui {

namespace {

class QueuedSink : public job::ProgressSink {
public:
    explicit QueuedSink(PeriodicRunner* runner) : runner_(runner) {}
    void iteration(const estimate::IterationRecord& record) override
    {
        const int n = static_cast<int>(record.iteration);
        const double cost = record.cost;
        QMetaObject::invokeMethod(runner_, [r = runner_, n, cost] { emit r->iteration(n, cost); }, Qt::QueuedConnection);
    }
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}  // the result has the orbit
    void log(const std::string& line) override
    {
        const QString text = QString::fromStdString(line);
        QMetaObject::invokeMethod(runner_, [r = runner_, text] { emit r->logLine(text); }, Qt::QueuedConnection);
    }
    void finished(job::JobStatus, const std::string&) override {}  // the runner reports the end with the result

private:
    PeriodicRunner* runner_;
};

}  // namespace

PeriodicRunner::PeriodicRunner(QObject* parent) : QObject(parent) {}

PeriodicRunner::~PeriodicRunner()
{
    if (worker_.joinable()) {
        worker_.request_stop();
        worker_.join();
    }
}

void PeriodicRunner::start(job::PeriodicJob job)
{
    if (running_)
        return;
    if (worker_.joinable())
        worker_.join();
    running_ = true;
    worker_ = std::jthread([this, job = std::move(job)](std::stop_token stop) {
        QueuedSink sink(this);
        std::shared_ptr<const PeriodicResult> result;
        QString message;
        try {
            result = std::make_shared<const PeriodicResult>(job.run(sink, stop));
            message = QString::fromStdString(result->solution.converged() ? result->solution.floquet.verdict
                                                                          : result->solution.newton.message);
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        const bool cancelled = stop.stop_requested();
        QMetaObject::invokeMethod(
            this,
            [this, cancelled, message, result] {
                running_ = false;
                emit finished(cancelled, message, result);
            },
            Qt::QueuedConnection);
    });
}

void PeriodicRunner::cancel()
{
    if (running_)
        worker_.request_stop();
}

}  // namespace sysid::ui
