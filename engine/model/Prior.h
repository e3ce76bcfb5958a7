#pragma once

namespace sysid::model {

// Gaussian prior of a parameter, used by the Bayesian estimator (`prior MEAN, SD` in a model).
struct Prior {
    double mean = 0.0;
    double sd = 1.0;
};

}  // namespace sysid::model
