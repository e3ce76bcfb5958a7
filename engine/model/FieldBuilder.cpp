#include "engine/model/FieldBuilder.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace sysid::model {

using GiNaC::ex;

void FieldBuilder::declareField(const FieldStatement& f)
{
    scope_.declareName(f.name, NameKind::Field, fields_.size());
    FieldInfo info;
    info.statement = &f;
    info.definition.name = f.name.name;
    fields_.push_back(std::move(info));
    const std::size_t index = fields_.size() - 1;
    scope_.declareName({f.name.name + "_t", f.name.where}, NameKind::FieldDerivative, index);
    for (const auto& axis : f.axes) {
        scope_.declareName(axis.variable, NameKind::FieldVariable, index);
        scope_.declareName({f.name.name + "_" + axis.variable.name, axis.variable.where}, NameKind::FieldDerivative,
                           index);
        scope_.declareName({f.name.name + "_" + axis.variable.name + axis.variable.name, axis.variable.where},
                           NameKind::FieldDerivative, index);
    }
    if (f.axes.size() > 2)
        fail(f.axes[2].variable.where,
             "a field has one or two spatial variables, not " + std::to_string(f.axes.size()));
}

void FieldBuilder::defineGrids(const ModelSyntax& syntax)
{
    for (FieldInfo& info : fields_) {
        const std::size_t before = errors_.size();
        guarded(errors_, [&] { defineGrid(info); });
        info.broken = errors_.size() > before;
    }
    for (const auto& st : syntax.statements) {
        const std::size_t before = errors_.size();
        guarded(errors_, [&] {
            if (auto* e = std::get_if<FieldEquationStatement>(&st))
                attachEquation(*e);
            else if (auto* c = std::get_if<FieldConditionStatement>(&st))
                attachCondition(*c);
        });
        // A condition with an error is not also reported as missing: no field is complete then.
        if (errors_.size() > before)
            for (FieldInfo& info : fields_)
                info.broken = true;
    }
    for (FieldInfo& info : fields_) {
        if (info.broken)
            continue;
        bool complete = true;
        const std::string& name = info.definition.name;
        if (!info.equation) {
            errors_.push_back(
                {info.statement->name.where, "field " + name + " has no equation; add " + name + "_t = ..."});
            complete = false;
        }
        for (std::size_t d = 0; d < info.sides.size(); ++d) {
            const FieldAxis& axis = info.definition.axes[d];
            for (int side = 0; side < 2; ++side) {
                if (info.sides[d][static_cast<std::size_t>(side)])
                    continue;
                const std::string end = exactText(side == 0 ? axis.lower : axis.upper);
                errors_.push_back({info.statement->axes[d].variable.where,
                                   "field " + name + " has no boundary condition at " + axis.variable + " = " + end +
                                       "; add " + conditionExample(info, d, end) + " = ... (value) or " + name + "_" +
                                       axis.variable + conditionExample(info, d, end).substr(name.size()) +
                                       " = ... (flux)"});
                complete = false;
            }
        }
        if (!complete)
            continue;
        info.definition.boundaries.assign(info.sides.size(), {});
        std::size_t total = 1;
        for (std::size_t d = 0; d < info.sides.size(); ++d) {
            for (int side = 0; side < 2; ++side)
                info.definition.boundaries[d][static_cast<std::size_t>(side)].kind =
                    isFlux(info, *info.sides[d][static_cast<std::size_t>(side)]) ? BoundaryKind::Flux
                                                                                 : BoundaryKind::Dirichlet;
            const auto range = stateNodeRange(info.definition.axes[d], info.definition.boundaries[d]);
            info.stateNodes.push_back(range);
            total *= static_cast<std::size_t>(range[1] - range[0] + 1);
        }
        if (total > maxFieldNodes) {
            errors_.push_back({info.statement->name.where,
                               "field " + name + " has " + std::to_string(total) + " nodes; at most " +
                                   std::to_string(maxFieldNodes) + " are supported"});
            continue;
        }
        FieldPlaceholders& ph = info.definition.symbols;
        ph.value = GiNaC::symbol(name);
        for (const FieldAxis& axis : info.definition.axes) {
            ph.coordinate.emplace_back(axis.variable);
            ph.first.emplace_back(name + "_" + axis.variable);
            ph.second.emplace_back(name + "_" + axis.variable + axis.variable);
        }
        info.ready = true;
    }
}

