#pragma once

#include <stdexcept>

namespace sysid::estimate {

// A model, experiment or setting that optimal estimation cannot use; the message names the place.
class OptimalEstimationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace sysid::estimate
