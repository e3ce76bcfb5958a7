#include "engine/model/BuildScope.h"

#include <sstream>

namespace sysid::model {

void fail(SourceLocation where, std::string message)
{
    throw BuildFailure{{where, std::move(message)}};
}

std::string at(SourceLocation where)
{
    return "line " + std::to_string(where.line);
}

std::string formatNumber(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

std::string kindWord(NameKind k)
{
    switch (k) {
    case NameKind::Parameter: return "a parameter";
    case NameKind::FirstOrderState: return "a state";
    case NameKind::SecondOrderCoordinate: return "a second-order coordinate";
    case NameKind::LagrangeCoordinate: return "a Lagrangian coordinate";
    case NameKind::Input: return "an input";
    case NameKind::Let: return "an intermediate (let)";
    case NameKind::Output: return "an output";
    case NameKind::Field: return "a field";
    case NameKind::FieldVariable: return "a field variable";
    case NameKind::FieldDerivative: return "a derivative of a field";
    case NameKind::NodeParameter: return "a per-node parameter";
    case NameKind::BondElement: return "a bond-graph element";
    case NameKind::BondVariable: return "a bond-graph variable";
    case NameKind::Algebraic: return "an algebraic variable";
    case NameKind::Multiplier: return "a constraint's multiplier";
    }
    return "a name";
}

}  // namespace sysid::model
