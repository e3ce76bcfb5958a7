#include "ui/run/ProfileRunner.h"

#include "engine/core/ExceptionText.h"

namespace sysid::ui {

void ProfileRunner::start(job::ProfileLikelihood profile)
{
    launch([this, profile = std::move(profile)](job::ProgressSink&, std::stop_token stop) -> Finish {
        std::shared_ptr<const job::ProfileResult> result;
        QString message;
        try {
            result = std::make_shared<const job::ProfileResult>(profile.run(
                [this](const job::ProfileLikelihood::Progress& p) {
                    const auto sides = static_cast<int>(p.sidesTotal);
                    if (p.parameter.empty()) {
                        QMetaObject::invokeMethod(
                            this,
                            [this, optimum = p.objectiveAtOptimum, threshold = p.threshold, sides] {
                                emit optimumFound(optimum, threshold, sides);
                            },
                            Qt::QueuedConnection);
                        return;
                    }
                    if (!p.point)
                        return;  // a side ended, or a step is tried again shorter
                    QMetaObject::invokeMethod(
                        this,
                        [this, name = QString::fromStdString(p.parameter), value = p.point->value,
                         objective = p.point->objective, done = static_cast<int>(p.sidesDone), sides,
                         points = static_cast<int>(p.pointsDone)] {
                            emit pointComputed(name, value, objective, done, sides, points);
                        },
                        Qt::QueuedConnection);
                },
                stop));
            std::size_t points = 0, failures = 0;
            for (const job::ParameterProfile& p : result->profiles)
                for (const job::ProfileSide* side : {&p.lower, &p.upper}) {
                    points += side->points.size();
                    failures += side->failures.size();
                }
            message = tr("%1 profile(s), %2 re-fits").arg(result->profiles.size()).arg(points);
            if (failures > 0)
                message += tr(", %1 failed and were tried again with a shorter step").arg(failures);
        } catch (const std::exception& e) {
            message = QString::fromStdString(core::exceptionText(e));
        }
        const bool cancelled = result ? result->cancelled : stop.stop_requested();
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

}  // namespace sysid::ui
