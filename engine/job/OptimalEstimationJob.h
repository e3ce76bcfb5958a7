#pragma once

#include "engine/data/Preprocessing.h"
#include "engine/estimate/OptimalEstimation.h"
#include "engine/job/FitJob.h"
#include "engine/job/JobError.h"
#include "engine/job/ProgressSink.h"

#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// Optimal estimation (seed 001) of one measured record, with everything it needs copied in so
// it can run on any thread. Run it on a worker thread; the sink receives the events there.
struct OptimalEstimationJob {
    std::string modelText;
    std::string modelSource = "<model>";  // the name model errors are reported under
    ExperimentData experiment;
    data::Preprocessing preprocessing;  // applied to the table before it is used
    estimate::OptimalEstimationSettings settings;
    std::map<std::string, double> parameterValues;  // starting values, overriding the model text

    // Parses the model, builds the experiment and solves the Hamiltonian boundary value
    // problem. Every Newton iteration is an IterationRecord (iteration counted over all
    // stages, cost = 1/2 ||F||^2 of the shooting system, no parameters: they are known only at
    // the end) and a log line with the stage and its timings; at the end one trace with the
    // model outputs at the estimate (states, estimated inputs and theta(a)). Returns the result,
    // converged or not; `stop` ends it within an integration step and the result then says
    // "cancelled" (finished(Cancelled)). Throws JobError when it cannot run, after finished(Failed).
    estimate::OptimalEstimationResult run(ProgressSink& sink, std::stop_token stop = {}) const;
    // The stiffness of the Hamiltonian system along the starting guess (Rutten 1993, sec. 5.3),
    // without solving: one log line, then finished(Succeeded). Throws JobError as run() does.
    estimate::StiffnessDiagnostics diagnose(ProgressSink& sink) const;
};

// What the weights of optimal estimation can name for a model with all its outputs measured:
// the augmented states X (model states, then the estimated parameters) for W and q_a/W_a,
// and the residuals eps (outputs, inputs, "eom:<coordinate>") for V. Throws JobError(Model)
// for a model that does not parse or that optimal estimation cannot use.
struct OptimalEstimationNames {
    std::vector<std::string> augmentedStates;
    std::vector<std::string> residuals;
};
OptimalEstimationNames optimalEstimationNames(const std::string& modelText, const std::string& source);

}  // namespace sysid::job
