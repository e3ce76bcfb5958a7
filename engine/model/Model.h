#pragma once

#include "engine/integrate/Intersample.h"
#include "engine/model/BondGraph.h"
#include "engine/model/Prior.h"
#include "engine/model/SourceLocation.h"

#include <ginac/ginac.h>

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

struct State {
    std::string name;  // x, or x' for the velocity of a second-order coordinate
    GiNaC::symbol symbol;
    GiNaC::ex rhs;  // d/dt of this state
    GiNaC::ex initial;  // in terms of parameters
    SourceLocation where;
    std::string unit;  // as written; empty: none given
};

struct Input {
    std::string name;
    GiNaC::symbol symbol;
    SourceLocation where;
    std::string unit;  // as written; empty: none given
    // input u hold: how the model says the input behaves between samples; none: the default
    // (see integrate::intersampleChoices for what overrides it).
    std::optional<integrate::Intersample> intersample;
};

struct Output {
    std::string name;
    GiNaC::ex expression;
    SourceLocation where;
    std::string unit;  // as written, or the unit of the state it names; empty: none given
    bool anonymous = false;  // output EXPR: named y1, y2, ... in their order
};

// The unit of a fitted parameter by name; an initial value of a later record of a fit ("x(0)#2")
// has the unit of x(0). Empty when none is given or there is no such parameter.
std::string unitOfParameter(const std::vector<Parameter>& parameters, std::string_view name);

// One of Lagrange's equations as derived, before it is solved for the accelerations:
// lhs = generalizedForce, with lhs = d/dt(dL/dq') - dL/dq + dD/dq'.
struct LagrangeEquation {
    std::string coordinate;
    GiNaC::ex lhs;
    GiNaC::ex generalizedForce;
};

// A field of a PDE model after the method of lines: which states hold its nodes.
struct FieldLayout {
    std::string name;
    std::vector<std::string> variables;
    std::vector<std::vector<double>> coordinates;  // per axis, of the nodes that are states
    std::vector<std::size_t> states;  // state index per node, last axis fastest
    SourceLocation where;
};

// when CONDITION : STATE = EXPR[, STATE = EXPR ...] -- a state reset (an impact). The condition
// `lhs < rhs` fires when g = lhs - rhs crosses zero downward (direction -1), `lhs > rhs` upward
// (+1). The assigned values use the states just before the event; all apply together.
struct Event {
    GiNaC::ex condition;  // g(t, x, p, u)
    int direction = -1;  // -1: fires when g falls through zero; +1: when it rises through zero
    struct Assignment {
        std::size_t state;  // index into Model::states
        GiNaC::ex value;  // in terms of t, the states before the event, parameters and inputs
    };
    std::vector<Assignment> assignments;
    std::string text;  // "when x < 0" as written, for messages and listings
    std::string resetText;  // "x' = -e*x'" as written, for listings
    SourceLocation where;
};

// A model with all names resolved and the right-hand side in first-order form
// dx/dt = f(x, p, u, t), outputs y = g(x, p, u, t). GiNaC objects are not thread-safe:
// a Model stays on the thread that built it; CompiledModelSource carries it to others.
struct Model {
    std::string source;  // file name or "<model>", for messages
    GiNaC::symbol time{"t"};
    std::vector<Parameter> parameters;
    std::vector<GiNaC::symbol> parameterSymbols;  // same order as parameters
    std::vector<State> states;
    std::vector<Input> inputs;
    std::vector<Output> outputs;
    bool outputsDeclared = false;  // false: every state is an output
    std::vector<LagrangeEquation> lagrangeEquations;
    std::vector<GiNaC::symbol> accelerationSymbols;  // q'' of each coordinate, for printing lhs
    std::vector<FieldLayout> fields;  // PDE fields; their nodes are ordinary states
    std::vector<Event> events;  // state resets, in the order written
    BondGraphInfo bondGraph;  // the causal bond graph its states came from; empty: none

    std::size_t parameterIndex(std::string_view name) const;  // npos when absent
    std::size_t stateIndex(std::string_view name) const;
    std::size_t inputIndex(std::string_view name) const;
    // input u hold: the behaviour each input is declared with (inputs declared without one are absent).
    std::map<std::string, integrate::Intersample> declaredIntersample() const;
    bool dependsOnTime() const;  // explicitly (forcing); inputs count as time-dependent too
};

}  // namespace sysid::model
