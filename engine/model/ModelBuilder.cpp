#include "engine/model/ModelBuilder.h"

#include "engine/model/BondGraphBuilder.h"
#include "engine/model/BuildScope.h"
#include "engine/model/ConstraintReduction.h"
#include "engine/model/ExpressionLimits.h"
#include "engine/model/FieldBuilder.h"
#include "engine/model/LagrangeDerivation.h"
#include "engine/model/ModelFile.h"
#include "engine/model/ModelParser.h"
#include "engine/model/SubModels.h"
#include "engine/model/SymbolicFunctions.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <set>

namespace sysid::model {

namespace {

using GiNaC::ex;

// A decimal literal as the exact rational it denotes (0.1 -> 1/10), so symbolic work stays exact.
GiNaC::ex exactNumber(const std::string& spelling)
{
    std::string digits;
    long exponent = 0;
    bool afterPoint = false;
    std::size_t i = 0;
    for (; i < spelling.size() && spelling[i] != 'e' && spelling[i] != 'E'; ++i) {
        if (spelling[i] == '.')
            afterPoint = true;
        else {
            digits += spelling[i];
            if (afterPoint)
                --exponent;
        }
    }
    if (i < spelling.size())
        exponent += std::stol(spelling.substr(i + 1));
    const std::size_t firstNonZero = digits.find_first_not_of('0');
    if (firstNonZero == std::string::npos)
        return 0;
    const GiNaC::numeric mantissa(digits.substr(firstNonZero).c_str());
    return mantissa * GiNaC::numeric(10).power(GiNaC::numeric(exponent));
}

// Time and pi are names every expression already has; a declaration would silently shadow them
// (time most dangerously), so it is refused. Keywords are not names: the parser reads them as
// keywords only where a declaration needs one, so `input force` or `param order` are fine.
std::string predefinedName(const std::string& name)
{
    if (name == "t")
        return "'t' is time and cannot be redeclared";
    if (name == "pi")
        return "'pi' is the number pi (3.14159...) and cannot be redeclared";
    return {};
}

struct FunctionInfo {
    int arity;  // -1: two or more (min, max)
    ex (*make)(const std::vector<ex>&);
};

const std::map<std::string, FunctionInfo>& functions()
{
    static const std::map<std::string, FunctionInfo> table{
        {"sin", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::sin(a[0]); }}},
        {"cos", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::cos(a[0]); }}},
        {"tan", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::tan(a[0]); }}},
        {"asin", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::asin(a[0]); }}},
        {"acos", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::acos(a[0]); }}},
        {"atan", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::atan(a[0]); }}},
        {"atan2", {2, [](const std::vector<ex>& a) -> ex { return GiNaC::atan2(a[0], a[1]); }}},
        {"sinh", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::sinh(a[0]); }}},
        {"cosh", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::cosh(a[0]); }}},
        {"tanh", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::tanh(a[0]); }}},
        {"exp", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::exp(a[0]); }}},
        {"log", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::log(a[0]); }}},
        {"sqrt", {1, [](const std::vector<ex>& a) -> ex { return GiNaC::sqrt(a[0]); }}},
        {"abs", {1, [](const std::vector<ex>& a) -> ex { return ex(sysid_abs(a[0])); }}},
        {"sign", {1, [](const std::vector<ex>& a) -> ex { return ex(sysid_sign(a[0])); }}},
        {"min",
         {-1,
          [](const std::vector<ex>& a) -> ex {
              ex r = a[0];
              for (std::size_t i = 1; i < a.size(); ++i)
                  r = sysid_min(r, a[i]);
              return r;
          }}},
        {"max",
         {-1,
          [](const std::vector<ex>& a) -> ex {
              ex r = a[0];
              for (std::size_t i = 1; i < a.size(); ++i)
                  r = sysid_max(r, a[i]);
              return r;
          }}},
    };
    return table;
}

std::string functionList()
{
    std::string s;
    for (const auto& [name, info] : functions())
        s += (s.empty() ? "" : " ") + name;
    return s;
}

struct Coordinate {
    std::string name;
    SourceLocation where;
    bool lagrangian = false;
    GiNaC::symbol position, velocity, acceleration;
    std::optional<ex> acceleration_rhs;  // x'' = ..., or solved from Lagrange
    SourceLocation equationWhere;
    std::vector<InitialValue> initial;
    SourceLocation initialWhere;
    std::string unit;  // of the position
};

struct FirstOrder {
    std::string name;
    SourceLocation where;
    GiNaC::symbol symbol;
    std::optional<ex> rhs;
    SourceLocation equationWhere;
    std::optional<InitialValue> initial;
    SourceLocation initialWhere;
    std::string unit;
};

// algebraic z, or the multiplier of a constraint on Lagrangian coordinates.
struct AlgebraicVariable {
    std::string name;
    SourceLocation where;
    GiNaC::symbol symbol;
    ExpressionPtr guess;  // null: 0
    std::string unit;
    std::size_t constraint = 0;  // a multiplier: its constraint (index into the constraint statements)
};

class Builder : public NameScope {
public:
    Builder(std::string source, std::vector<ModelDiagnostic>& errors) : errors_(errors), fields_(*this, errors_, model_)
    {
        model_.source = std::move(source);
    }

    Model build(const ModelSyntax& syntax)
    {
        origins_ = syntax.origins;
        for (const auto& o : syntax.origins)
            model_.subModelFiles.push_back(o.file);
        declare(syntax);
        if (!errors_.empty())
            return {};
        fields_.defineGrids(syntax);
        defineParameters(syntax);
        defineLets(syntax);
        deriveBondGraph();
        defineConstraints();
        defineEquations(syntax);
        defineInitialValues(syntax);
        defineEvents(syntax);
        fields_.defineFields();
        if (!errors_.empty())
            return {};
        assembleStates();
        fields_.assemble();
        if (!errors_.empty())
            return {};
        reduceConstraints();
        if (!errors_.empty())
            return {};
        defineOutputs(syntax);
        return std::move(model_);
    }

private:
    // A failure other than a BuildFailure (a symbolic computation after the expressions are
    // resolved) is placed at the first expression the statement resolved.
    template <class F>
    void guarded(F&& f)
    {
        place_ = {};
        try {
            f();
        } catch (const BuildFailure& e) {
            errors_.push_back(e.diagnostic);
        } catch (const std::exception& e) {
            errors_.push_back({place_, describeSymbolicFailure(e)});
        }
    }

    void declareName(const NamedPlace& n, NameKind kind, std::size_t index) override
    {
        if (const std::string predefined = predefinedName(n.name); !predefined.empty())
            fail(n.where, predefined);
        if (functions().count(n.name))
            fail(n.where, "'" + n.name + "' is the name of a function and cannot be used as a name");
        // Dotted names come from the bond graph (spring.e) and from included sub-models (crank.x),
        // whose places are in the sub-model's file.
        if (n.name.find('.') != std::string::npos && n.where.origin == 0 && kind != NameKind::BondVariable &&
            !declaringStorage_)
            fail(n.where,
                 "'" + n.name +
                     "': a dot names a part of an included sub-model (crank.x) or a variable of a "
                     "bond-graph element (spring.e); declare names without '.'");
        if (auto it = names_.find(n.name); it != names_.end())
            fail(n.where,
                 "'" + n.name + "' is already declared as " + kindWord(it->second.kind) + " on " +
                     at(it->second.where));
        names_[n.name] = {kind, n.where, index};
    }

