#pragma once
// Looking into symbolic models in the parser and Lagrange tests: expressions as text, symbolic
// equality, symbols by name, and the error a model text must raise.

#include "engine/model/Model.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace sysid::test {

inline std::string show(const GiNaC::ex& e)
{
    std::ostringstream s;
    s << e;
    return s.str();
}

// True when e is zero once expanded or normalised (a rational expression).
inline bool isZero(const GiNaC::ex& e)
{
    return e.expand().is_zero() || e.normal().is_zero();
}

// True when a and b are the same expression.
inline bool same(const GiNaC::ex& a, const GiNaC::ex& b)
{
    return isZero(a - b);
}

inline const GiNaC::symbol& param(const model::Model& m, const std::string& name)
{
    const std::size_t i = m.parameterIndex(name);
    if (i == std::string::npos)
        throw std::runtime_error("no parameter " + name);
    return m.parameterSymbols[i];
}

inline const model::State& state(const model::Model& m, const std::string& name)
{
    const std::size_t i = m.stateIndex(name);
    if (i == std::string::npos)
        throw std::runtime_error("no state " + name);
    return m.states[i];
}

// The error parsing `text` (as m.model) raises; none when it parses.
inline std::optional<model::ModelError> errorOf(const std::string& text)
{
    try {
        model::parseModel(text, "m.model");
    } catch (const model::ModelError& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace sysid::test
