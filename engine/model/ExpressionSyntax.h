#pragma once

#include "engine/model/SourceLocation.h"

#include <memory>
#include <string>
#include <vector>

namespace sysid::model {

// Expression as written, before names are resolved; kept so errors can point at each name.
struct ExpressionSyntax {
    // Add and Multiply hold any number of operands: a - b is Add(a, Negate(b)) and a / b is
    // Multiply(a, Reciprocal(b)), so a long sum or product is one flat node.
    enum class Kind { Number, Name, Negate, Add, Multiply, Reciprocal, Power, Call };
    Kind kind = Kind::Number;
    double number = 0.0;
    std::string name;  // Name and Call
    int primes = 0;  // Name: x' or x''
    std::vector<std::shared_ptr<const ExpressionSyntax>> operands;
    SourceLocation where;
};

using ExpressionPtr = std::shared_ptr<const ExpressionSyntax>;

}  // namespace sysid::model
