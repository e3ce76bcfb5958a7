#pragma once

#include "engine/data/DataTable.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/InputSignals.h"

#include <Eigen/Dense>

#include <map>
#include <string>
#include <vector>

namespace sysid::estimate {

// One measured record: the model's outputs sampled at `times`, and its input signals.
struct Experiment {
    std::string name;
    std::vector<double> times;
    Eigen::MatrixXd measured;  // samples x model outputs; columns not measured are unused
    std::vector<bool> outputMeasured;  // per model output
    integrate::InputSignals inputs;
    // Values of fixed parameters for this record only (its own initial state written as
    // x(0) = x0 with x0 fixed, a forcing amplitude, ...).
    std::map<std::string, double> fixedValues;
    // Estimated initial values (by model name) held at a value in this record only, so that they
    // are no unknowns here: a profile steps one of them.
    std::map<std::string, double> heldInitialValues;
    // Starting values of this record's estimated initial values, over the shared starting values
    // of the model's parameters: a fit warm-started from another fit's per-record estimates.
    std::map<std::string, double> startValues;
};

// Builds an experiment from a data table: each model output and input is read from the
// column of the same name unless `mapping` (model name -> column) says otherwise. Outputs
// with no column are not measured; inputs must all be present, read between samples as
// `intersample` (the user's choice) or else the model's declaration says (integrate::intersampleOf).
// Throws data::DataError.
Experiment makeExperiment(const eval::CompiledModelSource& model, const data::DataTable& table,
                          const std::map<std::string, std::string>& mapping, std::string name,
                          const std::map<std::string, integrate::Intersample>& intersample = {});

// Noise standard deviation of a smooth signal from second differences (Gasser, Sroka &
// Jennen-Steinmetz, Biometrika 73(3), 1986): sigma^2 = sum e_i^2 / (n - 2), e_i the
// pseudo-residuals of neighbour interpolation.
double estimateNoiseSd(const std::vector<double>& time, const Eigen::VectorXd& values);

}  // namespace sysid::estimate
