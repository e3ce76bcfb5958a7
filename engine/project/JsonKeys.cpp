#include "engine/project/JsonKeys.h"

namespace sysid::project {

std::optional<UnknownKey> findUnknownKey(const nlohmann::json& object, std::initializer_list<const char*> known)
{
    for (const auto& item : object.items()) {
        bool found = false;
        for (const char* k : known)
            found = found || item.key() == k;
        if (!found) {
            std::string list;
            for (const char* k : known)
                list += (list.empty() ? "" : ", ") + std::string(k);
            return UnknownKey{item.key(), list};
        }
    }
    return std::nullopt;
}

}  // namespace sysid::project
