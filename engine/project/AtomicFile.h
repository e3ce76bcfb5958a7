#pragma once

#include <string>

namespace sysid::project {

// core::writeFileAtomically for project and result files: a failure is a ProjectError naming PATH.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace sysid::project
