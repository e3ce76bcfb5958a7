#include "engine/model/ModelParameter.h"

namespace sysid::model {

std::string unitOfParameter(const std::vector<Parameter>& parameters, std::string_view name)
{
    const std::string_view own = name.substr(0, name.find('#'));
    for (const Parameter& p : parameters)
        if (p.name == own)
            return p.unit;
    return {};
}

}  // namespace sysid::model
