#include "engine/model/SubModels.h"

#include "engine/model/ModelFile.h"
#include "engine/model/ModelParser.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace sysid::model {

namespace {

namespace fs = std::filesystem;

// Rewrites the statements of one included file: names prefixed, bound names replaced, every place
// tagged with the file's origin (places already tagged belong to a deeper sub-model).
class Prefixer {
public:
    Prefixer(std::string prefix, int origin, std::map<std::string, ExpressionPtr> bindings) :
        prefix_(std::move(prefix)), origin_(origin), bindings_(std::move(bindings))
    {
    }

    SourceLocation place(SourceLocation where) const
    {
        if (where.origin == 0)
            where.origin = origin_;
        return where;
    }

    std::string renamed(const std::string& name) const { return prefix_ + "." + name; }
    NamedPlace named(const NamedPlace& n) const { return {renamed(n.name), place(n.where)}; }

    ExpressionPtr expression(const ExpressionPtr& e) const
    {
        if (!e)
            return e;
        using K = ExpressionSyntax::Kind;
        if (e->kind == K::Name && e->primes == 0) {
            if (auto it = bindings_.find(e->name); it != bindings_.end())
                return it->second;
            if (e->name == "t" || e->name == "pi")
                return retagged(e);
        }
        auto copy = std::make_shared<ExpressionSyntax>(*e);
        copy->where = place(e->where);
        if (e->kind == K::Name)
            copy->name = renamed(e->name);
        for (auto& operand : copy->operands)
            operand = expression(operand);
        return copy;
    }

    std::string text(const std::string& written) const { return written.empty() ? written : prefix_ + ": " + written; }

private:
    ExpressionPtr retagged(const ExpressionPtr& e) const
    {
        auto copy = std::make_shared<ExpressionSyntax>(*e);
        copy->where = place(e->where);
        return copy;
    }

    std::string prefix_;
    int origin_;
    std::map<std::string, ExpressionPtr> bindings_;
};

class Expander {
public:
    Expander(std::vector<SubModelOrigin>& origins, std::vector<ModelDiagnostic>& errors) :
        origins_(origins), errors_(errors)
    {
    }

    // The statements of `syntax` with its includes replaced; `directory` resolves their files.
    std::vector<Statement> expand(const std::vector<Statement>& statements, const fs::path& directory)
    {
        std::vector<Statement> out;
        std::set<std::string> names;
        for (const auto& st : statements) {
            const auto* in = std::get_if<IncludeStatement>(&st);
            if (!in) {
                out.push_back(st);
                continue;
            }
            if (!names.insert(in->name.name).second) {
                errors_.push_back({in->name.where, "a second sub-model named " + in->name.name +
                                                       "; give each include its own name (... as crank2)"});
                continue;
            }
            for (auto& s : include(*in, directory))
                out.push_back(std::move(s));
        }
        return out;
    }

private:
    std::vector<Statement> include(const IncludeStatement& in, const fs::path& directory)
    {
        const fs::path path = (fs::path(in.file).is_absolute() ? fs::path(in.file) : directory / in.file).lexically_normal();
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(path, ec);
        const std::string key = ec ? path.string() : canonical.string();
        for (const auto& open : open_)
            if (open == key) {
                errors_.push_back({in.fileWhere, "\"" + in.file + "\" includes itself (through " + in.name.name +
                                                     "); a model cannot contain itself"});
                return {};
            }
        std::string problem;
        const std::optional<std::string> text = readModelFile(path.string(), problem);
        if (!text) {
            std::error_code ignored;
            errors_.push_back({in.fileWhere,
                               "cannot read the sub-model file \"" + in.file + "\" (" + problem + "; looked for " +
                                   fs::absolute(path, ignored).string() +
                                   "; a relative name is read from the folder of the including model)"});
            return {};
        }

        origins_.push_back({in.name.name, in.file, path.string(), in.keyword});
        const int origin = static_cast<int>(origins_.size());
        std::vector<ModelDiagnostic> syntaxErrors;
        ModelSyntax sub = parseModelSyntax(*text, syntaxErrors);
        for (auto& d : syntaxErrors) {
            d.where.origin = origin;
            errors_.push_back(d);
        }
        if (!syntaxErrors.empty())
            return {};
        open_.push_back(key);
        std::vector<Statement> statements = expand(sub.statements, path.parent_path());
        open_.pop_back();
        return prefixed(statements, in, origin);
    }