    Coordinate& addCoordinate(const NamedPlace& n, bool lagrangian)
    {
        declareName(n, lagrangian ? NameKind::LagrangeCoordinate : NameKind::SecondOrderCoordinate,
                    coordinates_.size());
        Coordinate c{n.name,
                     n.where,
                     lagrangian,
                     GiNaC::symbol(n.name),
                     GiNaC::symbol(n.name + "'"),
                     GiNaC::symbol(n.name + "''"),
                     std::nullopt,
                     {},
                     {},
                     {},
                     {}};
        coordinates_.push_back(std::move(c));
        order_.push_back({true, coordinates_.size() - 1});
        return coordinates_.back();
    }

    void declare(const ModelSyntax& syntax)
    {
        for (const auto& st : syntax.statements) {
            guarded([&] {
                if (auto* p = std::get_if<ParamStatement>(&st)) {
                    if (p->over.empty()) {
                        declareName(p->name, NameKind::Parameter, paramStatements_.size());
                    } else {
                        declareName(p->name, NameKind::NodeParameter, fields_.nodeParameterCount());
                        fields_.addNodeParameter(*p);
                    }
                    paramStatements_.push_back(p);
                } else if (auto* f = std::get_if<FieldStatement>(&st)) {
                    fields_.declareField(*f);
                } else if (auto* s = std::get_if<StateStatement>(&st)) {
                    declareName(s->name, NameKind::FirstOrderState, firstOrder_.size());
                    FirstOrder f{s->name.name,
                                 s->name.where,
                                 GiNaC::symbol(s->name.name),
                                 std::nullopt,
                                 {},
                                 std::nullopt,
                                 {},
                                 {}};
                    f.unit = s->unit;
                    if (s->initial)
                        f.initial =
                            InitialValue{s->initial, s->estimate, s->guess, s->initial->where, s->lower, s->upper};
                    f.initialWhere = s->name.where;
                    firstOrder_.push_back(std::move(f));
                    order_.push_back({false, firstOrder_.size() - 1});
                } else if (auto* in = std::get_if<InputStatement>(&st)) {
                    for (const auto& n : in->names) {
                        declareName(n, NameKind::Input, model_.inputs.size());
                        model_.inputs.push_back({n.name, GiNaC::symbol(n.name), n.where, in->unit, in->intersample});
                    }
                } else if (auto* c = std::get_if<CoordStatement>(&st)) {
                    for (const auto& n : c->names)
                        addCoordinate(n, true).unit = c->unit;
                } else if (auto* l = std::get_if<LetStatement>(&st)) {
                    declareName(l->name, NameKind::Let, 0);
                    letSyntax_[l->name.name] = l->value;
                } else if (auto* e = std::get_if<EnergyStatement>(&st)) {
                    declareName(e->name, NameKind::Let, 0);
                    // One of each per model file: the energies of included sub-models add up.
                    for (const EnergyStatement* other : energies_)
                        if (other->kind == e->kind && other->keyword.origin == e->keyword.origin)
                            fail(e->keyword,
                                 "a second " + energyWord(e->kind) + " (the first is on " + at(other->keyword) +
                                     "); combine them into one expression");
                    energies_.push_back(e);
                    letSyntax_[e->name.name] = e->value;
                } else if (auto* a = std::get_if<AlgebraicStatement>(&st)) {
                    declareName(a->name, NameKind::Algebraic, algebraic_.size());
                    algebraic_.push_back(
                        {a->name.name, a->name.where, GiNaC::symbol(a->name.name), a->guess, a->unit, 0});
                } else if (auto* d = std::get_if<DerivativeStatement>(&st)) {
                    if (d->order == 2 && !names_.count(d->name.name))
                        addCoordinate(d->name, false);
                } else if (auto* b = std::get_if<BondGraphStatement>(&st)) {
                    bondGraph_.declare(*b);
                    if (const auto state = BondGraphBuilder::storageState(*b))
                        declareStorageState(*state);
                } else if (auto* c = std::get_if<ConstraintStatement>(&st)) {
                    constraintStatements_.push_back(c);
                }
            });
        }
        declareMultipliers();
    }

    // The names an expression uses, through the intermediates it uses.
    void namesIn(const ExpressionPtr& e, std::set<std::string>& out) const
    {
        if (!e)
            return;
        if (e->kind == ExpressionSyntax::Kind::Name && out.insert(e->name).second)
            if (auto it = letSyntax_.find(e->name); it != letSyntax_.end())
                namesIn(it->second, out);
        for (const auto& operand : e->operands)
            namesIn(operand, out);
    }

    // A constraint without algebraic variables in a model with Lagrangian coordinates gets a
    // multiplier (its constraint force); the others are algebraic equations for the algebraic variables.
    void declareMultipliers()
    {
        bool lagrangian = false;
        for (const auto& c : coordinates_)
            lagrangian = lagrangian || c.lagrangian;
        int unnamed = 0;
        for (std::size_t k = 0; k < constraintStatements_.size(); ++k) {
            const ConstraintStatement& c = *constraintStatements_[k];
            guarded([&] {
                std::set<std::string> used;
                namesIn(c.lhs, used);
                namesIn(c.rhs, used);
                bool algebraic = false;
                for (const auto& n : used)
                    if (auto it = names_.find(n); it != names_.end() && it->second.kind == NameKind::Algebraic)
                        algebraic = true;
                if (algebraic || !lagrangian) {
                    if (!c.multiplier.name.empty())
                        fail(c.multiplier.where,
                             "only a constraint on Lagrangian coordinates has a multiplier to name; this one is an "
                             "algebraic equation for the algebraic variables");
                    return;
                }
                NamedPlace name = c.multiplier;
                if (name.name.empty()) {
                    name = {"lambda" + std::to_string(++unnamed), c.keyword};
                    if (auto it = names_.find(name.name); it != names_.end())
                        fail(c.keyword,
                             "this constraint's multiplier would be named " + name.name + ", which is already " +
                                 kindWord(it->second.kind) + " on " + at(it->second.where) +
                                 "; name it: constraint NAME: ...");
                }
                declareName(name, NameKind::Multiplier, algebraic_.size());
                algebraic_.push_back({name.name, name.where, GiNaC::symbol(name.name), nullptr, {}, k});
                multiplierOf_[k] = algebraic_.size() - 1;
            });
        }
    }

    // A C's displacement or an I's momentum: a first-order state whose equation the bond graph gives.
    void declareStorageState(const NamedPlace& n)
    {
        declaringStorage_ = true;
        try {
            declareName(n, NameKind::FirstOrderState, firstOrder_.size());
        } catch (...) {
            declaringStorage_ = false;
            throw;
        }
        declaringStorage_ = false;
        FirstOrder f{n.name, n.where, GiNaC::symbol(n.name), std::nullopt, n.where, std::nullopt, n.where, {}};
        firstOrder_.push_back(std::move(f));
        order_.push_back({false, firstOrder_.size() - 1});
    }

