#include "ui/run/OptimalEstimationRunner.h"

#include "engine/core/ExceptionText.h"

namespace sysid::ui {

OptimalEstimationRunner::OptimalEstimationRunner(QObject* parent) : JobRunner(parent)
{
    qRegisterMetaType<estimate::OptimalEstimationResult>();
    qRegisterMetaType<estimate::StiffnessDiagnostics>();
}

void OptimalEstimationRunner::diagnose(job::OptimalEstimationJob job)
{
    launch([this, job = std::move(job)](job::ProgressSink& sink, std::stop_token) -> Finish {
        std::optional<estimate::StiffnessDiagnostics> diagnostics;
        QString message;
        try {
            diagnostics = job.diagnose(sink);
        } catch (const std::exception& e) {
            message = QString::fromStdString(core::exceptionText(e));
        }
        return [this, message, diagnostics] { emit diagnosed(message, diagnostics); };
    });
}

void OptimalEstimationRunner::start(job::OptimalEstimationJob job)
{
    launch([this, job = std::move(job)](job::ProgressSink& sink, std::stop_token stop) -> Finish {
        std::optional<estimate::OptimalEstimationResult> result;
        QString message;
        try {
            result = job.run(sink, stop);
            message = QString::fromStdString(result->termination.message);
        } catch (const std::exception& e) {
            message = QString::fromStdString(core::exceptionText(e));
        }
        const bool cancelled = stop.stop_requested() && !(result && result->converged());
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

}  // namespace sysid::ui
