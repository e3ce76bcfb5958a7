#pragma once

#include "engine/model/Prior.h"
#include "engine/model/SourceLocation.h"

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The parts of a model that outlive its symbolic form: CompiledModelSource carries them, and the
// code that only evaluates a compiled model includes this, not Model.h and with it GiNaC.
namespace sysid::model {

struct Parameter {
    std::string name;  // an estimated initial value is named like x(0) or x'(0)
    double value = 0.0;
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    bool fixed = false;
    bool isInitialValue = false;
    std::optional<Prior> prior;  // `prior MEAN, SD` in the model text
    std::string unit;  // `unit kg` as written; empty: none given
    SourceLocation where;
};

// The unit of a fitted parameter by name; an initial value of a later record of a fit ("x(0)#2")
// has the unit of x(0). Empty when none is given or there is no such parameter.
std::string unitOfParameter(const std::vector<Parameter>& parameters, std::string_view name);

// A field of a PDE model after the method of lines: which states hold its nodes.
struct FieldLayout {
    std::string name;
    std::vector<std::string> variables;
    std::vector<std::vector<double>> coordinates;  // per axis, of the nodes that are states
    std::vector<std::size_t> states;  // state index per node, last axis fastest
    SourceLocation where;
};

}  // namespace sysid::model