    void deriveBondGraph()
    {
        if (bondGraph_.empty())
            return;
        bondGraph_.derive();
        for (const auto& [name, rhs] : bondGraph_.stateEquations())
            firstOrder_[names_.at(name).index].rhs = rhs;
        model_.bondGraph = bondGraph_.info();
    }

    static std::string energyWord(EnergyKind k)
    {
        return k == EnergyKind::Kinetic  ? "kinetic energy"
            : k == EnergyKind::Potential ? "potential energy"
                                         : "dissipation function";
    }

    const Declaration* declaration(const std::string& name) const override
    {
        const auto it = names_.find(name);
        return it == names_.end() ? nullptr : &it->second;
    }

    // Evaluated in double arithmetic as the compiled model would, not by GiNaC's evalf, which
    // gives exp(exp(exp(10))) as 1.
    double constantValue(const ExpressionPtr& e, const std::string& what) override
    {
        const ex v = resolve(e, Context::Constant);
        const std::optional<double> d = meter_.measure(v).value;
        if (!d)
            fail(e->where, what + " must be a real number");
        if (!std::isfinite(*d))
            fail(e->where, what + " is not finite");
        return *d;
    }

    void defineParameters(const ModelSyntax&)
    {
        for (const ParamStatement* p : paramStatements_) {
            Parameter param;
            param.name = p->name.name;
            param.where = p->name.where;
            param.fixed = p->fixed;
            param.unit = p->unit;
            guarded([&] {
                param.value = constantValue(p->value, "the value of parameter " + param.name);
                if (p->lower) {
                    param.lower = constantValue(p->lower, "the lower bound of " + param.name);
                    param.upper = constantValue(p->upper, "the upper bound of " + param.name);
                    if (!(param.lower < param.upper))
                        fail(p->lower->where, "the bounds of " + param.name + " must satisfy lower < upper");
                    if (param.value < param.lower || param.value > param.upper)
                        fail(p->value->where,
                             "the initial value of " + param.name + " lies outside its bounds [" +
                                 formatNumber(param.lower) + ", " + formatNumber(param.upper) + "]");
                }
                if (p->priorMean) {
                    const double mean = constantValue(p->priorMean, "the prior mean of " + param.name);
                    const double sd = constantValue(p->priorSd, "the prior standard deviation of " + param.name);
                    if (!(sd > 0))
                        fail(p->priorSd->where, "the prior standard deviation of " + param.name + " must be > 0");
                    param.prior = Prior{mean, sd};
                }
            });
            if (!p->over.empty()) {
                guarded([&] { fields_.expandNodeParameter(*p, param); });
                continue;
            }
            names_[param.name].index = model_.parameters.size();
            model_.parameters.push_back(param);
            model_.parameterSymbols.emplace_back(param.name);
        }
    }

    void defineLets(const ModelSyntax& syntax)
    {
        for (const auto& st : syntax.statements) {
            const NamedPlace* name = nullptr;
            ExpressionPtr value;
            if (auto* l = std::get_if<LetStatement>(&st)) {
                name = &l->name;
                value = l->value;
            } else if (auto* e = std::get_if<EnergyStatement>(&st)) {
                name = &e->name;
                value = e->value;
            } else {
                continue;
            }
            // A let may describe a coefficient over a field (let alpha = a*x + b): it then
            // keeps the field's placeholders and belongs to that field's equation.
            fields_.beginLet(std::holds_alternative<LetStatement>(st));
            guarded([&] { lets_[name->name] = resolve(value, Context::Dynamics); });
            fields_.endLet(name->name);
            if (!lets_.count(name->name))
                lets_[name->name] = 0;  // already reported; keep later uses from piling up errors
        }
    }

    // Each constraint as the expression lhs - rhs; a Lagrangian one (with a multiplier) must hold
    // Lagrangian coordinates, and velocities only linearly (Psi(q, t) q' + psi(q, t) = 0).
    void defineConstraints()
    {
        for (std::size_t k = 0; k < constraintStatements_.size(); ++k) {
            const ConstraintStatement& c = *constraintStatements_[k];
            Constraint constraint;
            constraint.text = c.text.empty() ? "on " + at(c.keyword) : c.text;
            constraint.where = c.keyword;
            guarded([&] {
                constraint.expression =
                    (resolve(c.lhs, Context::Dynamics) - resolve(c.rhs, Context::Dynamics)).expand();
                const auto it = multiplierOf_.find(k);
                if (it == multiplierOf_.end())
                    return;
                constraint.multiplier = algebraic_[it->second].name;
                bool onCoordinates = false;
                std::vector<GiNaC::symbol> velocities;
                for (const auto& co : coordinates_) {
                    if (!co.lagrangian)
                        continue;
                    onCoordinates = onCoordinates || constraint.expression.has(co.position);
                    if (constraint.expression.has(co.velocity))
                        velocities.push_back(co.velocity);
                }
                if (!onCoordinates && velocities.empty())
                    fail(c.keyword,
                         "the constraint '" + constraint.text +
                             "' holds no Lagrangian coordinate, so its multiplier would act on nothing; "
                             "declare an algebraic variable for it (algebraic z) or constrain coordinates");
                constraint.onVelocities = !velocities.empty();
                for (const auto& v : velocities)
                    for (const auto& w : velocities)
                        if (!constraint.expression.diff(v).diff(w).expand().is_zero())
                            fail(c.keyword,
                                 "the constraint '" + constraint.text + "' is not linear in the velocity " +
                                     v.get_name() + "; a constraint on velocities is A(q, t) q' + b(q, t) = 0");
            });
            model_.constraints.push_back(std::move(constraint));
        }
    }

    // The algebraic variables after the differential states, each with one constraint's index-1
    // equation, and the constraints' hidden levels (ConstraintReduction).
    void reduceConstraints()
    {
        if (algebraic_.empty() && model_.constraints.empty())
            return;
        const std::size_t variables = algebraic_.size() - multiplierOf_.size();
        const std::size_t equations = model_.constraints.size() - multiplierOf_.size();
        if (variables != equations) {
            const std::string counts = "the model has " + std::to_string(variables) + " algebraic variable(s) and " +
                std::to_string(equations) + " constraint(s) that are equations for them; ";
            if (equations < variables) {
                errors_.push_back(
                    {algebraic_.front().where, counts + "add a constraint that determines " + algebraic_.front().name});
            } else {
                for (std::size_t k = 0; k < model_.constraints.size(); ++k)
                    if (!multiplierOf_.count(k)) {
                        errors_.push_back({model_.constraints[k].where,
                                           counts + "declare an algebraic variable (algebraic z) that acts on '" +
                                               model_.constraints[k].text + "'"});
                        break;
                    }
            }
            return;
        }
        DaeSystem system;
        system.time = model_.time;
        for (const auto& st : model_.states) {
            system.states.push_back(GiNaC::ex_to<GiNaC::symbol>(st.symbol));
            system.rhs.push_back(st.rhs);
        }
        for (const auto& a : algebraic_) {
            system.algebraic.push_back(a.symbol);
            system.algebraicNames.push_back(a.name);
        }
        for (const auto& u : model_.inputs) {
            system.inputs.push_back(u.symbol);
            system.inputNames.push_back(u.name);
        }
        for (std::size_t i = 0; i < model_.parameters.size(); ++i)
            system.parameters.emplace_back(model_.parameterSymbols[i], model_.parameters[i].value);
        guarded([&] { model_.differentiationIndex = reduceIndex(system, model_.constraints); });
        if (!errors_.empty())
            return;
        for (std::size_t k = 0; k < algebraic_.size(); ++k) {
            const AlgebraicVariable& a = algebraic_[k];
            ex guess = 0;
            if (a.guess)
                guarded([&] { guess = resolve(a.guess, Context::InitialValue); });
            State state{a.name, a.symbol, model_.constraints[k].reduced, guess, a.where, a.unit};
            state.algebraic = true;
            model_.states.push_back(std::move(state));
        }
    }

