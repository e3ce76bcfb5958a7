#pragma once

#include "engine/model/ExpressionLimits.h"
#include "engine/model/ModelError.h"
#include "engine/model/ModelSyntax.h"
#include "engine/model/SourceLocation.h"

#include <ginac/ginac.h>

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::model {

// What the builders of a model (ModelBuilder and, for fields, FieldBuilder) share: the kinds of
// declared names, the places an expression may stand, and how a problem is reported.

// One problem while building: caught by guarded() and collected, so that every problem of a
// model is reported at once.
struct BuildFailure {
    ModelDiagnostic diagnostic;
};

[[noreturn]] void fail(SourceLocation where, std::string message);

// Runs f; a BuildFailure it throws becomes one of `errors`, and so does any other exception (a
// symbolic computation that fails), placed at `where`.
template <class F>
void guarded(std::vector<ModelDiagnostic>& errors, F&& f, SourceLocation where = {})
{
    try {
        f();
    } catch (const BuildFailure& e) {
        errors.push_back(e.diagnostic);
    } catch (const std::exception& e) {
        errors.push_back({where, describeSymbolicFailure(e)});
    }
}

// "line 3", for messages that point at another statement.
std::string at(SourceLocation where);

// A number as a message shows it (std::ostream's default format).
std::string formatNumber(double v);

enum class NameKind {
    Parameter,
    FirstOrderState,
    SecondOrderCoordinate,
    LagrangeCoordinate,
    Input,
    Let,
    Output,
    Field,
    FieldVariable,
    FieldDerivative,
    NodeParameter,
    BondElement,  // a bond-graph element or junction: spring, motion
    BondVariable,  // its effort or flow: spring.e, motion.f
    Algebraic,  // algebraic z
    Multiplier,  // the multiplier of a constraint on Lagrangian coordinates
};

// "a parameter", "a field variable", ...
std::string kindWord(NameKind k);

struct Declaration {
    NameKind kind;
    SourceLocation where;
    std::size_t index = 0;  // into parameters / inputs / coordinates / states / fields / node parameters / bond nodes
};

// Where an expression stands decides which names it may use.
enum class Context { Constant, InitialValue, Dynamics, Output, FieldEquation, FieldBoundary, FieldInitial };

// The model builder's names and expressions, as the field builder uses them.
class NameScope {
public:
    // Declares a name; a BuildFailure when it is reserved, a function or already declared.
    virtual void declareName(const NamedPlace& n, NameKind kind, std::size_t index) = 0;
    // The declaration of a name; nullptr when there is none.
    virtual const Declaration* declaration(const std::string& name) const = 0;
    virtual GiNaC::ex resolve(const ExpressionPtr& e, Context ctx) = 0;
    // The value of an expression of numbers (and pi); `what` names it in the failure.
    virtual double constantValue(const ExpressionPtr& e, const std::string& what) = 0;
    // "; did you mean 'x'?" for a name that is not declared.
    virtual std::string suggestion(const std::string& name) const = 0;

protected:
    ~NameScope() = default;
};

}  // namespace sysid::model