// A grid coordinate in a message: 0.8, not GiNaC's 4/5 or 0.80000000000000000004.
std::string FieldBuilder::exactText(const ex& e)
{
    const ex v = e.evalf();
    if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real())
        return "?";
    std::ostringstream s;
    s << std::setprecision(12) << GiNaC::ex_to<GiNaC::numeric>(v).to_double();
    return s.str();
}

std::string FieldBuilder::fieldVariables(const FieldInfo& info)
{
    std::string s;
    for (const auto& a : info.statement->axes)
        s += a.variable.name + ", ";
    return s;
}

std::string FieldBuilder::conditionExample(const FieldInfo& info, std::size_t axis, const std::string& end)
{
    std::string s = info.definition.name + "(";
    for (std::size_t d = 0; d < info.definition.axes.size(); ++d)
        s += (d == axis ? end : info.definition.axes[d].variable) + ", ";
    return s + "t)";
}

void FieldBuilder::defineGrid(FieldInfo& info)
{
    const FieldStatement& f = *info.statement;
    const std::string& name = f.name.name;
    FieldDefinition& def = info.definition;
    for (const auto& a : f.axes) {
        FieldAxis axis;
        axis.variable = a.variable.name;
        scope_.constantValue(a.lower, "the lower end of " + a.variable.name);
        scope_.constantValue(a.upper, "the upper end of " + a.variable.name);
        axis.lower = scope_.resolve(a.lower, Context::Constant);
        axis.upper = scope_.resolve(a.upper, Context::Constant);
        if (!((axis.upper - axis.lower).evalf() > 0))
            fail(a.lower->where,
                 "the interval of " + a.variable.name + " is empty: [" + exactText(axis.lower) + ", " +
                     exactText(axis.upper) + "] needs lower < upper");
        const double nodes = scope_.constantValue(a.nodes, "the number of nodes along " + a.variable.name);
        if (nodes != std::floor(nodes) || nodes < 1)
            fail(a.nodes->where,
                 "the number of interior nodes along " + a.variable.name + " must be a whole number >= 1, not " +
                     formatNumber(nodes));
        if (nodes > maxFieldNodes)
            fail(a.nodes->where, "at most " + std::to_string(maxFieldNodes) + " nodes along " + a.variable.name);
        axis.interiorNodes = static_cast<int>(nodes);
        def.axes.push_back(axis);
    }
    if (f.order) {
        const double order = scope_.constantValue(f.order, "the order of " + name);
        if (order != 2 && order != 4)
            fail(f.order->where,
                 "the order of the differences of " + name + " must be 2 or 4, not " + formatNumber(order));
        def.order = static_cast<int>(order);
    }
    info.sides.assign(def.axes.size(), {nullptr, nullptr});
}

// The field and axis a condition or equation names: s -> (s, none), s_x -> (s, x).
std::pair<std::size_t, std::optional<std::size_t>> FieldBuilder::fieldOf(const NamedPlace& written,
                                                                         const std::string& what)
{
    const Declaration* it = scope_.declaration(written.name);
    if (it && it->kind == NameKind::Field)
        return {it->index, std::nullopt};
    if (it && it->kind == NameKind::FieldDerivative) {
        const FieldInfo& info = fields_[it->index];
        const std::string suffix = written.name.substr(info.definition.name.size() + 1);
        for (std::size_t d = 0; d < info.statement->axes.size(); ++d)
            if (info.statement->axes[d].variable.name == suffix)
                return {it->index, d};
        fail(written.where,
             "a boundary condition gives the field (" + info.definition.name +
                 "(...) = ...) or its "
                 "first derivative across the side (" +
                 info.definition.name + "_" + info.statement->axes[0].variable.name + "(...) = ...), not " +
                 written.name);
    }
    if (it)
        fail(written.where, written.name + " is " + kindWord(it->kind) + ", not a field; " + what);
    fail(written.where, "unknown field '" + written.name + "'" + scope_.suggestion(written.name) + "; " + what);
}

