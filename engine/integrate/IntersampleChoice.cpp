#include "engine/integrate/IntersampleChoice.h"

namespace sysid::integrate {

Intersample intersampleOf(const std::string& input, const std::map<std::string, Intersample>& declared,
                          const std::map<std::string, Intersample>& chosen)
{
    if (const auto it = chosen.find(input); it != chosen.end())
        return it->second;
    if (const auto it = declared.find(input); it != declared.end())
        return it->second;
    return Intersample::Linear;
}

std::map<std::string, Intersample> intersampleChoices(const std::map<std::string, Intersample>& declared,
                                                      const std::map<std::string, Intersample>& chosen)
{
    std::map<std::string, Intersample> out = declared;
    for (const auto& [input, behaviour] : chosen)
        out[input] = behaviour;
    return out;
}

}  // namespace sysid::integrate
