#include "ui/run/StudyRunner.h"

#include "engine/core/ExceptionText.h"

namespace sysid::ui {

void StudyRunner::start(job::NoiseStudy study)
{
    launch([this, study = std::move(study)](job::ProgressSink&, std::stop_token stop) -> Finish {
        std::shared_ptr<const job::NoiseStudyResult> result;
        QString message;
        try {
            result = std::make_shared<const job::NoiseStudyResult>(study.run(
                [this](const job::RealisationResult& r, std::size_t done, std::size_t total) {
                    const QString text = QString::fromStdString(r.message);
                    const bool failed = r.failed;
                    QMetaObject::invokeMethod(
                        this,
                        [this, done, total, failed, text] {
                            emit realisationFinished(static_cast<int>(done), static_cast<int>(total), failed, text);
                        },
                        Qt::QueuedConnection);
                },
                stop));
            message = tr("%1 of %2 realisations, %3 failed")
                          .arg(result->realisations.size())
                          .arg(result->settings.realisations)
                          .arg(result->failed);
        } catch (const std::exception& e) {
            message = QString::fromStdString(core::exceptionText(e));
        }
        const bool cancelled = result ? result->cancelled : stop.stop_requested();
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

}  // namespace sysid::ui
