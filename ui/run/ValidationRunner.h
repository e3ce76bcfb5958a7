#pragma once

#include "engine/job/FitJob.h"
#include "engine/job/ValidationSimulation.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace sysid::ui {

// One validation data set after a fit: the model at the estimate on it, or why that failed.
struct ValidationOutcome {
    int dataSet = -1;  // index in the project
    QString name;
    job::ValidationSimulation simulation;
    QString error;  // empty: simulated
};

// Simulates the model at a fit's estimate on the validation data sets, one after the other, on
// the worker thread (job::simulateValidation); see JobRunner for cancelling.
class ValidationRunner : public JobRunner {
    Q_OBJECT
public:
    struct Record {
        int dataSet = -1;
        job::ExperimentData data;
    };

    explicit ValidationRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    // `fit` gives the model, its preprocessing, integrator and starting values (its experiments
    // are not used); `estimates` are the fit's parameter values.
    void start(job::FitJob fit, std::vector<Record> records, std::map<std::string, double> estimates);

signals:
    // Last signal of a run: one outcome per record, in order (fewer when it was cancelled).
    void finished(const std::vector<sysid::ui::ValidationOutcome>& outcomes);
};

}  // namespace sysid::ui
