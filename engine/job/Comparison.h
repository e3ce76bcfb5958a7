#pragma once

#include "engine/core/EnumTable.h"
#include "engine/estimate/FitResult.h"
#include "engine/job/FitJob.h"
#include "engine/job/ValidationSimulation.h"

#include <Eigen/Dense>

#include <array>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// Where a comparison takes the initial values the fit estimated (`x(0) = 1 estimate`) from.
enum class InitialValueSource { Result, Estimate, Model };

inline constexpr core::EnumTable kInitialValueSources{
    "initial values",
    std::array{
        core::EnumSpelling<InitialValueSource>{InitialValueSource::Result,
                                               "result",
                                               "the initial values the fit estimated (on its first data set)",
                                               {},
                                               "Fit's estimate"},
        core::EnumSpelling<InitialValueSource>{
            InitialValueSource::Estimate,
            "estimate",
            "estimated again on this record with the parameters held at the fit's values (estimate:S: from its "
            "first S seconds)",
            {},
            "Estimated on the record"},
        core::EnumSpelling<InitialValueSource>{InitialValueSource::Model,
                                               "model",
                                               "the model's own initial values, as written or set in the project",
                                               {},
                                               "Model's own"},
    }};

struct InitialValues {
    InitialValueSource source = InitialValueSource::Result;
    double estimateSeconds = 0.0;  // Estimate: the first seconds of the record it is estimated from; 0: all
};

// Where a record's initial values come from when the user does not say: the fit's estimate (the
// benchmarks' records start from one state, and with no estimated initial value it is the model's
// own), or estimated on the record when the fit estimated one per data set ("x(0)#2"), since none of
// those is the record's. The CLI's compare, `sysid fit PROJECT` and the GUI's validation use it.
InitialValues defaultInitialValues(const estimate::FitResult& result);

// How well a simulated output follows the measured one.
struct OutputAgreement {
    double rmse = 0.0;  // sqrt(mean((y - yhat)^2))
    double nrmse = 0.0;  // rmse / sd(y), sd with 1/N: 1 is no better than the measured mean
    double fitPercent = 0.0;  // 100 (1 - |y - yhat| / |y - mean(y)|) (Ljung 1999; MATLAB's `compare`)
};

// The three measures for one output; NaN where they are undefined (no samples, constant y).
OutputAgreement outputAgreement(const Eigen::VectorXd& measured, const Eigen::VectorXd& simulated);

// A model at a fit's estimate simulated on one record and measured against it.
struct Comparison {
    ValidationSimulation simulation;  // times, outputs, measured outputs, the initial state used
    std::vector<OutputAgreement> agreement;  // per model output; NaN for an output the record does not measure
};

// Simulates `fit`'s model on `record` (simulateValidation) at `estimates` (a fit result's values by
// name, "x(0)" the first data set's estimated initial value), with the estimated initial values
// taken as `initial` says, and compares the outputs the record measures. A periodic-response fit's
// model gives its periodic steady state instead (periodicSteadyStateOnRecord; `initial` is unused). Estimate re-fits
// only the estimated initial values (the fit's machinery, output error, every other parameter fixed at `estimates`).
// Throws JobError naming the record when its data, the simulation or that fit fail.
Comparison compareWithRecord(const FitJob& fit, const ExperimentData& record, std::size_t recordIndex,
                             const std::map<std::string, double>& estimates, InitialValues initial = {},
                             std::stop_token stop = {});

}  // namespace sysid::job