    void defineEquations(const ModelSyntax& syntax)
    {
        std::map<std::string, const ForceStatement*> forces;
        for (const auto& st : syntax.statements) {
            guarded([&] {
                if (auto* d = std::get_if<DerivativeStatement>(&st))
                    defineEquation(*d);
                else if (auto* f = std::get_if<ForceStatement>(&st)) {
                    auto it = names_.find(f->coordinate.name);
                    if (it == names_.end() || it->second.kind != NameKind::LagrangeCoordinate)
                        fail(f->coordinate.where,
                             "'force " + f->coordinate.name +
                                 "' needs a Lagrangian coordinate "
                                 "declared with 'coord " +
                                 f->coordinate.name + "'");
                    if (forces.count(f->coordinate.name))
                        fail(f->coordinate.where,
                             "a second force on " + f->coordinate.name + "; add the terms into one 'force' statement");
                    forces[f->coordinate.name] = f;
                }
            });
        }
        for (const auto& f : firstOrder_)
            if (f.equationWhere.line == 0)
                errors_.push_back({f.where, "state " + f.name + " has no equation; add " + f.name + "' = ..."});
        deriveLagrangeEquations(forces);
    }

    void defineEquation(const DerivativeStatement& d)
    {
        auto it = names_.find(d.name.name);
        const std::string written = d.name.name + std::string(static_cast<std::size_t>(d.order), '\'');
        if (it == names_.end())
            fail(d.name.where,
                 "equation for undeclared state " + d.name.name + "; declare it with 'state " + d.name.name +
                     " = VALUE' (or write " + d.name.name + "'' = ... for a second-order coordinate)");
        const Declaration& decl = it->second;
        if (decl.kind == NameKind::FirstOrderState) {
            if (d.order != 1)
                fail(d.name.where, d.name.name + " is a first-order state; write " + d.name.name + "' = ...");
            FirstOrder& f = firstOrder_[decl.index];
            if (f.equationWhere.line > 0)
                fail(d.name.where,
                     "a second equation for " + written + " (the first is on " + at(f.equationWhere) + ")");
            f.equationWhere = d.name.where;  // before resolving: an equation with an error is not also "missing"
            f.rhs = resolve(d.value, Context::Dynamics);
        } else if (decl.kind == NameKind::SecondOrderCoordinate) {
            if (d.order != 2)
                fail(d.name.where,
                     d.name.name + " is a second-order coordinate (it has " + d.name.name + "'' = ...); its velocity " +
                         d.name.name + "' is a state, not an equation");
            Coordinate& c = coordinates_[decl.index];
            if (c.equationWhere.line > 0)
                fail(d.name.where,
                     "a second equation for " + written + " (the first is on " + at(c.equationWhere) + ")");
            c.equationWhere = d.name.where;
            c.acceleration_rhs = resolve(d.value, Context::Dynamics);
        } else if (decl.kind == NameKind::LagrangeCoordinate) {
            fail(d.name.where, d.name.name + " is a Lagrangian coordinate; its equation is derived from the energies");
        } else if (decl.kind == NameKind::Field) {
            fail(d.name.where, d.name.name + " is a field; its equation is written " + d.name.name + "_t = ...");
        } else {
            fail(d.name.where, "equation for " + d.name.name + ", which is " + kindWord(decl.kind) + ", not a state");
        }
    }

    void deriveLagrangeEquations(const std::map<std::string, const ForceStatement*>& forces)
    {
        std::vector<Coordinate*> coords;
        for (auto& c : coordinates_)
            if (c.lagrangian)
                coords.push_back(&c);
        if (coords.empty()) {
            for (const EnergyStatement* e : energies_)
                errors_.push_back(
                    {e->keyword,
                     "'" + energyWord(e->kind) + "' needs Lagrangian coordinates: declare them with 'coord q'"});
            return;
        }
        const EnergyStatement* kinetic = nullptr;
        for (const EnergyStatement* e : energies_)
            if (e->kind == EnergyKind::Kinetic && !kinetic)
                kinetic = e;
        if (!kinetic) {
            errors_.push_back(
                {coords.front()->where,
                 "Lagrangian coordinate " + coords.front()->name + " needs a kinetic energy: add 'kinetic T = ...'"});
            return;
        }
        if (!errors_.empty())
            return;
        LagrangeSystem system;
        system.time = model_.time;
        system.kinetic = system.potential = system.dissipation = 0;
        for (const EnergyStatement* e : energies_) {
            const ex value = lets_.at(e->name.name);
            for (const auto& a : algebraic_)
                if (value.has(a.symbol)) {
                    errors_.push_back({e->keyword,
                                       "the " + energyWord(e->kind) + " holds " + a.name +
                                           ", an algebraic variable; energies depend on coordinates, "
                                           "their velocities, parameters and t"});
                    return;
                }
            (e->kind == EnergyKind::Kinetic         ? system.kinetic
                 : e->kind == EnergyKind::Potential ? system.potential
                                                    : system.dissipation) += value;
        }
        for (Coordinate* c : coords) {
            LagrangeCoordinate lc{c->name, c->position, c->velocity, c->acceleration, 0};
            if (auto it = forces.find(c->name); it != forces.end())
                guarded([&] { lc.force = resolve(it->second->value, Context::Dynamics); });
            // Phi_q^T lambda (Psi_q'^T mu for a constraint on velocities).
            for (const auto& [k, m] : multiplierOf_) {
                const Constraint& constraint = model_.constraints[k];
                lc.constraintForce += constraint.expression.diff(constraint.onVelocities ? c->velocity : c->position) *
                    algebraic_[m].symbol;
            }
            system.coordinates.push_back(lc);
        }
        for (const auto& in : model_.inputs)
            system.inputs.push_back(in.symbol);
        try {
            const LagrangeResult result = deriveLagrange(system);
            for (std::size_t i = 0; i < coords.size(); ++i)
                coords[i]->acceleration_rhs = result.accelerations[i];
            model_.lagrangeEquations = result.equations;
            for (const Coordinate* c : coords)
                model_.accelerationSymbols.push_back(c->acceleration);
        } catch (const LagrangeError& e) {
            errors_.push_back({kinetic->keyword, e.what()});
        }
    }

    // Whether `outer` is in a model that includes (directly or not) the sub-model `inner` is in: its
    // initial values replace the sub-model's own (include "bar.model" as crank, then crank.xb(0) = ...).
    bool encloses(SourceLocation outer, SourceLocation inner) const
    {
        for (int origin = inner.origin; origin > 0;) {
            origin = origins_[static_cast<std::size_t>(origin - 1)].include.origin;
            if (origin == outer.origin)
                return true;
        }
        return false;
    }

