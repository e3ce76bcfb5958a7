#pragma once

#include "engine/model/Model.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace sysid::estimate {

// How a model is cast into the identification model of seed 001 §2.2-2.4:
// augmented state X = [model states; estimated parameters], unknown inputs
// p = [model inputs; accelerations of the second-order coordinates] and one measurement
// residual per measured output, per model input and per equation of motion.
struct AugmentedLayout {
    std::vector<std::string> stateNames;  // X
    std::size_t modelStateCount = 0;
    std::vector<std::size_t> estimatedParameters;  // indices into model.parameters, in X order
    std::vector<std::string> unknownInputNames;  // p: inputs, then "q''" per coordinate
    std::vector<std::string> residualNames;  // eps: outputs, then inputs, then "eom:q"
    std::vector<std::size_t> measuredOutputs;  // model output index of each output residual
    std::vector<std::string> coordinateNames;
    std::vector<std::size_t> coordinatePosition, coordinateVelocity;  // state indices per coordinate
};

// Throws OptimalEstimationError when the outputMeasured mask does not fit the model or the model
// has state resets (when).
AugmentedLayout augmentedLayout(const model::Model& model, const std::vector<bool>& outputMeasured);

// Diagonal weights in layout order: W > 0 per augmented state, V >= 0 per residual.
struct HamiltonianWeights {
    std::vector<double> state;
    std::vector<double> measurement;
};

// The 2N ODEs of seed 001 eq. (2.7) with p and xi eliminated, as a model the compiler
// accepts: states [X; lambda_X], inputs [measured outputs; measured model inputs] (named
// "<name>_m"), outputs [p; xi per augmented state; eps per residual]. Fixed parameters are
// replaced by their values (from `fixedValues` where it names them). Throws OptimalEstimationError naming the equation
// when it is not linear in the inputs, or when F'VF is singular. The caller holds model::symbolicMutex().
model::Model hamiltonianModel(const model::Model& model, const AugmentedLayout& layout,
                              const HamiltonianWeights& weights, const std::map<std::string, double>& fixedValues = {});

}  // namespace sysid::estimate
