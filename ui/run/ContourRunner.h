#pragma once

#include "engine/job/CostSurface.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <memory>

namespace sysid::ui {

// Computes a cost surface on a worker thread (which spreads the grid rows over its own
// threads); progress per finished row and the end arrive as queued signals.
class ContourRunner : public JobRunner {
    Q_OBJECT
public:
    explicit ContourRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    void start(job::CostSurface surface);

signals:
    void progress(int done, int total);
    // Last signal of a run. `result` is null when the surface could not be computed (message
    // says why); after Cancel it holds the rows that finished (the others NaN).
    void finished(bool cancelled, const QString& message, std::shared_ptr<const sysid::job::CostSurfaceResult> result);
};

}  // namespace sysid::ui