void FieldBuilder::attachEquation(const FieldEquationStatement& e)
{
    const std::size_t f =
        fieldOf(e.field, "declare it with 'field " + e.field.name + " on x in [0, 1] nodes 10'").first;
    FieldInfo& info = fields_[f];
    if (info.equation)
        fail(e.field.where,
             "a second equation for " + e.field.name + "_t (the first is on " + at(info.equation->field.where) + ")");
    info.equation = &e;
}

bool FieldBuilder::isName(const ExpressionPtr& e, const std::string& name)
{
    return e->kind == ExpressionSyntax::Kind::Name && e->primes == 0 && e->name == name;
}

bool FieldBuilder::isFlux(const FieldInfo& info, const FieldConditionStatement& c)
{
    return c.name.name != info.definition.name;
}

void FieldBuilder::attachCondition(const FieldConditionStatement& c)
{
    const auto [f, fluxAxis] = fieldOf(c.name, "a condition like s(0, t) = ... needs a field");
    FieldInfo& info = fields_[f];
    const std::size_t dims = info.statement->axes.size();
    const std::string& name = info.definition.name;
    if (info.definition.axes.size() != dims)
        return;  // its grid has errors, already reported
    const std::string variables = fieldVariables(info);
    if (c.arguments.size() != dims + 1)
        fail(c.name.where,
             name + " depends on (" + variables + "t): write " + name + "(" + variables +
                 "0) = ... for the initial values and a boundary like " +
                 conditionExample(info, 0, exactText(info.definition.axes[0].lower)) + " = ...");
    const ExpressionPtr& time = c.arguments.back();
    if (isName(time, "t") || (time->kind == ExpressionSyntax::Kind::Number && time->number == 0 && fluxAxis)) {
        attachBoundary(info, c, fluxAxis);
        return;
    }
    if (time->kind != ExpressionSyntax::Kind::Number || time->number != 0)
        fail(time->where,
             "the last argument of " + c.name.name +
                 "(...) is the time: t for a boundary condition, "
                 "0 for the initial values");
    if (fluxAxis)
        fail(c.name.where, "initial values are given for the field itself: " + name + "(" + variables + "0) = ...");
    for (std::size_t d = 0; d < dims; ++d)
        if (!isName(c.arguments[d], info.statement->axes[d].variable.name))
            fail(c.arguments[d]->where,
                 "the initial values " + name + "(" + variables + "0) = ... are a function of " +
                     info.statement->axes[d].variable.name + "; write the variable itself here");
    if (info.initial)
        fail(c.name.where, "the initial values of " + name + " are already given on " + at(info.initial->name.where));
    info.initial = &c;
}

void FieldBuilder::attachBoundary(FieldInfo& info, const FieldConditionStatement& c,
                                  std::optional<std::size_t> fluxAxis)
{
    const std::string& name = info.definition.name;
    std::optional<std::size_t> fixedAxis;
    for (std::size_t d = 0; d + 1 < c.arguments.size(); ++d) {
        if (isName(c.arguments[d], info.statement->axes[d].variable.name))
            continue;
        if (fixedAxis)
            fail(c.arguments[d]->where,
                 "a boundary condition fixes one coordinate; " + info.statement->axes[*fixedAxis].variable.name +
                     " is already fixed");
        fixedAxis = d;
    }
    if (!fixedAxis)
        fail(c.name.where,
             "a boundary condition of " + name +
                 " names the side: write the end of the interval, "
                 "e.g. " +
                 conditionExample(info, 0, exactText(info.definition.axes[0].lower)));
    const std::size_t d = *fixedAxis;
    const FieldAxis& axis = info.definition.axes[d];
    const ExpressionPtr& point = c.arguments[d];
    scope_.constantValue(point, "the side of the boundary condition");
    const ex value = scope_.resolve(point, Context::Constant);
    const double scale = std::abs(GiNaC::ex_to<GiNaC::numeric>((axis.upper - axis.lower).evalf()).to_double());
    auto near = [&](const ex& end) {
        return std::abs(GiNaC::ex_to<GiNaC::numeric>((value - end).evalf()).to_double()) <= 1e-12 * scale;
    };
    const int side = near(axis.lower) ? 0 : near(axis.upper) ? 1 : -1;
    if (side < 0)
        fail(point->where,
             axis.variable + " = " + exactText(value) + " is not an end of the interval [" + exactText(axis.lower) +
                 ", " + exactText(axis.upper) + "] of " + name);
    if (fluxAxis && *fluxAxis != d)
        fail(c.name.where,
             "on the side " + axis.variable + " = " + exactText(value) + " the flux is " + name + "_" + axis.variable +
                 ", not " + c.name.name);
    auto& slot = info.sides[d][static_cast<std::size_t>(side)];
    if (slot)
        fail(c.name.where,
             "a second boundary condition for " + name + " at " + axis.variable + " = " + exactText(value) +
                 " (the first is on " + at(slot->name.where) + ")");
    slot = &c;
}

