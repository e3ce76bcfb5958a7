#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/FitResult.h"
#include "engine/estimate/FitSettings.h"
#include "engine/job/FitJob.h"

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// One unknown of a fit as the user sees it: a model parameter shared by every record, or the
// estimated initial value of one record ("x(0)#2").
struct FitUnknown {
    std::string name;  // as in FitResult::parameters
    std::string modelName;  // the model parameter ("x(0)" for "x(0)#2")
    std::size_t modelIndex = 0;
    int record = -1;  // -1: shared by all records; else the record whose initial value it is
    double start = 0, lower = 0, upper = 0;  // the job's starting value and the bounds
};

// An unknown held at a value in one fit (a profile's step).
struct HeldUnknown {
    std::size_t unknown = 0;  // index into PreparedFit::unknowns()
    double value = 0;
};

// A fit job's model compiled and its records preprocessed and mapped once, so that the many fits
// of a profile or a multistart, which differ only in where they start and in which unknown is held,
// repeat none of it. FitJob::run is one such fit.
class PreparedFit {
public:
    // Compiles, checks the settings and prepares the records as FitJob::run does; throws JobError.
    explicit PreparedFit(const FitJob& job);

    const std::shared_ptr<const eval::CompiledModelSource>& model() const { return model_; }
    const std::vector<estimate::Experiment>& experiments() const { return experiments_; }
    // The settings the fits run with (the integrator resolved for the model, the preprocessing's
    // differentiation for the equation-error methods).
    const estimate::FitSettings& settings() const { return settings_; }
    const std::vector<FitUnknown>& unknowns() const { return unknowns_; }
    std::vector<std::string> unknownNames() const;
    // The unknown called `name`; nullopt when the fit does not estimate it.
    std::optional<std::size_t> unknownIndex(const std::string& name) const;
    // The Gaussian prior of each unknown in the fit's cost (none for a method without priors).
    const std::vector<std::optional<model::Prior>>& priors() const { return priors_; }

    // One fit. `start` holds a starting value per unknown (unknowns() order; empty: the job's);
    // `held` fixes one unknown at its value (its prior, if any, leaves the fit's cost; held, the only
    // unknown leaves nothing to fit and the cost is evaluated there). Returns the
    // fit's result (its parameters without the held one), with units; throws JobError as
    // FitJob::run does. `observer` gets iterations, traces and log lines.
    estimate::FitResult fit(const std::vector<double>& start, std::optional<HeldUnknown> held = std::nullopt,
                            estimate::ProgressSink* observer = nullptr, std::stop_token stop = {}) const;

private:
    std::string modelSource_;
    std::shared_ptr<const eval::CompiledModelSource> model_;
    std::vector<double> values_;  // every model parameter's starting value, model order
    std::vector<estimate::Experiment> experiments_;
    estimate::FitSettings settings_;
    std::vector<FitUnknown> unknowns_;
    std::vector<std::optional<model::Prior>> priors_;
};

}  // namespace sysid::job
