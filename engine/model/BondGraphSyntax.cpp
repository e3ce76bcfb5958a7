#include "engine/model/BondGraphSyntax.h"

namespace sysid::model {

std::string bondNodeTitle(BondNodeKind kind, const std::string& name)
{
    if (isJunction(kind))
        return std::string(bondNodeTable.name(kind)) + "-junction " + name;
    return std::string(bondNodeTable.name(kind)) + " " + name;
}

}  // namespace sysid::model
