#pragma once

#include "engine/model/Model.h"

#include <string>

namespace sysid::model {

// Human-readable summaries shared by `sysid check` and the GUI.
std::string describeModel(const Model& model);  // states, parameters, inputs, outputs, events
std::string describeEquations(
    const Model& model);  // Lagrange's equations as derived, first-order form, outputs, events

}  // namespace sysid::model
