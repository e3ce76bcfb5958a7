#include "engine/model/Lexer.h"

#include <cctype>
#include <charconv>

namespace sysid::model {

std::string describe(const Token& token)
{
    switch (token.kind) {
    case TokenKind::Identifier:
        return "'" + model::quoted(token.text) + std::string(static_cast<std::size_t>(token.primes), '\'') + "'";
    case TokenKind::Number: return "number " + model::quoted(token.text);
    case TokenKind::String: return "\"" + model::quoted(token.text) + "\"";
    case TokenKind::Separator: return token.text == ";" ? "';'" : "end of line";
    case TokenKind::End: return "end of file";
    default: return "'" + token.text + "'";
    }
}

namespace {

bool isNameStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c)
{
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// A double has 17 significant digits; a literal many times longer is a mistake or garbage, and
// turning it into an exact rational would cost time and memory for nothing.
constexpr std::size_t kMaxNumberLength = 200;

}  // namespace

std::vector<Token> tokenize(std::string_view text, std::vector<ModelDiagnostic>& errors)
{
    std::vector<Token> tokens;
    int line = 1;
    int column = 1;
    std::size_t i = 0;
    auto push = [&](TokenKind kind, std::string spelling, SourceLocation where) {
        Token t;
        t.kind = kind;
        t.text = std::move(spelling);
        t.where = where;
        tokens.push_back(std::move(t));
    };
    while (i < text.size()) {
        if (tokens.size() >= kMaxTokens) {
            addDiagnostic(errors,
                          {{line, column},
                           "the model has more than " + std::to_string(kMaxTokens) +
                               " names, numbers and symbols, more than a model may have"});
            break;
        }
        const char c = text[i];
        const SourceLocation here{line, column};
        if (c == '\n') {
            push(TokenKind::Separator, "\n", here);
            ++i;
            ++line;
            column = 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            ++i;
            ++column;
            continue;
        }
        if (c == '#') {
            while (i < text.size() && text[i] != '\n') {
                ++i;
                ++column;
            }
            continue;
        }
        if (isNameStart(c)) {
            std::size_t j = i;
            // crank.x (the x of the sub-model included as crank) and spring.q (the displacement of the
            // bond-graph element spring) are each one name.
            while (j < text.size() &&
                   (isNameChar(text[j]) || (text[j] == '.' && j + 1 < text.size() && isNameStart(text[j + 1]))))
                ++j;
            Token t;
            t.kind = TokenKind::Identifier;
            t.text = std::string(text.substr(i, j - i));
            t.where = here;
            while (j < text.size() && text[j] == '\'') {
                ++t.primes;
                ++j;
            }
            if (t.primes > 2)
                addDiagnostic(errors,
                              {here,
                               "'" + model::quoted(t.text) + "' has " + std::to_string(t.primes) +
                                   " primes; at most two (" + model::quoted(t.text) + "'') are allowed"});
            column += static_cast<int>(j - i);
            i = j;
            tokens.push_back(std::move(t));
            continue;
        }
        if (isDigit(c) || (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]))) {
            std::size_t j = i;
            while (j < text.size() && (isDigit(text[j]) || text[j] == '.'))
                ++j;
            if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
                std::size_t k = j + 1;
                if (k < text.size() && (text[k] == '+' || text[k] == '-'))
                    ++k;
                if (k < text.size() && isDigit(text[k])) {
                    while (k < text.size() && isDigit(text[k]))
                        ++k;
                    j = k;
                }
            }
            Token t;
            t.kind = TokenKind::Number;
            t.text = std::string(text.substr(i, j - i));
            t.where = here;
            if (t.text.size() > kMaxNumberLength) {
                addDiagnostic(errors,
                              {here,
                               "number '" + model::quoted(t.text) + "' has " + std::to_string(t.text.size()) +
                                   " characters, more than " + std::to_string(kMaxNumberLength) +
                                   " (a double holds about 17 significant digits)"});
                t.text = "0";
            } else if (const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), t.number);
                       ec == std::errc::result_out_of_range) {
                addDiagnostic(errors,
                              {here,
                               "number " + t.text +
                                   " is outside the range of double (magnitudes from about 2.2e-308 to "
                                   "1.8e308, and 0)"});
            } else if (ec != std::errc() || end != t.text.data() + t.text.size()) {
                addDiagnostic(errors, {here, "'" + t.text + "' is not a valid number"});
            } else if (j < text.size() && isNameStart(text[j])) {
                addDiagnostic(
                    errors,
                    {here, "number '" + t.text + "' runs into a name; write an operator between them (e.g. 2*x)"});
            }
            column += static_cast<int>(j - i);
            i = j;
            tokens.push_back(std::move(t));
            continue;
        }
        if (c == '"') {
            const std::size_t close = text.find_first_of("\"\n", i + 1);
            if (close == std::string_view::npos || text[close] != '"') {
                addDiagnostic(errors, {here, "a string needs its closing '\"' on the same line"});
                const std::size_t end = close == std::string_view::npos ? text.size() : close;
                column += static_cast<int>(end - i);
                i = end;
                continue;
            }
            push(TokenKind::String, std::string(text.substr(i + 1, close - i - 1)), here);
            column += static_cast<int>(close + 1 - i);
            i = close + 1;
            continue;
        }
        TokenKind kind = TokenKind::End;
        switch (c) {
        case '+': kind = TokenKind::Plus; break;
        case '-': kind = TokenKind::Minus; break;
        case '*': kind = TokenKind::Star; break;
        case '/': kind = TokenKind::Slash; break;
        case '^': kind = TokenKind::Caret; break;
        case '(': kind = TokenKind::LeftParen; break;
        case ')': kind = TokenKind::RightParen; break;
        case '[': kind = TokenKind::LeftBracket; break;
        case ']': kind = TokenKind::RightBracket; break;
        case ',': kind = TokenKind::Comma; break;
        case '=': kind = TokenKind::Equals; break;
        case ';': kind = TokenKind::Separator; break;
        case ':': kind = TokenKind::Colon; break;
        case '<': kind = TokenKind::Less; break;
        case '>': kind = TokenKind::Greater; break;
        default: break;
        }
        if ((kind == TokenKind::Less || kind == TokenKind::Greater) && i + 1 < text.size() && text[i + 1] == '=') {
            push(kind, std::string(1, c) + "=", here);
            i += 2;
            column += 2;
            continue;
        }
        if (kind == TokenKind::End) {
            const unsigned char uc = static_cast<unsigned char>(c);
            std::string shown = (uc >= 32 && uc < 127) ? std::string("'") + c + "'" : "non-ASCII character";
            addDiagnostic(
                errors,
                {here,
                 "unexpected " + shown +
                     " (expected a name, a number, a \"file name\" or one of + - * / ^ ( ) [ ] , = ; : < >)"});
            // A multi-byte UTF-8 character is one column and one error, not one per byte.
            while (i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80)
                ++i;
        } else {
            push(kind, std::string(1, c), here);
        }
        ++i;
        ++column;
    }
    push(TokenKind::Separator, "\n", {line, column});
    push(TokenKind::End, "", {line, column});
    return tokens;
}

}  // namespace sysid::model