void FieldBuilder::expandNodeParameter(const ParamStatement& p, const Parameter& prototype)
{
    NodeParameter& np = nodeParameters_[scope_.declaration(p.name.name)->index];
    if (p.over.size() != 1)
        fail(p.over[1].where,
             "a per-node parameter follows one field variable: param " + p.name.name + "(" + p.over[0].name +
                 ") = ...");
    const Declaration* it = scope_.declaration(p.over[0].name);
    if (!it || it->kind != NameKind::FieldVariable)
        fail(p.over[0].where,
             "'" + p.over[0].name + "' in " + p.name.name + "(" + p.over[0].name +
                 ") is not a field variable; declare it with 'field s on " + p.over[0].name + " in [0, 1] nodes 10'");
    np.field = it->index;
    const FieldInfo& info = fields_[np.field];
    if (!info.ready)
        return;  // the field has errors, already reported
    for (std::size_t d = 0; d < info.statement->axes.size(); ++d)
        if (info.statement->axes[d].variable.name == p.over[0].name)
            np.axis = d;
    const auto range = info.stateNodes[np.axis];
    np.firstNode = range[0];
    for (int node = range[0]; node <= range[1]; ++node) {
        Parameter param = prototype;
        param.name = p.name.name + "[" + std::to_string(node) + "]";
        model_.parameters.push_back(param);
        model_.parameterSymbols.emplace_back(param.name);
        np.values.push_back(model_.parameterSymbols.back());
    }
}

void FieldBuilder::defineFields()
{
    for (std::size_t f = 0; f < fields_.size(); ++f) {
        FieldInfo& info = fields_[f];
        if (!info.ready)
            continue;
        currentField_ = f;
        FieldDefinition& def = info.definition;
        guarded(errors_, [&] { def.rhs = scope_.resolve(info.equation->value, Context::FieldEquation); });
        for (std::size_t d = 0; d < info.sides.size(); ++d)
            for (std::size_t side = 0; side < 2; ++side) {
                currentFlux_ = def.boundaries[d][side].kind == BoundaryKind::Flux;
                guarded(errors_, [&] {
                    def.boundaries[d][side].value = scope_.resolve(info.sides[d][side]->value, Context::FieldBoundary);
                });
            }
        def.initial = 0;
        if (info.initial)
            guarded(errors_, [&] { def.initial = scope_.resolve(info.initial->value, Context::FieldInitial); });
        for (const NodeParameter& np : nodeParameters_)
            if (np.field == f && !np.values.empty())
                def.coefficients.push_back({np.placeholder, np.axis, np.firstNode, np.values});
    }
    currentField_ = std::string::npos;
}

