#include "ui/run/ModelComparisonRunner.h"

namespace sysid::ui {

void ModelComparisonRunner::start(std::vector<job::ModelCandidate> candidates, job::ExperimentData record)
{
    launch([this, candidates = std::move(candidates), record = std::move(record)](job::ProgressSink&,
                                                                                  std::stop_token stop) -> Finish {
        auto comparison = std::make_shared<const job::ModelComparison>(job::compareModels(candidates, record, stop));
        if (stop.stop_requested())
            comparison.reset();
        return [this, comparison] { emit finished(comparison); };
    });
}

}  // namespace sysid::ui
