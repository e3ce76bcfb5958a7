#pragma once

#include "engine/integrate/Intersample.h"
#include "engine/model/BondGraph.h"
#include "engine/model/ModelParameter.h"
#include "engine/model/Prior.h"
#include "engine/model/SourceLocation.h"

// The two GiNaC classes a model holds and their operators, not <ginac/ginac.h>: every file that
// includes the latter registers some 50 static objects at start-up and exit (GiNaC's archive
// readers), and most files that see a Model only read it. Files that do algebra include
// <ginac/ginac.h> themselves. operators.h is needed even to print: without it `stream << ex`
// converts the expression to a GiNaC::archive and writes its binary form.
#include <ginac/ex.h>
#include <ginac/operators.h>
#include <ginac/symbol.h>

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::model {

struct State {
    std::string name;  // x, or x' for the velocity of a second-order coordinate
    GiNaC::symbol symbol;
    GiNaC::ex rhs;  // d/dt of this state; of an algebraic variable the residual of its equation, 0 = rhs
    GiNaC::ex initial;  // in terms of parameters
    SourceLocation where;
    std::string unit;  // as written; empty: none given
    // An algebraic variable (`algebraic z` or a constraint's multiplier): no derivative; it comes
    // after every differential state in Model::states.
    bool algebraic = false;
    // The initial value is the user's: consistent initial values keep it. False: not given, or
    // given as a guess (x(0) = 1 guess), which the constraints may change.
    bool heldInitial = false;
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

// One of Lagrange's equations as derived, before it is solved for the accelerations:
// lhs = generalizedForce, with lhs = d/dt(dL/dq') - dL/dq + dD/dq'.
struct LagrangeEquation {
    std::string coordinate;
    GiNaC::ex lhs;
    GiNaC::ex generalizedForce;
    GiNaC::ex constraintForce = 0;  // row of Phi_q^T lambda: lhs + constraintForce = generalizedForce
};

// A `constraint` statement and what the index reduction made of it. The descriptor system of a
// Lagrangian model is M q'' + Phi_q^T lambda = Q, Phi(q, t) = 0 (with Psi_q'^T mu for constraints on
// velocities); differentiated along the solution until an algebraic variable appears, the
// constraint gives an index-1 equation, and its lower derivatives are the hidden constraints
// (invariants) that the solution must keep (Ascher & Petzold 1998, ch. 9; Hairer & Wanner II, sec. VII.1).
struct Constraint {
    std::string text;  // "x^2 + y^2 = l^2" as written
    SourceLocation where;
    GiNaC::ex expression;  // lhs - rhs
    std::string multiplier;  // the multiplier sysid added for it (a Lagrangian constraint); empty: none
    bool onVelocities = false;  // holds coordinates' velocities: its force is the velocity gradient's
    // The constraint and its time derivatives below the one that holds an algebraic variable:
    // hidden[0] = expression, hidden[k] = d^k/dt^k expression, all zero along a solution.
    std::vector<GiNaC::ex> hidden;
    GiNaC::ex reduced;  // d^k/dt^k expression with k = hidden.size(): the index-1 equation 0 = reduced
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
    std::vector<Constraint> constraints;  // in the order written
    // Differentiations needed to get every variable's derivative (Brenan, Campbell & Petzold 1996):
    // 0 for an ODE, 1 for algebraic equations that determine their variables, 3 for holonomic
    // constraints in Lagrange's equations (the pendulum in Cartesian coordinates).
    int differentiationIndex = 0;
    std::size_t algebraicCount() const;  // the last states of `states`
    // The files of included sub-models (SourceLocation::origin - 1), for places in messages.
    std::vector<std::string> subModelFiles;
    // "line 7", or "line 8 of bar.model" for a place in an included sub-model.
    std::string place(SourceLocation where) const;

    std::size_t parameterIndex(std::string_view name) const;  // npos when absent
    std::size_t stateIndex(std::string_view name) const;
    std::size_t inputIndex(std::string_view name) const;
    // input u hold: the behaviour each input is declared with (inputs declared without one are absent).
    std::map<std::string, integrate::Intersample> declaredIntersample() const;
    bool dependsOnTime() const;  // explicitly (forcing); inputs count as time-dependent too
};

}  // namespace sysid::model
