#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/DampedGaussNewton.h"
#include "engine/estimate/FitResult.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/LevenbergMarquardt.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/estimate/ProgressSink.h"

#include <memory>
#include <stop_token>
#include <vector>

namespace sysid::estimate {

class FitError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The unknowns of a fit of these experiments from `values` (all model parameters, model order);
// a bad per-experiment value is a FitError.
ParameterLayout layoutFor(const eval::CompiledModelSource& model, const std::vector<double>& values,
                          const std::vector<Experiment>& experiments);

// Names of the unknowns a fit of these experiments estimates, in FitResult order.
std::vector<std::string> estimatedParameterNames(const eval::CompiledModelSource& model,
                                                 const std::vector<Experiment>& experiments,
                                                 EstimationMethod method = EstimationMethod::OutputError);

// Root mean square of the unweighted output residuals per model output over the experiments
// (NaN for an output no experiment measures); outputs[e] holds experiment e's model outputs.
std::vector<double> outputResidualRms(const eval::CompiledModelSource& model,
                                      const std::vector<Experiment>& experiments,
                                      const std::vector<Eigen::MatrixXd>& outputs);

// The minimisers' options as a fit with these settings uses them.
StoppingTolerances stoppingTolerances(const FitSettings& settings);
LevenbergMarquardtOptions levenbergMarquardtOptions(const FitSettings& settings);
GaussNewtonOptions gaussNewtonOptions(const FitSettings& settings);

// Estimates the free parameters of the model (not `fixed`) from the experiments, starting
// from `initialValues` (all model parameters, model order). Estimated initial values
// (`estimate`) are separate unknowns per experiment. A stop request ends the fit within an
// integration step and returns the best estimate so far, marked cancelled (the starting
// values, with NaN uncertainty, if it came before the first evaluation). Throws FitError
// for a problem that cannot start (no data, nothing to estimate, integration failing at the
// starting point). The observer gets the iterations, traces and log lines (not started() and
// finished(), which are the job's). The result holds why it stopped, the settings it ran with
// and the run's statistics (counted on this thread and the threads it starts).
// What fit() does when every parameter is fixed: refuse, as a user's fit does, or evaluate the cost
// there (a profile's point of a model with a single unknown).
enum class WithoutUnknowns { Refuse, Evaluate };

FitResult fit(std::shared_ptr<const eval::CompiledModelSource> model, const std::vector<double>& initialValues,
              const std::vector<Experiment>& experiments, const FitSettings& settings, ProgressSink* observer = nullptr,
              std::stop_token stop = {}, WithoutUnknowns withoutUnknowns = WithoutUnknowns::Refuse);

}  // namespace sysid::estimate
