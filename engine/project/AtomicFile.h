#pragma once

#include <string>

namespace sysid::project {

// Writes `text` to PATH.tmp, flushes it and renames it to PATH: PATH is never half-written.
// On any failure PATH.tmp is removed, PATH is left as it was, and ProjectError (naming PATH)
// is thrown.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace sysid::project
