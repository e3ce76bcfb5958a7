#pragma once

#include <ginac/ginac.h>

#include <map>
#include <string>

namespace sysid::eval {

using SymbolNames = std::map<GiNaC::ex, std::string, GiNaC::ex_is_less>;

// Writes a GiNaC expression in muParser syntax, renaming symbols by `names`.
// Throws std::invalid_argument for anything muParser cannot evaluate (complex numbers,
// unknown symbols or functions).
std::string toMuParser(const GiNaC::ex& e, const SymbolNames& names);

}  // namespace sysid::eval
