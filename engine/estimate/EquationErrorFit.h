#pragma once

#include "engine/estimate/Experiment.h"
#include "engine/estimate/FitResult.h"
#include "engine/estimate/FitSettings.h"
#include "engine/estimate/ProgressSink.h"

#include <memory>
#include <stop_token>
#include <vector>

namespace sysid::estimate {

// The equation-error estimators of seed note 004 (settings.method SingleStep or Multistep):
// the measured states are substituted into the integration formula and the objective
// (EquationErrorObjective) is minimised by Newton-Raphson with its exact Hessian, falling back
// to Gauss-Newton where the Hessian is not positive definite, with a halving line search and
// the bounds enforced by projection. No ODE is solved per iteration. Initial values are not
// estimated (the data supply the states); parameters that appear only in the initial state
// are left at their starting values. Unless settings.equationError.simulateFit is off, the
// fitted model is simulated from the measured first sample for the traces and the residual RMS
// (left NaN when that simulation fails).
// Arguments and errors as estimate::fit, which calls this for those methods.
// Names of the parameters fitByEquationError estimates, in FitResult order.
std::vector<std::string> equationErrorParameterNames(const eval::CompiledModelSource& model,
                                                     const std::vector<Experiment>& experiments,
                                                     EstimationMethod method);

FitResult fitByEquationError(std::shared_ptr<const eval::CompiledModelSource> model,
                             const std::vector<double>& initialValues, const std::vector<Experiment>& experiments,
                             const FitSettings& settings, ProgressSink* observer = nullptr, std::stop_token stop = {});

}  // namespace sysid::estimate