    void defineInitialValues(const ModelSyntax& syntax)
    {
        for (const auto& st : syntax.statements) {
            const auto* s = std::get_if<InitialStatement>(&st);
            if (!s)
                continue;
            guarded([&] {
                auto it = names_.find(s->name.name);
                if (it == names_.end())
                    fail(s->name.where, "initial value for unknown state " + s->name.name);
                const Declaration& decl = it->second;
                if (decl.kind == NameKind::FirstOrderState) {
                    FirstOrder& f = firstOrder_[decl.index];
                    if (f.initial && encloses(f.initialWhere, s->name.where))
                        return;
                    if (f.initial && !encloses(s->name.where, f.initialWhere))
                        fail(s->name.where,
                             "the initial value of " + f.name + " is already given on " + at(f.initialWhere));
                    if (s->values.size() != 1)
                        fail(s->values[1].where, f.name + " is a first-order state: give one initial value");
                    f.initial = s->values[0];
                    f.initialWhere = s->name.where;
                } else if (decl.kind == NameKind::SecondOrderCoordinate || decl.kind == NameKind::LagrangeCoordinate) {
                    Coordinate& c = coordinates_[decl.index];
                    if (!c.initial.empty() && encloses(c.initialWhere, s->name.where))
                        return;
                    if (!c.initial.empty() && !encloses(s->name.where, c.initialWhere))
                        fail(s->name.where,
                             "the initial values of " + c.name + " are already given on " + at(c.initialWhere));
                    if (s->values.size() > 2)
                        fail(s->values[2].where, c.name + "(0) takes a position and a velocity, not more");
                    c.initial = s->values;
                    c.initialWhere = s->name.where;
                } else if (decl.kind == NameKind::Field) {
                    fail(s->name.where,
                         s->name.name + " is a field: write its initial values as " + s->name.name + "(" +
                             fields_.variablesOf(decl.index) + "0) = ...");
                } else {
                    fail(s->name.where,
                         s->name.name + " is " + kindWord(decl.kind) + "; initial values belong to states");
                }
            });
        }
    }

    // when LHS < RHS : resets. The condition and the values are right-hand sides like any
    // other (t, states, parameters, inputs, lets); the values use the states before the event.
    void defineEvents(const ModelSyntax& syntax)
    {
        for (const auto& st : syntax.statements)
            if (const auto* w = std::get_if<WhenStatement>(&st))
                guarded([&] { model_.events.push_back(defineEvent(*w)); });
    }

    Event defineEvent(const WhenStatement& w)
    {
        Event event;
        event.condition = resolve(w.lhs, Context::Dynamics) - resolve(w.rhs, Context::Dynamics);
        event.direction = w.direction;
        event.text = w.condition;
        event.resetText = w.resetText;
        event.where = w.keyword;
        if (!changesInTime(event.condition))
            fail(w.lhs->where,
                 "the condition of '" + w.condition +
                     "' depends on no state, input or time t, so it never becomes true during a simulation");
        std::map<std::size_t, SourceLocation> assigned;
        for (const ResetSyntax& r : w.resets) {
            const std::size_t state = resetState(r);
            const std::string written = r.state.name + std::string(static_cast<std::size_t>(r.primes), '\'');
            if (auto it = assigned.find(state); it != assigned.end())
                fail(r.state.where,
                     written + " is reset twice in one 'when' (first at column " + std::to_string(it->second.column) +
                         "); the resets apply together, so give each state one value");
            assigned[state] = r.state.where;
            event.assignments.push_back({state, resolve(r.value, Context::Dynamics)});
        }
        return event;
    }

    bool changesInTime(const ex& e) const
    {
        if (e.has(model_.time))
            return true;
        for (const auto& u : model_.inputs)
            if (e.has(u.symbol))
                return true;
        for (const auto& f : firstOrder_)
            if (e.has(f.symbol))
                return true;
        for (const auto& c : coordinates_)
            if (e.has(c.position) || e.has(c.velocity))
                return true;
        for (const auto& a : algebraic_)
            if (e.has(a.symbol))
                return true;
        return false;
    }

    // The index in Model::states of the state a reset assigns: ordinary states come first, in
    // the order assembleStates gives them (a coordinate's position, then its velocity).
    std::size_t resetState(const ResetSyntax& r)
    {
        const std::string written = r.state.name + std::string(static_cast<std::size_t>(r.primes), '\'');
        if (const std::string predefined = predefinedName(r.state.name); !predefined.empty())
            fail(r.state.where, predefined + "; a reset assigns states");
        const auto it = names_.find(r.state.name);
        if (it == names_.end())
            fail(r.state.where, "unknown state '" + written + "' in a reset" + suggestion(r.state.name));
        const Declaration& d = it->second;
        const bool coordinate = d.kind == NameKind::SecondOrderCoordinate || d.kind == NameKind::LagrangeCoordinate;
        if (d.kind == NameKind::FirstOrderState && r.primes > 0)
            fail(r.state.where,
                 written + " is the derivative of state " + r.state.name +
                     "; a reset assigns the state itself: " + r.state.name + " = ...");
        if (coordinate && r.primes == 2)
            fail(r.state.where,
                 written + " is an acceleration; a reset assigns the position " + r.state.name + " or the velocity " +
                     r.state.name + "'");
        if (d.kind == NameKind::Field)
            fail(r.state.where,
                 r.state.name + " is a field; a reset assigns ordinary states, not the nodes of a field");
        if (d.kind != NameKind::FirstOrderState && !coordinate)
            fail(r.state.where, "'" + written + "' is " + kindWord(d.kind) + ", not a state; a reset assigns states");
        std::size_t index = 0;
        for (const auto& [isCoordinate, i] : order_) {
            if (isCoordinate == coordinate && i == d.index)
                return index + static_cast<std::size_t>(r.primes);
            index += isCoordinate ? 2 : 1;
        }
        fail(r.state.where, "internal: state " + written + " has no place");
    }

    ex initialExpression(const std::optional<InitialValue>& v, const std::string& parameterName)
    {
        if (!v)
            return 0;
        if (!v->estimate)
            return resolve(v->value, Context::InitialValue);
        Parameter p;
        p.name = parameterName;
        p.value = constantValue(v->value, "an estimated initial value (" + parameterName + ")");
        if (v->lower) {
            p.lower = constantValue(v->lower, "the lower bound of " + parameterName);
            p.upper = constantValue(v->upper, "the upper bound of " + parameterName);
            if (!(p.lower < p.upper))
                fail(v->lower->where, "the bounds of " + parameterName + " must satisfy lower < upper");
            if (p.value < p.lower || p.value > p.upper)
                fail(v->value->where,
                     "the initial value " + parameterName + " lies outside its bounds [" + formatNumber(p.lower) +
                         ", " + formatNumber(p.upper) + "]");
        }
        p.isInitialValue = true;
        p.where = v->where;
        model_.parameters.push_back(p);
        model_.parameterSymbols.emplace_back(parameterName);
        return model_.parameterSymbols.back();
    }

    static bool held(const std::optional<InitialValue>& v) { return v && !v->guess; }

