#pragma once

#include "engine/model/BondGraphSyntax.h"
#include "engine/model/ExpressionSyntax.h"
#include "engine/model/Token.h"

#include <cstddef>
#include <string>

namespace sysid::model {

// What the bond-graph statements take from the model parser: its tokens and its expressions.
class TokenReader {
public:
    virtual const Token& peekToken(std::size_t ahead = 0) const = 0;
    virtual const Token& nextToken() = 0;
    virtual ExpressionPtr readExpression() = 0;
    // Reports a syntax error at `at`; does not return.
    [[noreturn]] virtual void failAt(const Token& at, std::string message) = 0;

protected:
    ~TokenReader() = default;
};

// Whether a statement starting with these two tokens is a bond-graph statement: a node's spelling
// (Se Sf C I R TF GY, or the numbers 0 and 1) followed by a name. The spellings are keywords only
// there, so C, I and R stay free as names elsewhere (param R = 2, C(0) = 1).
bool startsBondGraphStatement(const Token& first, const Token& second);

// Reads one bond-graph statement (see BondGraphStatement), the reader at its first token.
BondGraphStatement parseBondGraphStatement(TokenReader& in);

}  // namespace sysid::model