    // The declared parameters and inputs of a sub-model, which bindings may replace.
    static std::set<std::string> bindable(const std::vector<Statement>& statements)
    {
        std::set<std::string> names;
        for (const auto& st : statements) {
            if (const auto* p = std::get_if<ParamStatement>(&st))
                names.insert(p->name.name);
            else if (const auto* u = std::get_if<InputStatement>(&st))
                for (const auto& n : u->names)
                    names.insert(n.name);
        }
        return names;
    }

    std::vector<Statement> prefixed(const std::vector<Statement>& statements, const IncludeStatement& in, int origin)
    {
        const std::set<std::string> allowed = bindable(statements);
        std::map<std::string, ExpressionPtr> bindings;
        for (const auto& b : in.bindings) {
            if (!allowed.count(b.name.name)) {
                std::string list;
                for (const auto& n : allowed)
                    list += (list.empty() ? "" : ", ") + n;
                errors_.push_back({b.name.where, "'" + b.name.name + "' is not a parameter or input of sub-model " +
                                                     in.name.name + " (\"" + in.file + "\"); it binds " +
                                                     (list.empty() ? std::string("none") : list)});
                continue;
            }
            if (!bindings.emplace(b.name.name, b.value).second)
                errors_.push_back({b.name.where, b.name.name + " is bound twice in the include of " + in.name.name});
        }
        const Prefixer p(in.name.name, origin, bindings);
        std::vector<Statement> out;
        for (const auto& st : statements) {
            std::visit([&](const auto& s) { add(p, bindings, s, out); }, st);
        }
        return out;
    }

    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>& bound, const ParamStatement& s,
             std::vector<Statement>& out)
    {
        if (bound.count(s.name.name))
            return;
        if (!s.over.empty()) {
            refuseField(p.place(s.name.where), "per-node parameter " + s.name.name);
            return;
        }
        ParamStatement c = s;
        c.name = p.named(s.name);
        c.value = p.expression(s.value);
        c.lower = p.expression(s.lower);
        c.upper = p.expression(s.upper);
        c.priorMean = p.expression(s.priorMean);
        c.priorSd = p.expression(s.priorSd);
        out.push_back(std::move(c));
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const StateStatement& s,
             std::vector<Statement>& out)
    {
        StateStatement c = s;
        c.name = p.named(s.name);
        c.initial = p.expression(s.initial);
        out.push_back(std::move(c));
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>& bound, const InputStatement& s,
             std::vector<Statement>& out)
    {
        InputStatement c = s;
        c.names.clear();
        for (const auto& n : s.names)
            if (!bound.count(n.name))
                c.names.push_back(p.named(n));
        if (!c.names.empty())
            out.push_back(std::move(c));
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const LetStatement& s,
             std::vector<Statement>& out)
    {
        out.push_back(LetStatement{p.named(s.name), p.expression(s.value)});
    }
    // output NAME = EXPR stays usable as the intermediate NAME.NAME; what the composite model
    // measures is its own choice.
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const OutputStatement& s,
             std::vector<Statement>& out)
    {
        if (s.value && !s.name.name.empty())
            out.push_back(LetStatement{p.named(s.name), p.expression(s.value)});
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const CoordStatement& s,
             std::vector<Statement>& out)
    {
        CoordStatement c = s;
        for (auto& n : c.names)
            n = p.named(n);
        out.push_back(std::move(c));
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const EnergyStatement& s,
             std::vector<Statement>& out)
    {
        out.push_back(EnergyStatement{s.kind, p.place(s.keyword), p.named(s.name), p.expression(s.value)});
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const ForceStatement& s,
             std::vector<Statement>& out)
    {
        out.push_back(ForceStatement{p.named(s.coordinate), p.expression(s.value)});
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const DerivativeStatement& s,
             std::vector<Statement>& out)
    {
        out.push_back(DerivativeStatement{p.named(s.name), s.order, p.expression(s.value)});
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const InitialStatement& s,
             std::vector<Statement>& out)
    {
        InitialStatement c{p.named(s.name), s.values};
        for (auto& v : c.values) {
            v.value = p.expression(v.value);
            v.where = p.place(v.where);
        }
        out.push_back(std::move(c));
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const FieldStatement& s,
             std::vector<Statement>&)
    {
        refuseField(p.place(s.name.where), "field " + s.name.name);
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const FieldEquationStatement& s,
             std::vector<Statement>&)
    {
        refuseField(p.place(s.field.where), "field " + s.field.name);
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const FieldConditionStatement& s,
             std::vector<Statement>&)
    {
        refuseField(p.place(s.name.where), "field condition " + s.name.name + "(...)");
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const WhenStatement& s,
             std::vector<Statement>& out)
    {
        WhenStatement c = s;
        c.keyword = p.place(s.keyword);
        c.lhs = p.expression(s.lhs);
        c.rhs = p.expression(s.rhs);
        for (auto& r : c.resets) {
            r.state = p.named(r.state);
            r.value = p.expression(r.value);
        }
        c.condition = p.text(s.condition);
        out.push_back(std::move(c));
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const AlgebraicStatement& s,
             std::vector<Statement>& out)
    {
        out.push_back(AlgebraicStatement{p.named(s.name), p.expression(s.guess), s.unit});
    }
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const ConstraintStatement& s,
             std::vector<Statement>& out)
    {
        ConstraintStatement c = s;
        c.keyword = p.place(s.keyword);
        if (!s.multiplier.name.empty())
            c.multiplier = p.named(s.multiplier);
        else
            c.multiplier.where = p.place(s.multiplier.where);
        c.lhs = p.expression(s.lhs);
        c.rhs = p.expression(s.rhs);
        c.text = p.text(s.text);
        out.push_back(std::move(c));
    }
    void add(const Prefixer&, const std::map<std::string, ExpressionPtr>&, const IncludeStatement&,
             std::vector<Statement>&)
    {
        // expanded before prefixing
    }
    // A bond graph's names are element.variable already (spring.e); its elements stay in one file.
    void add(const Prefixer& p, const std::map<std::string, ExpressionPtr>&, const BondGraphStatement& s,
             std::vector<Statement>&)
    {
        if (refusedBondGraph_)
            return;
        refusedBondGraph_ = true;
        errors_.push_back({p.place(s.keyword),
                           bondNodeTitle(s.kind, s.name.text) +
                               ": a sub-model cannot hold bond-graph elements; write the bond graph in the "
                               "including model"});
    }

    void refuseField(SourceLocation where, const std::string& what)
    {
        if (refusedField_)
            return;
        refusedField_ = true;
        errors_.push_back({where, what + ": a sub-model cannot hold fields (PDE models by the method of lines); "
                                         "declare the field in the including model"});
    }

    std::vector<SubModelOrigin>& origins_;
    std::vector<ModelDiagnostic>& errors_;
    std::vector<std::string> open_;  // files being included, outermost first (cycles)
    bool refusedField_ = false;
    bool refusedBondGraph_ = false;
};

}  // namespace

