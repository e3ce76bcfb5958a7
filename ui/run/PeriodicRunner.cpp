#include "ui/run/PeriodicRunner.h"

#include "engine/core/ExceptionText.h"

namespace sysid::ui {

void PeriodicRunner::start(job::PeriodicJob job)
{
    launch([this, job = std::move(job)](job::ProgressSink& sink, std::stop_token stop) -> Finish {
        std::shared_ptr<const PeriodicResult> result;
        QString message;
        try {
            result = std::make_shared<const PeriodicResult>(job.run(sink, stop));
            message =
                QString::fromStdString(result->solution.converged() ? result->solution.floquet.verdict
                                                                    : result->solution.newton.termination.message);
        } catch (const std::exception& e) {
            message = QString::fromStdString(core::exceptionText(e));
        }
        const bool cancelled = stop.stop_requested();
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

}  // namespace sysid::ui
