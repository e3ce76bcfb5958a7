#include "engine/model/BondGraph.h"

#include <ginac/ginac.h>

#include <sstream>

namespace sysid::model {

std::string describeBondGraph(const BondGraphInfo& graph)
{
    std::ostringstream out;
    out << "bond graph: " << graph.bonds.size()
        << " bonds, causality assigned sequentially (Karnopp, Margolis & Rosenberg);\n"
           "  the half-arrow (positive power) points from the first node to the second\n";
    for (const BondGraphBond& b : graph.bonds) {
        const std::string& effortSide = b.tailSetsEffort ? b.tail : b.head;
        const std::string& flowSide = b.tailSetsEffort ? b.head : b.tail;
        out << "  bond " << b.number << ": " << b.tail << " -> " << b.head;
        if (!b.causality.empty())
            out << " (" << b.causality << ")";
        out << "\n    effort from " << effortSide << ": e = " << b.effort << "\n    flow from " << flowSide
            << ": f = " << b.flow << "\n";
    }
    for (const std::string& loop : graph.loops)
        out << "  algebraic loop through " << loop << ", solved as a linear system\n";
    return out.str();
}

std::string bondGraphSummary(const BondGraphInfo& graph)
{
    std::string out = "bond graph (" + std::to_string(graph.bonds.size()) + " bonds):";
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        out += (i == 0 ? " " : ", ") + graph.nodes[i];
    return out + "\n";
}

}  // namespace sysid::model