void FieldBuilder::assemble()
{
    for (FieldInfo& info : fields_) {
        guarded(errors_, [&] {
            try {
                info.grid = discretiseField(info.definition);
            } catch (const FieldDiscretisationError& e) {
                fail(info.statement->name.where, e.what());
            }
            FieldLayout layout;
            layout.name = info.definition.name;
            layout.where = info.statement->name.where;
            for (std::size_t d = 0; d < info.definition.axes.size(); ++d) {
                layout.variables.push_back(info.definition.axes[d].variable);
                std::vector<double> coordinates;
                for (int node = info.grid.firstNode[d]; node <= info.grid.lastNode[d]; ++node)
                    coordinates.push_back(
                        GiNaC::ex_to<GiNaC::numeric>(info.definition.axes[d].coordinate(node).evalf()).to_double());
                layout.coordinates.push_back(std::move(coordinates));
            }
            for (const FieldNode& node : info.grid.nodes) {
                layout.states.push_back(model_.states.size());
                model_.states.push_back(
                    {node.name, node.symbol, node.rhs, node.initial, info.statement->name.where, {}});
            }
            model_.fields.push_back(std::move(layout));
        });
    }
}

bool FieldBuilder::isFieldContext(Context ctx)
{
    return ctx == Context::FieldEquation || ctx == Context::FieldBoundary || ctx == Context::FieldInitial;
}

ex FieldBuilder::resolveName(const ExpressionSyntax& e, const Declaration& d, Context ctx)
{
    const std::string written = e.name + std::string(static_cast<std::size_t>(e.primes), '\'');
    if (d.kind == NameKind::NodeParameter)
        fail(e.where, e.name + " is one parameter per node; write " + e.name + "(" + nodeVariable(e.name) + ")");
    const FieldInfo& info = fields_[d.index];
    const std::string& field = info.definition.name;
    if (!info.ready)
        fail(e.where, "field " + field + " cannot be used until the errors in its declaration are fixed");
    if (resolvingLet_) {
        noteLetField(d.index, e.where);
        ctx = Context::FieldEquation;
    }
    const bool own = isFieldContext(ctx) && (resolvingLet_ || currentField_ == d.index);
    if (e.primes)
        fail(e.where, written + ": fields have no primes; the time derivative is " + field + "_t");
    if (d.kind == NameKind::FieldVariable) {
        if (!own)
            fail(e.where,
                 e.name + " is the spatial variable of field " + field + "; it can appear only in " + field +
                     "_t = ... and the boundary and initial conditions of " + field);
        for (std::size_t a = 0; a < info.definition.axes.size(); ++a)
            if (info.definition.axes[a].variable == e.name)
                return info.definition.symbols.coordinate[a];
    }
    if (d.kind == NameKind::Field) {
        if (own && (ctx == Context::FieldEquation || (ctx == Context::FieldBoundary && currentFlux_)))
            return info.definition.symbols.value;
        if (own && ctx == Context::FieldBoundary)
            fail(e.where,
                 "a boundary value " + field + "(...) = ... cannot depend on " + field +
                     " itself; for a "
                     "Robin condition give the flux " +
                     field + "_" + info.definition.axes[0].variable + "(...) = ... in terms of " + field);
        if (own)
            fail(e.where, "the initial values of " + field + " cannot depend on " + field + " itself");
        fail(e.where,
             "field " + field + " has one value per node; use it in " + field +
                 "_t = ..., or as an output "
                 "(output " +
                 field + " for every node, output " + field + "(X) at one point)");
    }
    if (d.kind == NameKind::FieldDerivative && own && ctx == Context::FieldEquation) {
        const std::string suffix = e.name.substr(field.size() + 1);
        for (std::size_t a = 0; a < info.definition.axes.size(); ++a) {
            const std::string& v = info.definition.axes[a].variable;
            if (suffix == v)
                return info.definition.symbols.first[a];
            if (suffix == v + v)
                return info.definition.symbols.second[a];
        }
        fail(e.where,
             e.name + " is the time derivative of " + field + "; it stands on the left of " + field + "_t = ...");
    }
    fail(e.where, e.name + " is a derivative of field " + field + "; it can appear only in " + field + "_t = ...");
}

// The field a let being resolved draws on; a let may draw on one field only.
void FieldBuilder::noteLetField(std::size_t field, SourceLocation where)
{
    if (letField_ && *letField_ != field)
        fail(where,
             "a let may use one field only; this one uses " + fields_[*letField_].definition.name + " and " +
                 fields_[field].definition.name);
    letField_ = field;
}

