#pragma once

#include "engine/integrate/Intersample.h"
#include "engine/model/BondGraphSyntax.h"
#include "engine/model/ExpressionSyntax.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sysid::model {

struct NamedPlace {
    std::string name;
    SourceLocation where;
};

struct ParamStatement {
    NamedPlace name;
    ExpressionPtr value;
    ExpressionPtr lower, upper;  // null when no bounds were written
    ExpressionPtr priorMean, priorSd;  // null when no prior was written
    bool fixed = false;
    std::vector<NamedPlace> over;  // param alpha(x): one parameter per node of the field variable x
    std::string unit;  // `unit ...` at the end of a declaration, as written; empty: none
};

struct StateStatement {
    NamedPlace name;
    ExpressionPtr initial;  // null: starts at 0
    bool estimate = false;
    bool guess = false;  // state y = 1 guess: only a start for the consistent initial values
    std::string unit;
    ExpressionPtr lower, upper;  // state y = 1 [LOW, HIGH] estimate: bounds of the estimate; null: none
};

// algebraic z [= GUESS] [unit U]: a variable without a derivative, fixed by `constraint` equations.
struct AlgebraicStatement {
    NamedPlace name;
    ExpressionPtr guess;  // null: 0; the start of the Newton solve for its consistent value
    std::string unit;
};

// constraint [NAME :] LHS = RHS: an equation that holds at all times. On Lagrangian coordinates
// (and no algebraic variable) a holonomic constraint whose multiplier sysid adds, named NAME or
// lambda1, lambda2, ... in text order; otherwise an algebraic equation for the algebraic variables.
struct ConstraintStatement {
    SourceLocation keyword;
    NamedPlace multiplier;  // empty name: not named
    ExpressionPtr lhs, rhs;
    std::string text;  // "x^2 + y^2 = l^2" as written
};

// include "bar.model" as crank [(m = m1, L = r)]: the statements of another model file with its
// names prefixed (crank.x); each binding replaces a parameter or input of it by an expression of
// the including model.
struct IncludeStatement {
    SourceLocation keyword;
    std::string file;  // as written, relative to the including file's folder
    SourceLocation fileWhere;
    NamedPlace name;
    struct Binding {
        NamedPlace name;
        ExpressionPtr value;
    };
    std::vector<Binding> bindings;
};

struct InputStatement {
    std::vector<NamedPlace> names;
    std::string unit;  // of every input named
    std::optional<integrate::Intersample> intersample;  // input u hold: the model's default for them
};

struct LetStatement {
    NamedPlace name;
    ExpressionPtr value;
};

struct OutputStatement {
    NamedPlace name;  // an anonymous output: no name, the place of its expression
    int primes = 0;  // output x' names a velocity
    ExpressionPtr value;  // output NAME = value; null: the output is the named state itself
    std::vector<ExpressionPtr> at;  // output s(0.4): a field at one point
    // output EXPR (x + nu): named y1, y2, ... by the builder. Also set for output f(...), which
    // is a field at a point when f is a field and an expression otherwise.
    ExpressionPtr anonymous;
    std::string unit;
};

struct CoordStatement {
    std::vector<NamedPlace> names;
    std::string unit;  // of every coordinate named (their positions; velocities get none)
};

enum class EnergyKind { Kinetic, Potential, Dissipation };

struct EnergyStatement {
    EnergyKind kind;
    SourceLocation keyword;
    NamedPlace name;
    ExpressionPtr value;
};

struct ForceStatement {
    NamedPlace coordinate;
    ExpressionPtr value;
};

struct DerivativeStatement {  // x' = ... or x'' = ...
    NamedPlace name;
    int order = 1;
    ExpressionPtr value;
};

struct InitialValue {
    ExpressionPtr value;
    bool estimate = false;
    bool guess = false;  // x(0) = 1 guess: a start the consistent initial values may change
    SourceLocation where;
    ExpressionPtr lower, upper;  // x(0) = 1 [LOW, HIGH] estimate: bounds of the estimate; null: none
};

struct InitialStatement {  // x(0) = position[, velocity]
    NamedPlace name;
    std::vector<InitialValue> values;
};

struct FieldAxisSyntax {  // x in [0, 0.8] nodes 3
    NamedPlace variable;
    ExpressionPtr lower, upper, nodes;
};

struct FieldStatement {  // field s on x in [...] nodes n[, y in [...] nodes m] [order 4]
    NamedPlace name;
    std::vector<FieldAxisSyntax> axes;
    ExpressionPtr order;  // null: second order
};

struct FieldEquationStatement {  // s_t = ...
    NamedPlace field;
    ExpressionPtr value;
};

// s(0, t) = ..., s_x(0.8, t) = ... (a boundary) or s(x, 0) = ... (the initial values):
// the field or its derivative as written, the point (coordinates, then time) and the value.
struct FieldConditionStatement {
    NamedPlace name;
    std::vector<ExpressionPtr> arguments;
    ExpressionPtr value;
};

struct ResetSyntax {  // x' = -e*x' after the ':' of a when
    NamedPlace state;
    int primes = 0;  // x' names the velocity of a second-order coordinate
    ExpressionPtr value;
};

// when LHS < RHS : STATE = EXPR[, STATE = EXPR ...] (also >, and <= / >= read as < / >)
struct WhenStatement {
    SourceLocation keyword;
    ExpressionPtr lhs, rhs;
    int direction = -1;  // -1: lhs < rhs, +1: lhs > rhs
    std::vector<ResetSyntax> resets;
    std::string condition;  // "when x < 0" as written
    std::string resetText;  // "x' = -e*x'" as written
};

using Statement = std::variant<ParamStatement, StateStatement, InputStatement, LetStatement, OutputStatement,
                               CoordStatement, EnergyStatement, ForceStatement, DerivativeStatement, InitialStatement,
                               FieldStatement, FieldEquationStatement, FieldConditionStatement, WhenStatement,
                               AlgebraicStatement, ConstraintStatement, IncludeStatement, BondGraphStatement>;

// Where the statements of an included sub-model come from (SourceLocation::origin - 1).
struct SubModelOrigin {
    std::string name;  // crank: its names are crank.x, ...
    std::string file;  // as written in the include statement
    std::string path;  // the file read
    SourceLocation include;  // the include statement (in the model text or another sub-model)
};

struct ModelSyntax {
    std::vector<Statement> statements;
    std::vector<SubModelOrigin> origins;
};

}  // namespace sysid::model
