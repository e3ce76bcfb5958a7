#pragma once

#include "engine/job/ModelComparison.h"
#include "ui/run/JobRunner.h"

#include <memory>
#include <vector>

namespace sysid::ui {

// Compares several fitted models on one record on the worker thread (job::compareModels); see
// JobRunner for cancelling.
class ModelComparisonRunner : public JobRunner {
    Q_OBJECT
public:
    explicit ModelComparisonRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    void start(std::vector<job::ModelCandidate> candidates, job::ExperimentData record);

signals:
    // Last signal of a run; `comparison` is null when it was cancelled.
    void finished(const std::shared_ptr<const sysid::job::ModelComparison>& comparison);
};

}  // namespace sysid::ui
