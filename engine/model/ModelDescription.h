#pragma once

#include "engine/model/Model.h"

#include <string>

namespace sysid::model {

// Human-readable summaries shared by `sysid check` and the GUI.
// States, algebraic variables, constraints and the differentiation index, parameters, inputs,
// outputs, events.
std::string describeModel(const Model& model);
// Lagrange's equations as derived (the descriptor system when there are constraints), the
// constraints with their hidden constraints and index-1 equations, first-order form, outputs, events.
std::string describeEquations(const Model& model);

}  // namespace sysid::model
