#include "ui/run/FitRunner.h"

#include "engine/core/ExceptionText.h"
#include "engine/project/FitReport.h"

namespace sysid::ui {

void FitRunner::start(job::FitJob job)
{
    launch([this, job = std::move(job)](job::ProgressSink& sink, std::stop_token stop) -> Finish {
        std::optional<estimate::FitResult> result;
        QString message;
        try {
            result = job.run(sink, stop);
            message = QString::fromStdString(result->termination.message);
            // The full report goes to the log before the run ends (a line per entry).
            sink.log(project::fitReport(*result));
        } catch (const std::exception& e) {
            message = QString::fromStdString(core::exceptionText(e));
        }
        const bool cancelled = result ? result->cancelled() : stop.stop_requested();
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

}  // namespace sysid::ui
