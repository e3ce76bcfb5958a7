#include "ui/run/ContourRunner.h"

#include "engine/core/ExceptionText.h"
#include "engine/data/Text.h"

namespace sysid::ui {

void ContourRunner::start(job::CostSurface surface)
{
    launch([this, surface = std::move(surface)](job::ProgressSink&, std::stop_token stop) -> Finish {
        std::shared_ptr<const job::CostSurfaceResult> result;
        QString message;
        try {
            result = std::make_shared<const job::CostSurfaceResult>(surface.run(
                [this](std::size_t done, std::size_t total) {
                    QMetaObject::invokeMethod(
                        this, [this, done, total] { emit progress(static_cast<int>(done), static_cast<int>(total)); },
                        Qt::QueuedConnection);
                },
                stop));
            message = tr("%1 x %2 points, smallest cost %3")
                          .arg(result->xValues.size())
                          .arg(result->yValues.size())
                          .arg(QString::fromStdString(data::formatNumber(result->minimum(), 6)));
            if (result->failedPoints > 0)
                message += tr("; the model could not be integrated at %1 point(s), first at %2")
                               .arg(result->failedPoints)
                               .arg(QString::fromStdString(result->firstFailure));
        } catch (const std::exception& e) {
            message = QString::fromStdString(core::exceptionText(e));
        }
        const bool cancelled = result ? result->cancelled : stop.stop_requested();
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

}  // namespace sysid::ui
