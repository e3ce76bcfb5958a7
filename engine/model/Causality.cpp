#include "engine/model/Causality.h"

#include <algorithm>
#include <deque>
#include <optional>

namespace sysid::model {

bool setsEffort(const CausalEdge& edge, EffortEnd effort, std::size_t node)
{
    return (effort == EffortEnd::Tail && edge.tail == node) || (effort == EffortEnd::Head && edge.head == node);
}

namespace {

constexpr std::size_t none = static_cast<std::size_t>(-1);

class Assignment {
public:
    Assignment(const std::vector<CausalNode>& nodes, const std::vector<CausalEdge>& edges) :
        nodes_(nodes), edges_(edges), bondsOf_(nodes.size())
    {
        result_.effort.assign(edges.size(), EffortEnd::Unset);
        result_.cause.assign(edges.size(), none);
        for (std::size_t b = 0; b < edges.size(); ++b) {
            bondsOf_[edges[b].tail].push_back(b);
            bondsOf_[edges[b].head].push_back(b);
        }
    }

    CausalityResult run()
    {
        // 1-3: every source, its causality fixed, propagated.
        for (std::size_t n = 0; n < nodes_.size() && !stopped(); ++n)
            if (isSource(nodes_[n].kind))
                step(n, nodes_[n].kind == BondNodeKind::EffortSource, CausalityProblem::Kind::SourceConflict);
        // 4-6: every storage element in integral causality: a C sets its effort from q, an I its flow from p.
        for (std::size_t n = 0; n < nodes_.size() && !stopped(); ++n)
            if (isStorage(nodes_[n].kind))
                step(n, nodes_[n].kind == BondNodeKind::Capacitor, CausalityProblem::Kind::Derivative);
        // 7-9: every resistor still free, in the causality its law is written in.
        for (std::size_t n = 0; n < nodes_.size() && !stopped(); ++n)
            if (nodes_[n].kind == BondNodeKind::Resistor)
                step(n, nodes_[n].resistorSetsEffort, std::nullopt);
        // Bonds between junctions left free (a loop of junctions, transformers and gyrators): any choice.
        for (std::size_t b = 0; b < edges_.size() && !stopped(); ++b)
            if (result_.effort[b] == EffortEnd::Unset) {
                assign(b, EffortEnd::Tail, none);
                propagate(none);
            }
        return std::move(result_);
    }

private:
    bool stopped() const
    {
        return std::any_of(result_.problems.begin(), result_.problems.end(), [](const CausalityProblem& p) {
            return p.kind != CausalityProblem::Kind::Derivative;
        });
    }

    // A one-port's step: its bond gets the causality in which the element sets its effort (or not),
    // unless an earlier step already fixed it; `clash` is the problem when it was fixed the other way
    // (none for a resistor, which takes either).
    void step(std::size_t n, bool elementSetsEffort, std::optional<CausalityProblem::Kind> clash)
    {
        const std::size_t b = bondsOf_[n].front();
        const CausalEdge& e = edges_[b];
        const std::size_t other = e.tail == n ? e.head : e.tail;
        const EffortEnd wanted = (elementSetsEffort ? n : other) == e.tail ? EffortEnd::Tail : EffortEnd::Head;
        if (result_.effort[b] == EffortEnd::Unset) {
            assign(b, wanted, n);
            propagate(n);
            return;
        }
        if (result_.effort[b] != wanted && clash)
            result_.problems.push_back({*clash, n, other, {result_.cause[b]}});
    }

    void assign(std::size_t b, EffortEnd end, std::size_t cause)
    {
        result_.effort[b] = end;
        result_.cause[b] = cause;
        pending_.push_back(edges_[b].tail);
        pending_.push_back(edges_[b].head);
    }

    // Marks every causality the assignments so far force through junctions, transformers and
    // gyrators (the notes' "mark the causalities that follow uniquely").
    void propagate(std::size_t cause)
    {
        while (!pending_.empty() && !stopped()) {
            const std::size_t n = pending_.front();
            pending_.pop_front();
            const BondNodeKind kind = nodes_[n].kind;
            if (isJunction(kind))
                propagateJunction(n, cause);
            else if (isTwoPort(kind))
                propagateTwoPort(n, cause);
        }
        pending_.clear();
    }

    // A 0-junction has exactly one bond that brings its effort in; a 1-junction exactly one whose
    // effort it sets (the bond that brings its flow in). `strong` counts those bonds.
    void propagateJunction(std::size_t n, std::size_t cause)
    {
        const bool zero = nodes_[n].kind == BondNodeKind::ZeroJunction;
        std::vector<std::size_t> strong, free;
        for (std::size_t b : bondsOf_[n]) {
            if (result_.effort[b] == EffortEnd::Unset)
                free.push_back(b);
            else if (setsEffort(edges_[b], result_.effort[b], n) != zero)
                strong.push_back(b);
        }
        if (strong.size() > 1) {
            conflict(n, cause, strong);
            return;
        }
        if (strong.size() == 1) {
            for (std::size_t b : free)
                assign(b, endFor(b, n, zero), cause);
            return;
        }
        if (free.size() == 1)
            assign(free.front(), endFor(free.front(), n, !zero), cause);
        else if (free.empty())
            conflict(n, cause, bondsOf_[n]);
    }

    // A transformer passes effort one way and flow the other: it sets the effort of exactly one port.
    // A gyrator sets both efforts or both flows.
    void propagateTwoPort(std::size_t n, std::size_t cause)
    {
        const std::size_t b1 = bondsOf_[n][0], b2 = bondsOf_[n][1];
        const bool gyrator = nodes_[n].kind == BondNodeKind::Gyrator;
        const bool set1 = result_.effort[b1] != EffortEnd::Unset, set2 = result_.effort[b2] != EffortEnd::Unset;
        if (set1 && set2) {
            const bool s1 = setsEffort(edges_[b1], result_.effort[b1], n);
            const bool s2 = setsEffort(edges_[b2], result_.effort[b2], n);
            if ((s1 == s2) != gyrator)
                conflict(n, cause, {b1, b2});
            return;
        }
        if (set1 == set2)
            return;
        const std::size_t known = set1 ? b1 : b2, other = set1 ? b2 : b1;
        const bool setsKnown = setsEffort(edges_[known], result_.effort[known], n);
        assign(other, endFor(other, n, gyrator ? setsKnown : !setsKnown), cause);
    }

    // The end of bond b that sets its effort when node n does (nodeSets) or does not.
    EffortEnd endFor(std::size_t b, std::size_t n, bool nodeSets) const
    {
        const bool tailIsNode = edges_[b].tail == n;
        return tailIsNode == nodeSets ? EffortEnd::Tail : EffortEnd::Head;
    }

    void conflict(std::size_t at, std::size_t cause, const std::vector<std::size_t>& bonds)
    {
        CausalityProblem p{CausalityProblem::Kind::JunctionConflict, cause, at, {}};
        for (std::size_t b : bonds)
            if (result_.cause[b] != none &&
                std::find(p.causes.begin(), p.causes.end(), result_.cause[b]) == p.causes.end())
                p.causes.push_back(result_.cause[b]);
        result_.problems.push_back(std::move(p));
    }

    const std::vector<CausalNode>& nodes_;
    const std::vector<CausalEdge>& edges_;
    std::vector<std::vector<std::size_t>> bondsOf_;
    std::deque<std::size_t> pending_;
    CausalityResult result_;
};

}  // namespace

CausalityResult assignCausality(const std::vector<CausalNode>& nodes, const std::vector<CausalEdge>& edges)
{
    return Assignment(nodes, edges).run();
}

}  // namespace sysid::model
