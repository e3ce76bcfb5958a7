#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>

namespace sysid::eval {

using SymbolNames = std::map<GiNaC::ex, std::string, GiNaC::ex_is_less>;

// Bounds the work of every toMuParser call on this thread while it lives (the characters written,
// counted at every level of each expression): a model whose intermediates each use the one before
// several times has derivatives exponentially larger than its text, and compiling it must end
// with a message, not after minutes and gigabytes. Budgets nest; the innermost applies.
class PrintBudget {
public:
    explicit PrintBudget(double characters);
    ~PrintBudget();
    PrintBudget(const PrintBudget&) = delete;
    PrintBudget& operator=(const PrintBudget&) = delete;

private:
    double previous_;
};

// The work of compiling one model (its equations and all their derivatives): far above any model
// written by hand (a few megabytes), far below minutes of work.
constexpr double kModelPrintBudget = 2e8;

// Writes a GiNaC expression in muParser syntax, renaming symbols by `names`.
// Throws std::invalid_argument for anything muParser cannot evaluate (complex numbers,
// unknown symbols or functions).
std::string toMuParser(const GiNaC::ex& e, const SymbolNames& names);

}  // namespace sysid::eval