    void assembleStates()
    {
        for (const auto& [isCoordinate, index] : order_) {
            // Captured by copy: clang before 16 cannot capture structured bindings.
            guarded([&, isCoordinate = isCoordinate, index = index] {
                if (isCoordinate) {
                    Coordinate& c = coordinates_[index];
                    const std::optional<InitialValue> pos =
                        c.initial.size() > 0 ? std::optional(c.initial[0]) : std::nullopt;
                    const std::optional<InitialValue> vel =
                        c.initial.size() > 1 ? std::optional(c.initial[1]) : std::nullopt;
                    model_.states.push_back(
                        {c.name, c.position, c.velocity, initialExpression(pos, c.name + "(0)"), c.where, c.unit});
                    model_.states.back().heldInitial = held(pos);
                    model_.states.push_back({c.name + "'",
                                             c.velocity,
                                             *c.acceleration_rhs,
                                             initialExpression(vel, c.name + "'(0)"),
                                             c.where,
                                             {}});
                    model_.states.back().heldInitial = held(vel);
                } else {
                    FirstOrder& f = firstOrder_[index];
                    model_.states.push_back(
                        {f.name, f.symbol, *f.rhs, initialExpression(f.initial, f.name + "(0)"), f.where, f.unit});
                    model_.states.back().heldInitial = held(f.initial);
                }
            });
        }
        if (model_.states.empty() && errors_.empty() && fields_.empty())
            errors_.push_back(
                {{1, 1}, "the model has no states: declare 'state y = VALUE' with y' = ..., or write x'' = ..."});
    }

    void defineOutputs(const ModelSyntax& syntax)
    {
        std::map<std::string, SourceLocation> seen;
        int anonymous = 0;
        for (const auto& st : syntax.statements) {
            const auto* o = std::get_if<OutputStatement>(&st);
            if (!o)
                continue;
            guarded([&] {
                const auto declared = names_.find(o->name.name);
                const bool field = declared != names_.end() && declared->second.kind == NameKind::Field;
                if (field && !o->value) {
                    fields_.output(*o, declared->second.index, seen);
                    return;
                }
                if (!o->at.empty() && declared != names_.end())
                    fail(o->name.where,
                         "output " + o->name.name + "(...) takes the value of a field at a point, but " + o->name.name +
                             " is " + kindWord(declared->second.kind));
                if (o->anonymous) {
                    defineAnonymousOutput(*o, ++anonymous, seen);
                    return;
                }
                const std::string name = o->name.name + std::string(static_cast<std::size_t>(o->primes), '\'');
                if (auto it = seen.find(name); it != seen.end())
                    fail(o->name.where, "output " + name + " is already declared on " + at(it->second));
                ex value;
                if (o->value) {
                    if (const std::string predefined = predefinedName(o->name.name); !predefined.empty())
                        fail(o->name.where, predefined + " as an output");
                    if (functions().count(o->name.name))
                        fail(o->name.where,
                             "'" + o->name.name + "' is the name of a function and cannot name an output");
                    if (names_.count(o->name.name))
                        fail(o->name.where,
                             "output name " + o->name.name + " is already " + kindWord(names_.at(o->name.name).kind) +
                                 "; choose another name");
                    value = resolve(o->value, Context::Output);
                } else {
                    auto e = std::make_shared<ExpressionSyntax>();
                    e->kind = ExpressionSyntax::Kind::Name;
                    e->name = o->name.name;
                    e->primes = o->primes;
                    e->where = o->name.where;
                    value = resolve(e, Context::Output);
                }
                seen[name] = o->name.where;
                model_.outputs.push_back({name, value, o->name.where, o->unit, false});
                if (!o->value)
                    shareUnitWithState(model_.outputs.back());
            });
        }
        model_.outputsDeclared = !seen.empty();
        if (!model_.outputsDeclared)
            for (const auto& s : model_.states)
                model_.outputs.push_back({s.name, s.symbol, s.where, s.unit, false});
        for (Parameter& p : model_.parameters)
            if (p.isInitialValue && p.name.ends_with("(0)"))
                if (const std::size_t i = model_.stateIndex(p.name.substr(0, p.name.size() - 3));
                    i < model_.states.size())
                    p.unit = model_.states[i].unit;
    }

    // output EXPR: the k-th such output is named yk, a name for data columns and --map; its text
    // would make a poor column name. A yk that is already taken is an error rather than a
    // silently different number, so the name stays predictable from the model text.
    void defineAnonymousOutput(const OutputStatement& o, int k, std::map<std::string, SourceLocation>& seen)
    {
        const std::string name = "y" + std::to_string(k);
        const ex value = resolve(o.anonymous, Context::Output);
        if (auto it = names_.find(name); it != names_.end())
            fail(o.name.where,
                 "this output would be named " + name + ", which is already " + kindWord(it->second.kind) +
                     "; name it: output NAME = ...");
        if (auto it = seen.find(name); it != seen.end())
            fail(o.name.where,
                 "this output would be named " + name + ", which is already an output on " + at(it->second) +
                     "; name it: output NAME = ...");
        seen[name] = o.name.where;
        model_.outputs.push_back({name, value, o.name.where, o.unit, true});
    }

    // `output s unit m` for a state s gives the state its unit (x'' = ... declares none), and
    // `output s` takes the unit a state was declared with.
    void shareUnitWithState(Output& output)
    {
        const std::size_t i = model_.stateIndex(output.name);
        if (i >= model_.states.size())
            return;
        std::string& state = model_.states[i].unit;
        if (state.empty())
            state = output.unit;
        else if (output.unit.empty())
            output.unit = state;
    }

    ex stateRhs(const std::string& name, int primes, SourceLocation where)
    {
        const Declaration& d = names_.at(name);
        if (d.kind == NameKind::FirstOrderState && primes == 1)
            return *firstOrder_[d.index].rhs;
        if (primes == 2)
            return *coordinates_[d.index].acceleration_rhs;
        fail(where, "internal: no derivative for " + name);
    }