void expandIncludes(ModelSyntax& syntax, const std::string& directory, std::vector<ModelDiagnostic>& errors)
{
    bool any = false;
    for (const auto& st : syntax.statements)
        any = any || std::holds_alternative<IncludeStatement>(st);
    if (!any)
        return;
    Expander expander(syntax.origins, errors);
    syntax.statements = expander.expand(syntax.statements, fs::path(directory.empty() ? "." : directory));
}

ModelDiagnostic placeInText(ModelDiagnostic d, const std::vector<SubModelOrigin>& origins)
{
    while (d.where.origin > 0 && static_cast<std::size_t>(d.where.origin) <= origins.size()) {
        const SubModelOrigin& o = origins[static_cast<std::size_t>(d.where.origin - 1)];
        std::string place = o.file;
        if (d.where.line > 0) {
            place += ":" + std::to_string(d.where.line);
            if (d.where.column > 0)
                place += ":" + std::to_string(d.where.column);
        }
        d.message = "in sub-model " + o.name + " (" + place + "): " + d.message;
        d.where = o.include;
    }
    return d;
}

bool includesSubModels(std::string_view original)
{
    const std::string normalized = normalizedModelText(original);  // lines as the parser sees them
    const std::string_view text = normalized;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        const std::size_t first = line.find_first_not_of(" \t");
        if (first != std::string_view::npos && line.substr(first).starts_with("include")) {
            const std::size_t quote = line.find_first_not_of(" \t", first + 7);
            if (quote != std::string_view::npos && line[quote] == '"' && first + 7 < line.size() &&
                (line[first + 7] == ' ' || line[first + 7] == '\t' || line[first + 7] == '"'))
                return true;
        }
        start = end + 1;
    }
    return false;
}

std::string includeDirectory(const std::string& source)
{
    std::string file = source;
    if (file.ends_with(":model"))
        file.resize(file.size() - 6);
    if (file.empty() || file.front() == '<')
        return {};
    return fs::path(file).parent_path().string();
}

}  // namespace sysid::model
