#pragma once

#include "engine/data/Preprocessing.h"
#include "engine/estimate/Experiment.h"

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace sysid::estimate {

// Every state of a model sampled on one experiment's uniform time grid, as the equation-error
// estimators need them: a state is measured when a model output is that state and the
// experiment has data for it; the velocity x' of a coordinate x whose samples are known is
// otherwise obtained by differentiating them.
struct MeasuredStates {
    std::vector<double> times;
    double step = 0.0;  // uniform sample spacing h
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> values;  // samples x states
    std::vector<bool> differentiated;  // per state: derived from its coordinate, not measured
};

// The state a state is the time derivative of, by the model's naming (x' of x, x'' of x'),
// or -1.
int coordinateOf(const eval::CompiledModelSource& model, std::size_t state);

// Throws FitError naming the experiment and the state or time when a state is neither measured
// nor derivable, the sampling is not uniform (to 1e-6 of the step), a value is not finite, or
// there are fewer than `minimumSamples` samples.
MeasuredStates measuredStates(const eval::CompiledModelSource& model, const Experiment& experiment,
                              const data::Preprocessing::Derivative& differentiation, std::size_t minimumSamples);

}  // namespace sysid::estimate