    ex resolveName(const ExpressionSyntax& e, Context ctx)
    {
        const std::string written = e.name + std::string(static_cast<std::size_t>(e.primes), '\'');
        if (e.primes == 0 && e.name == "pi")
            return GiNaC::Pi;
        if (e.primes == 0 && e.name == "t") {
            if (ctx == Context::Constant || ctx == Context::InitialValue || ctx == Context::FieldInitial)
                fail(e.where, "time t cannot appear in " + contextWord(ctx));
            return model_.time;
        }
        if (functions().count(e.name))
            fail(e.where, "'" + e.name + "' is a function; write " + e.name + "(...)");
        auto it = names_.find(e.name);
        if (it == names_.end()) {
            // spring.x: a variable the element spring does not have.
            if (const auto element = names_.find(e.name.substr(0, e.name.find('.')));
                element != names_.end() && element->second.kind == NameKind::BondElement)
                return bondGraph_.resolveName(e, element->second, ctx);
            fail(e.where, "unknown symbol '" + written + "'" + suggestion(e.name));
        }
        const Declaration& d = it->second;
        if (d.kind == NameKind::BondElement || d.kind == NameKind::BondVariable)
            return bondGraph_.resolveName(e, d, ctx);
        if (ctx == Context::Constant)
            fail(e.where, "'" + written + "' cannot appear in " + contextWord(ctx) + "; use numbers (and pi) only");
        if (d.kind == NameKind::Parameter) {
            if (e.primes)
                fail(e.where, "parameter " + e.name + " has no time derivative");
            return model_.parameterSymbols[d.index];
        }
        if (d.kind == NameKind::Field || d.kind == NameKind::FieldVariable || d.kind == NameKind::FieldDerivative ||
            d.kind == NameKind::NodeParameter)
            return fields_.resolveName(e, d, ctx);
        if (ctx == Context::InitialValue || ctx == Context::FieldInitial)
            fail(e.where, "'" + written + "' cannot appear in an initial value; use numbers and parameters");
        switch (d.kind) {
        case NameKind::Input:
            if (e.primes)
                fail(e.where, "input " + e.name + " has no time derivative in the model; measure it as its own input");
            return model_.inputs[d.index].symbol;
        case NameKind::Let:
            if (e.primes)
                fail(e.where, "intermediate " + e.name + " has no time derivative");
            if (!lets_.count(e.name))
                fail(e.where, "'" + e.name + "' is used before its definition on " + at(d.where));
            fields_.checkLetUse(e, ctx);
            return lets_.at(e.name);
        case NameKind::FirstOrderState:
            if (e.primes == 0)
                return firstOrder_[d.index].symbol;
            if (ctx == Context::Output && e.primes == 1)
                return stateRhs(e.name, 1, e.where);
            fail(e.where,
                 written + " is the derivative of state " + e.name +
                     "; it may only stand on the left of its equation or in an output");
        case NameKind::Algebraic:
        case NameKind::Multiplier:
            if (e.primes)
                fail(e.where, written + ": " + e.name + " is " + kindWord(d.kind) + ", which has no time derivative");
            return algebraic_[d.index].symbol;
        case NameKind::SecondOrderCoordinate:
        case NameKind::LagrangeCoordinate:
            if (e.primes == 0)
                return coordinates_[d.index].position;
            if (e.primes == 1)
                return coordinates_[d.index].velocity;
            if (ctx == Context::Output)
                return stateRhs(e.name, 2, e.where);
            fail(e.where, written + " (an acceleration) may only stand on the left of its equation or in an output");
        default: fail(e.where, "'" + written + "' cannot be used in an expression");
        }
    }

    std::string suggestion(const std::string& name) const override
    {
        if (errors_.size() >= kMaxDiagnostics)
            return {};  // the message will not be listed
        std::string best;
        std::size_t bestDistance = 3;
        for (const auto& [candidate, decl] : names_) {
            const std::size_t dist = editDistance(name, candidate);
            if (dist < bestDistance) {
                bestDistance = dist;
                best = candidate;
            }
        }
        return best.empty() ? "; declare it with param, state, input or let" : "; did you mean '" + best + "'?";
    }

    static std::size_t editDistance(const std::string& a, const std::string& b)
    {
        std::vector<std::size_t> row(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j)
            row[j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i) {
            std::size_t diagonal = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j) {
                const std::size_t up = row[j];
                row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
                diagonal = up;
            }
        }
        return row[b.size()];
    }

    static std::string contextWord(Context ctx)
    {
        switch (ctx) {
        case Context::Constant: return "a parameter value or bound";
        case Context::InitialValue: return "an initial value";
        case Context::Dynamics: return "an equation";
        case Context::Output: return "an output";
        case Context::FieldEquation: return "a field equation";
        case Context::FieldBoundary: return "a boundary condition";
        case Context::FieldInitial: return "the initial values of a field";
        }
        return "an expression";
    }

    // An expression of the model with every name resolved. Each one is measured once whole (with
    // the intermediates it uses) against the limits of ExpressionLimits.h.
    ex resolve(const ExpressionPtr& e, Context ctx) override
    {
        if (place_.line == 0)
            place_ = e->where;
        const ex value = resolveNode(e, ctx);
        const ExpressionShape shape = meter_.measure(value);
        if (shape.depth > kMaxExpressionDepth)
            fail(e->where,
                 "expression nested deeper than " + std::to_string(kMaxExpressionDepth) +
                     " levels with the intermediates (let) it uses written out; simplify the chain of "
                     "intermediates");
        if (shape.size > kMaxExpressionSize)
            fail(e->where,
                 "this expression, with the intermediates (let) it uses written out, has more than " +
                     formatNumber(kMaxExpressionSize) +
                     " terms; intermediates that each use the one before several times grow "
                     "exponentially");
        if (shape.complex)
            fail(e->where,
                 "a constant in this expression must be a real number (is it the square root or log of "
                 "a negative number?)");
        if (shape.overflows)
            fail(e->where,
                 "a constant part of this expression is infinite or not a number in double precision "
                 "(beyond about 1.8e308, e.g. exp(1000), or outside a function's domain, e.g. asin(2))");
        return value;
    }

    // GiNaC folds constants exactly and evaluates functions as it builds; what it throws (log(0),
    // tan(pi/2), a division by a sum that is zero) becomes a problem at the node that caused it.
    ex resolveNode(const ExpressionPtr& e, Context ctx)
    {
        try {
            ex value = combineNode(e, ctx);
            if (GiNaC::is_a<GiNaC::numeric>(value) && !numberWithinLimits(GiNaC::ex_to<GiNaC::numeric>(value)))
                fail(e->where,
                     "a constant here is larger than about 10^" +
                         std::to_string(static_cast<long>(kMaxNumberBits * 0.30103)) +
                         " (or closer to 0 than its inverse); numbers in a model must lie within the range of "
                         "double (about 1e-308 to 1e308)");
            return value;
        } catch (const BuildFailure&) {
            throw;
        } catch (const std::exception& x) {
            const std::string what = describeSymbolicFailure(x);
            if (e->kind == ExpressionSyntax::Kind::Call)
                fail(e->where, e->name + "(...): " + what);
            fail(e->where, what);
        }
    }

    ex combineNode(const ExpressionPtr& e, Context ctx)
    {
        using K = ExpressionSyntax::Kind;
        switch (e->kind) {
        case K::Number: return exactNumber(e->name);
        case K::Name: return resolveName(*e, ctx);
        case K::Negate: return -resolveNode(e->operands[0], ctx);
        case K::Add: {
            GiNaC::exvector terms;
            terms.reserve(e->operands.size());
            for (const auto& operand : e->operands)
                terms.push_back(resolveNode(operand, ctx));
            return GiNaC::add(terms);
        }
        case K::Multiply: {
            GiNaC::exvector factors;
            factors.reserve(e->operands.size());
            GiNaC::numeric coefficient = 1;
            for (const auto& operand : e->operands) {
                const ex factor = resolveNode(operand, ctx);
                if (!GiNaC::is_a<GiNaC::numeric>(factor)) {
                    factors.push_back(factor);
                    continue;
                }
                // The constant factors multiplied as they come: a long product of large constants
                // is refused before it grows beyond the limit.
                coefficient *= GiNaC::ex_to<GiNaC::numeric>(factor);
                if (!numberWithinLimits(coefficient))
                    fail(operand->where,
                         "the product of the constants up to here is beyond the range of double "
                         "(about 1e-308 to 1e308)");
            }
            factors.push_back(coefficient);
            return GiNaC::mul(factors);
        }
        case K::Reciprocal: {
            const ex denominator = resolveNode(e->operands[0], ctx);
            if (denominator.is_zero())
                fail(e->where, "division by zero");
            return GiNaC::pow(denominator, -1);
        }
        case K::Power: {
            const ex base = resolveNode(e->operands[0], ctx);
            const ex exponent = resolveNode(e->operands[1], ctx);
            if (base.is_zero() && GiNaC::is_a<GiNaC::numeric>(exponent) &&
                !GiNaC::ex_to<GiNaC::numeric>(exponent).is_positive())
                fail(e->where, "0 raised to a non-positive power");
            // Its derivative holds log(0), which GiNaC throws on while differentiating, with no place to
            // name and leaking what it had built.
            if (base.is_zero() && !GiNaC::is_a<GiNaC::numeric>(exponent))
                fail(e->where, "0 raised to a power that is not a constant (its derivative would contain log(0))");
            if (GiNaC::is_a<GiNaC::numeric>(base) && GiNaC::is_a<GiNaC::numeric>(exponent) &&
                !powerWithinLimits(GiNaC::ex_to<GiNaC::numeric>(base), GiNaC::ex_to<GiNaC::numeric>(exponent)))
                fail(e->where, "this power of constants is beyond the range of double (about 1e-308 to 1e308)");
            return GiNaC::pow(base, exponent);
        }
        case K::Call: {
            if (auto n = names_.find(e->name); n != names_.end() && n->second.kind == NameKind::NodeParameter)
                return fields_.resolveNodeParameter(*e, ctx);
            auto it = functions().find(e->name);
            if (it == functions().end()) {
                if (names_.count(e->name))
                    fail(e->where, "'" + e->name + "' is " + kindWord(names_.at(e->name).kind) + ", not a function");
                fail(e->where, "unknown function '" + e->name + "' (known: " + functionList() + ")");
            }
            const int arity = it->second.arity;
            const int given = static_cast<int>(e->operands.size());
            if (arity >= 0 && given != arity)
                fail(e->where,
                     e->name + "() takes " + std::to_string(arity) + " argument" + (arity == 1 ? "" : "s") + ", " +
                         std::to_string(given) + " given");
            if (arity < 0 && given < 2)
                fail(e->where, e->name + "() takes two or more arguments, " + std::to_string(given) + " given");
            std::vector<ex> args;
            for (const auto& operand : e->operands)
                args.push_back(resolveNode(operand, ctx));
            return it->second.make(args);
        }
        }
        fail(e->where, "internal: unknown expression");
    }

    std::vector<ModelDiagnostic>& errors_;
    ExpressionMeter meter_;
    SourceLocation place_;  // of the first expression the statement being built resolved (guarded)
    Model model_;
    std::map<std::string, Declaration> names_;
    std::vector<const ParamStatement*> paramStatements_;
    std::vector<FirstOrder> firstOrder_;
    std::vector<Coordinate> coordinates_;
    std::vector<std::pair<bool, std::size_t>> order_;  // states in declaration order: (isCoordinate, index)
    std::map<std::string, ex> lets_;
    FieldBuilder fields_;  // after errors_ and model_, which it holds
    BondGraphBuilder bondGraph_{*this, errors_};
    bool declaringStorage_ = false;  // the state NAME.q or NAME.p of a bond-graph element: its one dotted declaration
    std::vector<SubModelOrigin> origins_;  // of included sub-models (SourceLocation::origin - 1)
    std::vector<const EnergyStatement*> energies_;  // kinetic, potential, dissipation: one of each per file
    std::map<std::string, ExpressionPtr> letSyntax_;  // lets and energies as written (namesIn)
    std::vector<const ConstraintStatement*> constraintStatements_;
    std::vector<AlgebraicVariable> algebraic_;  // algebraic variables, then multipliers
    std::map<std::size_t, std::size_t> multiplierOf_;  // constraint statement -> its multiplier in algebraic_
};

}  // namespace

