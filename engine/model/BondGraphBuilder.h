#pragma once

#include "engine/model/BondGraph.h"
#include "engine/model/BondGraphSyntax.h"
#include "engine/model/BuildScope.h"

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sysid::model {

// The bond-graph part of building a model: elements, junctions, transformers and gyrators
// (BondGraphStatement), their bonds, causality (Causality.h) and the state equations, with C
// displacements (spring.q) and I momenta (mass.p) as states. ModelBuilder owns the names and
// expressions (NameScope) and the states; it calls these steps in its order:
//   declare (each statement) -> derive (after the parameters and intermediates) -> stateEquations.
// An element's effort and flow (spring.e, spring.f; gear.e1 ... of a TF or GY; the common effort of a
// 0-junction, motion.e, or the common flow of a 1-junction, motion.f) may be used in outputs,
// equations and events once the graph is derived.
class BondGraphBuilder {
public:
    BondGraphBuilder(NameScope& scope, std::vector<ModelDiagnostic>& errors) : scope_(scope), errors_(errors) {}

    bool empty() const { return nodes_.empty(); }

    // Declares the node's name and its effort and flow names; a BuildFailure when a name is taken.
    void declare(const BondGraphStatement& s);
    // The state a C (NAME.q) or an I (NAME.p) stores; none for other nodes. ModelBuilder declares it
    // as a first-order state, so initial values (spring.q(0) = 0.1), resets and outputs work as usual.
    static std::optional<NamedPlace> storageState(const BondGraphStatement& s);

    // Bonds, constitutive laws, causality and the state equations; problems go to the errors.
    void derive();
    // After derive() without errors: d/dt of each storage state, by state name.
    const std::vector<std::pair<std::string, GiNaC::ex>>& stateEquations() const { return stateEquations_; }
    const BondGraphInfo& info() const { return info_; }

    // A node's name or one of its variables in an expression.
    GiNaC::ex resolveName(const ExpressionSyntax& e, const Declaration& d, Context ctx);

private:
    struct Node {
        const BondGraphStatement* statement = nullptr;
        std::string title;  // "C spring"
        std::vector<std::size_t> bonds;  // a two-port's input port first
        GiNaC::ex relation;  // source value, the law's right-hand side, or a two-port's modulus
        bool lawGivesEffort = true;  // a C's or R's law gives e, an I's or R's (f = ...) gives f
    };
    struct Bond {
        std::size_t tail = 0, head = 0;
        SourceLocation where;
        GiNaC::symbol effort, flow;
    };
    struct Variable {
        std::size_t node = 0;
        bool effort = true;
        std::size_t port = 0;  // which of the node's bonds
    };
    enum class Phase { Declaring, Law, Derived, Failed };
    static constexpr std::size_t none = static_cast<std::size_t>(-1);

    static std::string joinTitles(const std::vector<std::string>& titles);  // "C a, R b and I c"

    void connect();
    void bondMember(std::size_t junction, const BondName& member);
    void bondPort(std::size_t twoPort, const BondName& port, bool input);
    std::size_t nodeNamed(const BondName& name, const std::string& where);
    void addBond(std::size_t tail, std::size_t head, SourceLocation where);
    void resolveRelation(std::size_t n);
    ExpressionPtr localNames(const ExpressionPtr& e, std::size_t n);
    void reportCausality();
    void solve();
    std::vector<std::optional<GiNaC::ex>> definitions();
    GiNaC::ex lawInverse(std::size_t n, const GiNaC::symbol& argument, const GiNaC::symbol& subject) const;
    void fillInfo();
    std::string variablesOf(std::size_t n) const;
    const GiNaC::symbol& variableSymbol(const Variable& v) const;

    NameScope& scope_;
    std::vector<ModelDiagnostic>& errors_;
    std::vector<Node> nodes_;
    std::vector<Bond> bonds_;
    std::vector<Variable> variables_;
    std::vector<int> effortEnd_;  // per bond: 1 when the tail sets the effort, 0 when the head does
    Phase phase_ = Phase::Declaring;
    std::size_t current_ = 0;  // the node whose relation is being resolved
    std::map<std::string, SourceLocation> localUses_;  // first place of each own variable written bare in a law
    GiNaC::exmap solved_;  // bond symbol -> its value in states, parameters, inputs and t
    std::vector<std::pair<std::string, GiNaC::ex>> stateEquations_;
    BondGraphInfo info_;
};

}  // namespace sysid::model
