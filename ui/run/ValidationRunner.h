#pragma once

#include "engine/job/FitJob.h"
#include "engine/job/Comparison.h"
#include "ui/run/JobRunner.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace sysid::ui {

// One validation data set after a fit: the model at the estimate on it and how well it agrees, or
// why that failed.
struct ValidationOutcome {
    int dataSet = -1;  // index in the project
    QString name;
    job::Comparison comparison;
    QString error;  // empty: simulated
};

// Compares the model at a fit's estimate with the validation data sets, one after the other, on
// the worker thread (job::compareWithRecord); see JobRunner for cancelling.
class ValidationRunner : public JobRunner {
    Q_OBJECT
public:
    struct Record {
        int dataSet = -1;
        job::ExperimentData data;
    };

    explicit ValidationRunner(QObject* parent = nullptr) : JobRunner(parent) {}
    // `fit` gives the model, its preprocessing, integrator and starting values (its experiments
    // are not used); `estimates` are the fit's parameter values; `initial` says where the estimated
    // initial values come from.
    void start(job::FitJob fit, std::vector<Record> records, std::map<std::string, double> estimates,
               job::InitialValues initial);

signals:
    // Last signal of a run: one outcome per record, in order (fewer when it was cancelled).
    void finished(const std::vector<sysid::ui::ValidationOutcome>& outcomes);
};

}  // namespace sysid::ui