namespace {

Model buildModel(std::string_view text, const std::string& source, std::vector<ModelDiagnostic>& errors,
                 ModelSyntax& syntax)
{
    syntax = parseModelSyntax(text, errors);
    if (errors.empty())
        expandIncludes(syntax, includeDirectory(source), errors);
    if (!errors.empty())
        return {};
    try {
        return Builder(source, errors).build(syntax);
    } catch (const BuildFailure& f) {
        errors.push_back(f.diagnostic);
    }
    return {};
}

}  // namespace

Model parseModel(std::string_view text, const std::string& source)
{
    std::vector<ModelDiagnostic> errors;
    ModelSyntax syntax;
    Model model;
    // Nothing but a ModelError leaves: a front end that shows problems must not be brought down by
    // one it did not expect (the editor checks the model while it is typed).
    try {
        model = buildModel(text, source, errors, syntax);
    } catch (const std::exception& e) {
        errors.push_back({{}, "the model cannot be built: " + describeSymbolicFailure(e)});
    }
    if (!errors.empty()) {
        for (auto& d : errors)
            d = placeInText(d, syntax.origins);
        // Past kMaxDiagnostics stands the note that more were left out: it stays last.
        const auto listed = errors.begin() + static_cast<std::ptrdiff_t>(std::min(errors.size(), kMaxDiagnostics));
        std::stable_sort(errors.begin(), listed, [](const ModelDiagnostic& a, const ModelDiagnostic& b) {
            return a.where.line != b.where.line ? a.where.line < b.where.line : a.where.column < b.where.column;
        });
        throw ModelError(source, std::move(errors));
    }
    return model;
}

Model loadModel(const std::string& path)
{
    return parseModel(readModelFileOrThrow(path), path);
}

std::size_t Model::parameterIndex(std::string_view name) const
{
    for (std::size_t i = 0; i < parameters.size(); ++i)
        if (parameters[i].name == name)
            return i;
    return std::string::npos;
}

std::size_t Model::stateIndex(std::string_view name) const
{
    for (std::size_t i = 0; i < states.size(); ++i)
        if (states[i].name == name)
            return i;
    return std::string::npos;
}

std::size_t Model::inputIndex(std::string_view name) const
{
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].name == name)
            return i;
    return std::string::npos;
}

std::map<std::string, integrate::Intersample> Model::declaredIntersample() const
{
    std::map<std::string, integrate::Intersample> out;
    for (const auto& u : inputs)
        if (u.intersample)
            out[u.name] = *u.intersample;
    return out;
}

std::string Model::place(SourceLocation where) const
{
    std::string text = "line " + std::to_string(where.line);
    if (where.origin > 0 && static_cast<std::size_t>(where.origin) <= subModelFiles.size())
        text += " of " + subModelFiles[static_cast<std::size_t>(where.origin - 1)];
    return text;
}

std::size_t Model::algebraicCount() const
{
    std::size_t count = 0;
    for (const auto& s : states)
        count += s.algebraic ? 1 : 0;
    return count;
}

bool Model::dependsOnTime() const
{
    if (!inputs.empty())
        return true;
    for (const auto& s : states)
        if (s.rhs.has(time))
            return true;
    return false;
}

}  // namespace sysid::model
