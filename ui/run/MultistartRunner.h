#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/job/Multistart.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <memory>

namespace sysid::ui {

// Runs a multistart on a worker thread (which spreads the starts over its own threads); each
// finished start and the end arrive as queued signals. Also fits one start again, for the
// minimum the user picks.
class MultistartRunner : public JobRunner {
    Q_OBJECT
public:
    explicit MultistartRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    void start(job::Multistart multistart);
    // Fits start `index` of the multistart `fit` and `settings` describe again (the same start
    // gives the same fit); ends with refitted().
    void refit(job::FitJob fit, job::MultistartSettings settings, std::size_t index);

signals:
    // Start `index` ended with `cost` (NaN: it failed); `done` of `total` starts are done.
    void startFinished(int index, double cost, int done, int total);
    // Last signal of a run. `result` is null when the multistart could not start (message says
    // why); after Cancel it holds the starts finished until then.
    void finished(bool cancelled, const QString& message, std::shared_ptr<const sysid::job::MultistartResult> result);
    // Last signal of a refit: `result` null when it failed (message says why).
    void refitted(const QString& message, std::shared_ptr<const sysid::estimate::FitResult> result);
};

}  // namespace sysid::ui
