#pragma once

#include "engine/data/DataTable.h"
#include "engine/data/Preprocessing.h"
#include "engine/estimate/Experiment.h"
#include "engine/estimate/FitResult.h"
#include "engine/estimate/FitSettings.h"
#include "engine/job/JobError.h"
#include "engine/job/ProgressSink.h"

#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// One measured record of a fit: a data table and how its columns map onto the model.
struct ExperimentData {
    std::string name;  // for messages and plots; the table's source if empty
    data::DataTable table;
    std::map<std::string, std::string> mapping;  // model output/input name -> column; same name if absent
    std::map<std::string, double> fixedValues;  // fixed parameters with other values in this record only

    const std::string& label() const { return name.empty() ? table.source : name; }
};

// A parameter fit with everything it needs, copied in, so it can run on any thread while the
// caller goes on editing its own copies. Run it on a worker thread; the sink receives the
// events on that thread.
struct FitJob {
    std::string modelText;
    std::string modelSource = "<model>";  // the name model errors are reported under
    std::vector<ExperimentData> experiments;
    data::Preprocessing preprocessing;  // applied to every table before it is used
    estimate::FitSettings settings;
    std::map<std::string, double> parameterValues;  // starting values, overriding the model text

    // Parses and compiles the model, preprocesses the tables, builds the experiments and
    // fits. Returns the result (converged or not; `cancelled` when `stop` ended it, with the
    // best estimate so far). Throws JobError with the user-facing message when the fit cannot
    // run; the sink's finished() has then been called with JobStatus::Failed and that message.
    estimate::FitResult run(ProgressSink& sink, std::stop_token stop = {}) const;
};

// FitSettings::validate() and the names the settings give (output weights) against the model;
// throws JobError(Settings) naming the setting.
void checkFitSettings(const eval::CompiledModelSource& model, const estimate::FitSettings& settings);

// Record `record` of a fit's data as FitJob::run fits it: `table` through the preprocessing, its
// added noise seeded seed + record (each record gets its own noise). What the GUI plots as the
// fitted data. Throws data::DataError naming the table and step.
data::DataTable preprocessedRecord(const data::DataTable& table, const data::Preprocessing& preprocessing,
                                   std::size_t record);

// The job's data tables preprocessed (preprocessedRecord) and mapped onto the model, as
// FitJob::run fits them. Throws JobError(Data) naming the table and step.
std::vector<estimate::Experiment> preparedExperiments(const FitJob& job, const eval::CompiledModelSource& model);

// One record the fit did not use, preprocessed as record `recordIndex` of `job` would be
// (`table` receives it) and mapped onto `model`. Throws JobError(Data) naming the record.
estimate::Experiment preparedExperiment(const FitJob& job, const eval::CompiledModelSource& model,
                                        const ExperimentData& record, std::size_t recordIndex, data::DataTable& table);

// The output-error fit that starts where another fit ended ("Use as start", `--refine`): the
// same data and settings, method output error, and the estimates as starting values.
FitJob refinedByOutputError(const FitJob& job, const estimate::FitResult& start);

}  // namespace sysid::job
