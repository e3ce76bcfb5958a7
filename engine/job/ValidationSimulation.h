#pragma once

#include "engine/job/FitJob.h"

#include <Eigen/Dense>

#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace sysid::job {

// A record the fit did not use, and the model simulated at the estimate on it.
struct ValidationSimulation {
    std::vector<double> times;  // the record's samples as preprocessed
    Eigen::MatrixXd outputs;  // samples x model outputs: the model at the estimate
    std::vector<std::string> outputNames;  // the model's outputs, in column order
    std::vector<double> residualRms;  // per output: RMS of measured - model (NaN: not measured)
    Eigen::MatrixXd measured;  // samples x model outputs as preprocessed; columns not measured are unused
    std::vector<bool> outputMeasured;  // per model output
    std::vector<std::string> stateNames;
    Eigen::VectorXd initialState;  // the state the simulation started from, in stateNames order
};

// Simulates `fit`'s model (a SimulationJob with the fit's integrator) at `estimates` on `record`,
// preprocessed as the fit preprocesses its records (preprocessedRecord with seed offset
// `recordIndex`), and compares the outputs the record measures. Throws JobError naming the
// record when its data or the simulation fail.
ValidationSimulation simulateValidation(const FitJob& fit, const ExperimentData& record, std::size_t recordIndex,
                                        const std::map<std::string, double>& estimates, std::stop_token stop = {});

}  // namespace sysid::job
