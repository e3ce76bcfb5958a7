#include "ui/run/FitRunner.h"

namespace sysid::ui {

void FitRunner::start(job::FitJob job)
{
    launch([this, job = std::move(job)](job::ProgressSink& sink, std::stop_token stop) -> Finish {
        std::optional<estimate::FitResult> result;
        QString message;
        try {
            result = job.run(sink, stop);
            message = QString::fromStdString(result->stopReason);
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        const bool cancelled = result ? result->cancelled : stop.stop_requested();
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

}  // namespace sysid::ui
