#pragma once

#include "engine/model/BuildScope.h"
#include "engine/model/FieldDiscretisation.h"
#include "engine/model/Model.h"
#include "engine/model/ModelSyntax.h"

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sysid::model {

// The method-of-lines part of building a model: fields declared with `field s on x in [a, b]
// nodes N`, their equation s_t = ..., boundary and initial conditions, per-node parameters
// `param alpha(x)`, and outputs of field values. ModelBuilder owns the names and expressions
// (NameScope) and calls these steps in its order; each field becomes one state per node
// (discretiseField) and a FieldLayout of the model.
class FieldBuilder {
public:
    FieldBuilder(NameScope& scope, std::vector<ModelDiagnostic>& errors, Model& model) :
        scope_(scope), errors_(errors), model_(model)
    {
    }

    bool empty() const { return fields_.empty(); }

    // Declaration: the field with its variables and derivative names; a per-node parameter.
    void declareField(const FieldStatement& f);
    std::size_t nodeParameterCount() const { return nodeParameters_.size(); }
    void addNodeParameter(const ParamStatement& p);

    // Intervals, node counts, order, and which condition holds on each side: all known before
    // the parameters, since a per-node parameter needs the number of nodes.
    void defineGrids(const ModelSyntax& syntax);
    // One parameter alpha[i] per state node of the per-node parameter p, each like `prototype`.
    void expandNodeParameter(const ParamStatement& p, const Parameter& prototype);
    // Resolves each field's equation and conditions in its placeholders.
    void defineFields();
    // Discretises each field into the model's states and fields.
    void assemble();

    // A name of a field (its value, variable, derivative or per-node parameter) in an expression.
    GiNaC::ex resolveName(const ExpressionSyntax& e, const Declaration& d, Context ctx);
    // alpha(x) of a per-node parameter.
    GiNaC::ex resolveNodeParameter(const ExpressionSyntax& e, Context ctx);

    // A let may describe a coefficient over a field (let alpha = a*x + b): while it is resolved
    // field names give placeholders, and it then belongs to that field's equation.
    void beginLet(bool isLet);
    void endLet(const std::string& name);
    // A use of let `name`: one drawing on a field may stand only in that field's equation.
    void checkLetUse(const ExpressionSyntax& e, Context ctx);

    // output s (every node) or output s(X) (interpolated at one point).
    void output(const OutputStatement& o, std::size_t field, std::map<std::string, SourceLocation>& seen);
    // "x, y, " of a field, for messages.
    std::string variablesOf(std::size_t field) const;

private:
    // A field as declared, gathered from its statements before it is discretised.
    struct FieldInfo {
        const FieldStatement* statement = nullptr;
        FieldDefinition definition;
        const FieldEquationStatement* equation = nullptr;
        std::vector<std::array<const FieldConditionStatement*, 2>> sides;  // per axis: lower, upper end
        const FieldConditionStatement* initial = nullptr;
        std::vector<std::array<int, 2>> stateNodes;  // per axis
        bool ready = false;  // grid, conditions and placeholders are complete
        bool broken = false;  // an error in its grid or conditions is already reported
        DiscretisedField grid;
    };

    // param alpha(x): one parameter alpha[i] per state node i along x.
    struct NodeParameter {
        const ParamStatement* statement = nullptr;
        std::size_t field = 0, axis = 0;
        GiNaC::symbol placeholder;
        int firstNode = 1;
        std::vector<GiNaC::symbol> values;
    };

    static constexpr int maxFieldNodes = 2000;  // GiNaC works per node: keep the symbolic model tractable

    static std::string exactText(const GiNaC::ex& e);
    static std::string fieldVariables(const FieldInfo& info);
    static std::string conditionExample(const FieldInfo& info, std::size_t axis, const std::string& end);
    static bool isName(const ExpressionPtr& e, const std::string& name);
    static bool isFlux(const FieldInfo& info, const FieldConditionStatement& c);
    static bool isFieldContext(Context ctx);
    void defineGrid(FieldInfo& info);
    std::pair<std::size_t, std::optional<std::size_t>> fieldOf(const NamedPlace& written, const std::string& what);
    void attachEquation(const FieldEquationStatement& e);
    void attachCondition(const FieldConditionStatement& c);
    void attachBoundary(FieldInfo& info, const FieldConditionStatement& c, std::optional<std::size_t> fluxAxis);
    void noteLetField(std::size_t field, SourceLocation where);
    std::string nodeVariable(const std::string& parameter) const;

    NameScope& scope_;
    std::vector<ModelDiagnostic>& errors_;
    Model& model_;
    std::vector<FieldInfo> fields_;
    std::vector<NodeParameter> nodeParameters_;
    std::size_t currentField_ = std::string::npos;  // the field whose equation or condition is being resolved
    bool currentFlux_ = false;  // that condition gives the flux, so it may use the field value
    bool resolvingLet_ = false;  // a let is being resolved: field names give placeholders
    std::optional<std::size_t> letField_;  // the field that let draws on
    std::map<std::string, std::size_t> letFields_;  // lets drawing on a field, and which
};

}  // namespace sysid::model
