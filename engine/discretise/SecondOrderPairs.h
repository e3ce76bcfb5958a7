#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <cstddef>
#include <vector>

namespace sysid::discretise {

// A position state q whose equation is exactly q' = v for another state v: an `x''` equation
// of the model language (states x and x'), or the same written by hand as two first-order states.
struct SecondOrderPair {
    std::size_t position;
    std::size_t velocity;
};

// Each state belongs to at most one pair (a chain x, x', x'' pairs only x with x').
std::vector<SecondOrderPair> findSecondOrderPairs(const eval::CompiledModelSource& source);

}  // namespace sysid::discretise
