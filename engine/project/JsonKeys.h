#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>

namespace sysid::project {

// A member of a JSON object that the file format does not define.
struct UnknownKey {
    std::string key;
    std::string known;  // the keys allowed there, comma separated, for the message
};

// The first member of `object` whose key is not in `known`; nothing when all are known.
std::optional<UnknownKey> findUnknownKey(const nlohmann::json& object, std::initializer_list<const char*> known);

}  // namespace sysid::project
