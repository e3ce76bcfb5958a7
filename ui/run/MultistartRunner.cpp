#include "ui/run/MultistartRunner.h"

#include <cmath>

namespace sysid::ui {

void MultistartRunner::start(job::Multistart multistart)
{
    launch([this, multistart = std::move(multistart)](job::ProgressSink&, std::stop_token stop) -> Finish {
        std::shared_ptr<const job::MultistartResult> result;
        QString message;
        try {
            result = std::make_shared<const job::MultistartResult>(multistart.run(
                [this](const job::Multistart::Progress& p) {
                    if (!p.start)
                        return;
                    QMetaObject::invokeMethod(
                        this,
                        [this, index = static_cast<int>(p.start->index), cost = p.start->cost,
                         done = static_cast<int>(p.done),
                         total = static_cast<int>(p.total)] { emit startFinished(index, cost, done, total); },
                        Qt::QueuedConnection);
                },
                stop));
            message = tr("%1 start(s), %2 distinct minima, %3 failed")
                          .arg(result->starts.size())
                          .arg(result->minima.size())
                          .arg(result->failed);
            if (result->best)
                message += tr("; the lowest cost %1 reached by %2 % of the starts")
                               .arg(result->fit.cost, 0, 'g', 8)
                               .arg(100 * result->fractionBest, 0, 'g', 3);
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        const bool cancelled = result ? result->cancelled : stop.stop_requested();
        return [this, cancelled, message, result] { emit finished(cancelled, message, result); };
    });
}

void MultistartRunner::refit(job::FitJob fit, job::MultistartSettings settings, std::size_t index)
{
    launch([this, fit = std::move(fit), settings, index](job::ProgressSink&, std::stop_token stop) -> Finish {
        std::shared_ptr<const estimate::FitResult> result;
        QString message;
        try {
            const job::MultistartPlan plan(fit, settings);
            estimate::FitResult refitted;
            const job::MultistartStart start = plan.runStart(index, stop, &refitted);
            if (std::isfinite(start.cost) && !start.final.empty())
                result = std::make_shared<const estimate::FitResult>(std::move(refitted));
            message = QString::fromStdString(start.stopReason);
        } catch (const std::exception& e) {
            message = QString::fromStdString(e.what());
        }
        return [this, message, result] { emit refitted(message, result); };
    });
}

}  // namespace sysid::ui
