#include "engine/project/AtomicFile.h"

#include "engine/core/AtomicFile.h"
#include "engine/project/ProjectError.h"

namespace sysid::project {

void writeFileAtomically(const std::string& path, const std::string& text)
{
    try {
        core::writeFileAtomically(path, text);
    } catch (const core::FileWriteError& e) {
        throw ProjectError(e.path, "", e.message);
    }
}

}  // namespace sysid::project
