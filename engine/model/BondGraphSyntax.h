#pragma once

#include "engine/core/EnumTable.h"
#include "engine/model/ExpressionSyntax.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace sysid::model {

// The kinds of bond-graph nodes (Karnopp, Margolis & Rosenberg, System Dynamics), spelled as a
// statement of the model language starts: `Se supply = u`, `C spring = 1/k`, `1 motion : ...`.
enum class BondNodeKind {
    EffortSource,
    FlowSource,
    Capacitor,
    Inertia,
    Resistor,
    Transformer,
    Gyrator,
    ZeroJunction,
    OneJunction,
};

inline constexpr core::EnumTable bondNodeTable{
    "bond-graph element",
    std::array{
        core::EnumSpelling<BondNodeKind>{BondNodeKind::EffortSource, "Se", "effort source: Se NAME = EFFORT",
                                         {}, "effort source"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::FlowSource, "Sf", "flow source: Sf NAME = FLOW", {},
                                         "flow source"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::Capacitor, "C",
                                         "storage of displacement q: C NAME = COMPLIANCE or C NAME : e = LAW(q)",
                                         {}, "C element"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::Inertia, "I",
                                         "storage of momentum p: I NAME = INERTANCE or I NAME : f = LAW(p)", {},
                                         "I element"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::Resistor, "R",
                                         "resistor: R NAME = RESISTANCE, R NAME : e = LAW(f) or R NAME : f = LAW(e)",
                                         {}, "R element"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::Transformer, "TF",
                                         "transformer e1 = n*e2, f2 = n*f1: TF NAME = n : FROM -> TO", {},
                                         "transformer"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::Gyrator, "GY",
                                         "gyrator e1 = r*f2, e2 = r*f1: GY NAME = r : FROM -> TO", {}, "gyrator"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::ZeroJunction, "0",
                                         "0-junction (common effort, flows sum to zero): 0 NAME : MEMBER, ...", {},
                                         "0-junction"},
        core::EnumSpelling<BondNodeKind>{BondNodeKind::OneJunction, "1",
                                         "1-junction (common flow, efforts sum to zero): 1 NAME : MEMBER, ...", {},
                                         "1-junction"},
    }};

inline bool isJunction(BondNodeKind k)
{
    return k == BondNodeKind::ZeroJunction || k == BondNodeKind::OneJunction;
}
inline bool isTwoPort(BondNodeKind k)
{
    return k == BondNodeKind::Transformer || k == BondNodeKind::Gyrator;
}
inline bool isSource(BondNodeKind k)
{
    return k == BondNodeKind::EffortSource || k == BondNodeKind::FlowSource;
}
inline bool isStorage(BondNodeKind k)
{
    return k == BondNodeKind::Capacitor || k == BondNodeKind::Inertia;
}

// "C spring", "1-junction motion": how messages and listings name a node.
std::string bondNodeTitle(BondNodeKind kind, const std::string& name);

// A name as written in a bond-graph statement, with its place.
struct BondName {
    std::string text;
    SourceLocation where;
};

// `e = EXPR` or `f = EXPR` after the ':' of a C, I or R: its constitutive law.
struct BondLawSyntax {
    BondName subject;  // e or f
    ExpressionPtr value;
};

// One statement of a bond graph:
//   Se NAME = EFFORT            Sf NAME = FLOW
//   C NAME = COMPLIANCE         C NAME : e = LAW(q)
//   I NAME = INERTANCE          I NAME : f = LAW(p)
//   R NAME = RESISTANCE         R NAME : e = LAW(f)   or   R NAME : f = LAW(e)
//   TF NAME = MODULUS : FROM -> TO        GY NAME = MODULUS : FROM -> TO
//   0 NAME : MEMBER, MEMBER, ...          1 NAME : MEMBER, MEMBER, ...
struct BondGraphStatement {
    BondNodeKind kind = BondNodeKind::ZeroJunction;
    SourceLocation keyword;
    BondName name;
    ExpressionPtr value;  // after '=': a source's value, a linear C/I/R's parameter, a TF's or GY's modulus
    std::optional<BondLawSyntax> law;
    std::vector<BondName> members;  // a junction's bonded elements and junctions
    BondName from, to;  // a TF's or GY's ports: power flows in at FROM and out at TO
};

}  // namespace sysid::model
