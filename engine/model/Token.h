#pragma once

#include "engine/model/SourceLocation.h"

#include <string>
#include <vector>

namespace sysid::model {

enum class TokenKind {
    Identifier,  // name, possibly followed by ' or '' (see primes)
    Number,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    LeftParen,
    RightParen,
    LeftBracket,
    RightBracket,
    Comma,
    Equals,
    Less,  // < or <= (text tells which; `when` reads both as the same direction)
    Greater,  // > or >=
    Colon,
    String,  // "bar.model": text holds what stands between the quotes
    Separator,  // Separator: end of line or ';'
    End,
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text;  // identifier name without primes (crank.x for a sub-model's x), the number's spelling or a string's text
    int primes = 0;  // x' -> 1, x'' -> 2
    double number = 0.0;
    SourceLocation where;
};

std::string describe(const Token& token);

}  // namespace sysid::model