std::string FieldBuilder::nodeVariable(const std::string& parameter) const
{
    for (const NodeParameter& np : nodeParameters_)
        if (np.statement->name.name == parameter)
            return np.statement->over[0].name;
    return "x";
}

ex FieldBuilder::resolveNodeParameter(const ExpressionSyntax& e, Context ctx)
{
    const NodeParameter& np = nodeParameters_[scope_.declaration(e.name)->index];
    const std::string variable = nodeVariable(e.name);
    if (resolvingLet_) {
        noteLetField(np.field, e.where);
        ctx = Context::FieldEquation;
    }
    if (ctx != Context::FieldEquation)
        fail(e.where,
             e.name + "(" + variable + ") has one value per node; it can appear only in a field equation s_t = ...");
    if (!resolvingLet_ && np.field != currentField_)
        fail(e.where,
             e.name + "(" + variable + ") belongs to the nodes of field " + fields_[np.field].definition.name +
                 ", not of " + fields_[currentField_].definition.name);
    if (e.operands.size() != 1 || !isName(e.operands[0], variable))
        fail(e.where, "write " + e.name + "(" + variable + "): a per-node parameter takes the node's own " + variable);
    if (np.values.empty())
        fail(e.where,
             "field " + fields_[np.field].definition.name +
                 " cannot be used until the errors in its declaration are fixed");
    return np.placeholder;
}

void FieldBuilder::output(const OutputStatement& o, std::size_t fieldIndex, std::map<std::string, SourceLocation>& seen)
{
    const FieldInfo& info = fields_[fieldIndex];
    const std::string& field = info.definition.name;
    if (o.primes)
        fail(o.name.where, "fields have no primes; output " + field + " or " + field + "(X)");
    auto add = [&](const std::string& name, const ex& value) {
        if (auto it = seen.find(name); it != seen.end())
            fail(o.name.where, "output " + name + " is already declared on " + at(it->second));
        seen[name] = o.name.where;
        model_.outputs.push_back({name, value, o.name.where, o.unit, false});
    };
    if (o.at.empty()) {
        for (const FieldNode& node : info.grid.nodes)
            add(node.name, node.symbol);
        return;
    }
    if (o.at.size() != info.definition.axes.size())
        fail(o.name.where,
             "field " + field + " has " + std::to_string(info.definition.axes.size()) +
                 " spatial variable(s); give that many coordinates in output " + field + "(...)");
    std::vector<ex> point;
    std::string name = field + "(";
    for (std::size_t d = 0; d < o.at.size(); ++d) {
        const double v = scope_.constantValue(o.at[d], "the point of output " + field);
        point.push_back(scope_.resolve(o.at[d], Context::Constant));
        name += (d ? "," : "") + formatNumber(v);
    }
    try {
        add(name + ")", fieldValueAt(info.definition, info.grid, point));
    } catch (const FieldDiscretisationError& e) {
        fail(o.at.front()->where, std::string(e.what()) + " (output " + name + "))");
    }
}

void FieldBuilder::addNodeParameter(const ParamStatement& p)
{
    nodeParameters_.push_back({&p, 0, 0, GiNaC::symbol(p.name.name + "(node)"), 1, {}});
}

void FieldBuilder::beginLet(bool isLet)
{
    resolvingLet_ = isLet;
    letField_.reset();
}

void FieldBuilder::endLet(const std::string& name)
{
    if (letField_)
        letFields_[name] = *letField_;
    resolvingLet_ = false;
}

void FieldBuilder::checkLetUse(const ExpressionSyntax& e, Context ctx)
{
    if (auto f = letFields_.find(e.name); f != letFields_.end()) {
        if (resolvingLet_)
            noteLetField(f->second, e.where);
        else if (ctx != Context::FieldEquation || currentField_ != f->second)
            fail(e.where,
                 e.name + " depends on field " + fields_[f->second].definition.name +
                     " (its variables, values or per-node parameters); it can appear only in " +
                     fields_[f->second].definition.name + "_t = ...");
    }
}

std::string FieldBuilder::variablesOf(std::size_t field) const
{
    return fieldVariables(fields_[field]);
}

}  // namespace sysid::model
