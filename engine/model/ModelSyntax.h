#pragma once

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
};

struct StateStatement {
    NamedPlace name;
    ExpressionPtr initial;  // null: starts at 0
    bool estimate = false;
};

struct InputStatement {
    std::vector<NamedPlace> names;
};

struct LetStatement {
    NamedPlace name;
    ExpressionPtr value;
};

struct OutputStatement {
    NamedPlace name;
    int primes = 0;           // output x' names a velocity
    ExpressionPtr value;      // null: the output is the named state itself
};

struct CoordStatement {
    std::vector<NamedPlace> names;
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
    SourceLocation where;
};

struct InitialStatement {  // x(0) = position[, velocity]
    NamedPlace name;
    std::vector<InitialValue> values;
};

using Statement = std::variant<ParamStatement, StateStatement, InputStatement, LetStatement, OutputStatement,
                               CoordStatement, EnergyStatement, ForceStatement, DerivativeStatement,
                               InitialStatement>;

struct ModelSyntax {
    std::vector<Statement> statements;
};

}  // namespace sysid::model
