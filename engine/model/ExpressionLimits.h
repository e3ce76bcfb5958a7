#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <unordered_map>

namespace sysid::model {

// What one expression of a model may cost once its intermediates (let) are substituted: every
// later step (derivatives, printing, compiling) walks it recursively or in proportion to its
// size, so a few lines of text must not make it exhaust the stack or memory.
constexpr int kMaxExpressionDepth = 400;  // levels of the expression tree
constexpr double kMaxExpressionSize = 2e6;  // nodes of the expression written out without sharing
// Exact constants are folded as rationals; one whose numerator or denominator has more bits than
// this (about 10^1200, far beyond a double's 1.8e308) is refused before it is computed.
constexpr long kMaxNumberBits = 4000;

// The shape of an expression, for the limits above.
struct ExpressionShape {
    int depth = 0;
    double size = 0;  // nodes written out (saturates far above kMaxExpressionSize)
    std::optional<double> value;  // a constant part (no symbols) in double arithmetic; none if not constant
    bool overflows = false;  // a constant part is infinite or not a number in double arithmetic
    bool complex = false;  // a constant is not real (sqrt(-1))
};

// Measures expressions, remembering the parts it has seen: the intermediates of a model are
// shared by many expressions, and a chain of intermediates each using the last twice is a tree
// exponentially larger than the graph that holds it.
class ExpressionMeter {
public:
    ExpressionShape measure(const GiNaC::ex& e);

private:
    // The key is the object's address; the ex kept alongside holds it alive so the address is
    // not reused by another object.
    std::unordered_map<const GiNaC::basic*, std::pair<GiNaC::ex, ExpressionShape>> seen_;
};

// What went wrong in a symbolic computation, in words for a user (GiNaC's messages name its
// internal functions): "division by zero", "log(0)", "a number is too large", ...
std::string describeSymbolicFailure(const std::exception& e);

// Whether numeric^numeric is cheap to compute exactly (its result has at most kMaxNumberBits).
bool powerWithinLimits(const GiNaC::numeric& base, const GiNaC::numeric& exponent);

// Whether an exact constant is within kMaxNumberBits.
bool numberWithinLimits(const GiNaC::numeric& n);

// e.expand() when the expanded form is small; e itself when expanding would multiply out into
// more than `maxNodes` nodes ((x + y)^1000, a product of many sums) or powers of sums beyond a
// small exponent, whose binomial coefficients run out of the range of double.
GiNaC::ex expandWhenSmall(const GiNaC::ex& e, unsigned options = 0, double maxNodes = 1e5);

}  // namespace sysid::model
