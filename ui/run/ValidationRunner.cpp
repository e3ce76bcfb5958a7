#include "ui/run/ValidationRunner.h"

#include "engine/core/ExceptionText.h"

namespace sysid::ui {

void ValidationRunner::start(job::FitJob fit, std::vector<Record> records, std::map<std::string, double> estimates,
                             job::InitialValues initial)
{
    fit.experiments.clear();
    launch([this, fit = std::move(fit), records = std::move(records), estimates = std::move(estimates),
            initial](job::ProgressSink&, std::stop_token stop) -> Finish {
        std::vector<ValidationOutcome> outcomes;
        for (const Record& record : records) {
            if (stop.stop_requested())
                break;
            ValidationOutcome outcome;
            outcome.dataSet = record.dataSet;
            outcome.name = QString::fromStdString(record.data.name);
            try {
                outcome.comparison = job::compareWithRecord(fit, record.data, static_cast<std::size_t>(record.dataSet),
                                                            estimates, initial, stop);
            } catch (const std::exception& e) {
                outcome.error = QString::fromStdString(core::exceptionText(e));
            }
            outcomes.push_back(std::move(outcome));
        }
        return [this, outcomes = std::move(outcomes)] { emit finished(outcomes); };
    });
}

}  // namespace sysid::ui
