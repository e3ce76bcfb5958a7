#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace sysid::project {

// Deeper nesting than any sysid file has (a project is a few levels deep) is refused when it
// is read: copying, printing and saving a value recurse once per level.
inline constexpr std::size_t kMaxJsonDepth = 128;

// Parses the JSON text of `file` (named in the errors only). Throws ProjectError: for text that
// is not JSON with the line and column, for nesting deeper than kMaxJsonDepth with the key where
// it happens ("last_result.x[0][0]…"). `what` names the kind of file ("project file").
nlohmann::json parseJsonText(const std::string& text, const std::string& file, const std::string& what);

// Reads and parses a JSON file written by sysid (a project, a result): a regular file of at
// most core::kMaxProjectFileBytes, parsed by parseJsonText. Throws ProjectError naming PATH.
nlohmann::json readJsonFile(const std::string& path, const std::string& what);

}  // namespace sysid::project
