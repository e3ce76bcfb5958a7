#pragma once

#include <ginac/ex.h>  // not ginac.h: see Model.h
#include <ginac/operators.h>

#include <string>
#include <vector>

namespace sysid::model {

// What a model's bond graph became: each bond with its causality and its effort and flow in terms
// of the states (C displacements, I momenta), parameters, inputs and t, for `sysid check
// --equations` and the derived-equations dialog. The state equations themselves are the model's
// ordinary first-order states.
struct BondGraphBond {
    int number = 0;  // 1, 2, ... in the order the bonds are written
    std::string tail, head;  // "Se supply", "1-junction circuit": the half-arrow points from tail to head
    bool tailSetsEffort = true;  // the causal stroke is at the head: the tail sets the effort, the head the flow
    std::string causality;  // for a bond of a storage element or resistor: "integral", "resistance", ...
    GiNaC::ex effort, flow;
};

struct BondGraphInfo {
    std::vector<std::string> nodes;  // "Se actuator", "1-junction motion": the elements and junctions as written
    std::vector<BondGraphBond> bonds;
    // Algebraic loops (zero-order causal paths) solved symbolically, named by their elements.
    std::vector<std::string> loops;
    bool empty() const { return bonds.empty(); }
};

// The bond graph's part of `sysid check --equations`: each bond with its causality, effort and flow.
std::string describeBondGraph(const BondGraphInfo& graph);
// One line for `sysid check`: the elements and junctions and how many bonds join them.
std::string bondGraphSummary(const BondGraphInfo& graph);

}  // namespace sysid::model
