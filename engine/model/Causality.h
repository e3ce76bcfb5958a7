#pragma once

#include "engine/model/BondGraphSyntax.h"

#include <cstddef>
#include <string>
#include <vector>

namespace sysid::model {

// Causality of a bond graph by the sequential causality assignment procedure (SCAP) of Karnopp,
// Margolis & Rosenberg (System Dynamics, ch. 5): sources first (fixed causality), then the storage
// elements in their preferred integral causality, then the resistors, each assignment propagated
// through the junctions, transformers and gyrators before the next; bonds still free after that
// (loops of junctions) are chosen arbitrarily and propagated. The graph here is reduced to what
// causality depends on; which end of each bond sets its effort is the answer.

struct CausalNode {
    BondNodeKind kind;
    // A resistor's causality is free: true when its law gives e from f, so that it prefers to set the
    // effort of its bond (resistance causality); false when the law gives f from e.
    bool resistorSetsEffort = true;
};

struct CausalEdge {
    std::size_t tail = 0, head = 0;  // the half-arrow (positive power) points from tail to head
};

enum class EffortEnd { Unset, Tail, Head };  // the end of a bond whose node sets the bond's effort

struct CausalityProblem {
    enum class Kind {
        SourceConflict,  // a source's bond was already given the other causality by an earlier source
        JunctionConflict,  // propagation left a junction, transformer or gyrator with no consistent causality
        Derivative,  // a storage element forced into derivative causality (dependent storage)
    };
    Kind kind;
    std::size_t node = 0;  // the source or storage element whose step met the problem
    std::size_t at = 0;  // the junction, transformer or gyrator where it was found (JunctionConflict)
    // The elements whose steps fixed the bonds involved (the other source, the other storage element).
    std::vector<std::size_t> causes;
};

struct CausalityResult {
    std::vector<EffortEnd> effort;  // per bond
    // Per bond: the node whose step fixed the bond's causality; npos for a bond chosen arbitrarily.
    std::vector<std::size_t> cause;
    std::vector<CausalityProblem> problems;  // empty: a causal graph with every storage element integral
};

CausalityResult assignCausality(const std::vector<CausalNode>& nodes, const std::vector<CausalEdge>& edges);

// Whether node `node` sets the effort of bond `edge` under `effort`.
bool setsEffort(const CausalEdge& edge, EffortEnd effort, std::size_t node);

}  // namespace sysid::model
