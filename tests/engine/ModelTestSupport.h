#pragma once
// Looking into symbolic models in the parser and Lagrange tests: expressions as text, symbolic
// equality, symbols by name, and the error a model text must raise.

#include "engine/model/Model.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/ModelError.h"

#include <ginac/ginac.h>

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

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

// "\n  m.model:3:5: message" per diagnostic, for failure messages.
inline std::string describeDiagnostics(const std::vector<model::ModelDiagnostic>& ds)
{
    std::string s;
    for (const auto& d : ds)
        s += "\n  " + model::formatDiagnostic("m.model", d);
    return s;
}

// Empty when `text` fails with a diagnostic at line:column whose message holds `needle` (and,
// with `only`, no other diagnostic); otherwise what went wrong.
inline std::string checkError(const std::string& text, int line, int column, const std::string& needle, bool only)
{
    const auto err = errorOf(text);
    if (!err)
        return "the model parsed although it is wrong:\n" + text;
    const auto& ds = err->diagnostics();
    if (only && ds.size() != 1)
        return "expected one diagnostic, got:" + describeDiagnostics(ds);
    for (const auto& d : ds) {
        if (d.where.line != line || d.where.column != column || d.message.find(needle) == std::string::npos)
            continue;
        const std::string place = "m.model:" + std::to_string(line) + ":" + std::to_string(column) + ": ";
        if (std::string(err->what()).find(place) == std::string::npos)
            return "what() lacks '" + place + "': " + err->what();
        return {};
    }
    return "expected " + std::to_string(line) + ":" + std::to_string(column) + " '" + needle +
        "', got:" + describeDiagnostics(ds);
}

#define EXPECT_ONE_ERROR(text, line, column, needle)                                                                   \
    do {                                                                                                               \
        const std::string problem_ = sysid::test::checkError(text, line, column, needle, true);                        \
        QVERIFY2(problem_.empty(), problem_.c_str());                                                                  \
    } while (false)

#define EXPECT_ERROR(text, line, column, needle)                                                                       \
    do {                                                                                                               \
        const std::string problem_ = sysid::test::checkError(text, line, column, needle, false);                       \
        QVERIFY2(problem_.empty(), problem_.c_str());                                                                  \
    } while (false)

}  // namespace sysid::test
