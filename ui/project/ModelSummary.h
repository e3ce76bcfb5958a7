#pragma once

#include "engine/model/Model.h"
#include "engine/model/ModelError.h"

#include <map>
#include <string>
#include <vector>

namespace sysid::ui {

// What the panels need to know about the model text: its errors, or its names. Made by the
// engine's parser (under the symbolic lock); holds no GiNaC objects.
struct ModelSummary {
    bool valid = false;
    std::vector<model::ModelDiagnostic> errors;  // line/column as the parser reports them
    std::vector<std::string> states, inputs, outputs;
    std::vector<std::string> events;  // "when x < 0 : x' = -e*x'" as written
    std::vector<std::string> bondGraph;  // "C spring", "1-junction motion": a bond graph's elements and junctions
    // "x^2 + y^2 = l^2 (multiplier rod)" as written; with them the differentiation index and the
    // algebraic variables (the last of `states`).
    std::vector<std::string> constraints;
    int differentiationIndex = 0;
    std::vector<std::string> algebraic;
    std::vector<model::Parameter> parameters;  // names, values, bounds, fixed, initial-value flags
    std::string description;  // model::describeModel
    std::string equations;  // model::describeEquations (Lagrange's equations too)
    bool lagrangian = false;
    std::vector<model::FieldLayout> fields;  // PDE fields (method of lines): which states hold which nodes
    // The model's `unit` of each state, input and output by name (an output's own unit over its
    // state's); absent: none given.
    std::map<std::string, std::string> units;
    std::map<std::string, integrate::Intersample> declaredIntersample;  // input u hold

    std::string unitOf(const std::string& name) const;  // empty when none
};

ModelSummary summarizeModel(const std::string& text, const std::string& source);

}  // namespace sysid::ui
