#pragma once

#include "engine/estimate/FitResult.h"
#include "engine/estimate/InformationCriteria.h"
#include "engine/job/Comparison.h"
#include "engine/job/FitJob.h"

#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// One fitted model to compare: the fit as it ran (model text, settings: method, periodic settings,
// integrator, intersample; its starting values) and its result (estimates, how many were estimated).
struct ModelCandidate {
    std::string name;  // in tables and plots: the result file, or the project's
    FitJob fit;  // experiments unused
    estimate::FitResult result;
};

// A candidate on the common record.
struct ModelScore {
    std::string name;
    std::string method;  // the estimation method's name
    std::optional<Comparison> comparison;  // empty when it failed; `error` says why
    std::string error;
    std::size_t parameters = 0;  // k: the estimated unknowns of the fit
    std::size_t residuals = 0;  // N: measured samples of the compared outputs
    double cost = 0.0;  // J = 1/2 sum_j w_j sum_i (y_ij - yhat_ij)^2 on the record, w_j of ModelComparison
    estimate::InformationCriteria criteria;  // from -2 ln L = 2 J
};

// Several fitted models (different structures, different numbers of parameters) on one record.
struct ModelComparison {
    std::string record;
    // The outputs compared (by model output name) and their weights w_j = 1/sigma_j^2, sigma_j the
    // record's noise estimate (estimate::estimateNoiseSd, as a fit weighs outputs by default), so
    // every model's cost is measured with the same weights whatever its own fit used.
    std::vector<std::string> outputs;
    std::vector<double> weights;
    std::vector<ModelScore> models;  // in the candidates' order
    // Set when the models do not all measure the same outputs on the record: their costs and
    // criteria then sum different residuals and cannot be ranked.
    std::string note;

    // The index of the model with the lowest AIC among those compared; nothing if none was.
    std::optional<std::size_t> best() const;
};

// Each candidate's model at its estimate on `record` (compareWithRecord: simulated from the initial
// values of defaultInitialValues, or its periodic steady state for a periodic-response fit), with
// the agreement per output, the weighted cost and the information criteria. A candidate that
// cannot be compared (its model does not fit the record, its simulation fails) gets its error and
// the others go on; the stop token ends it early (the rest unscored).
ModelComparison compareModels(const std::vector<ModelCandidate>& candidates, const ExperimentData& record,
                              std::stop_token stop = {});

}  // namespace sysid::job
