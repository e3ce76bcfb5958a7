#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace sysid::core {

// Why writeFileAtomically failed. what() reads "PATH: message"; `message` names the step that
// failed, the temporary file and the system's reason.
class FileWriteError : public std::runtime_error {
public:
    FileWriteError(std::string path, std::string message);

    std::string path;  // the target as given
    std::string message;  // without the path
};

// The temporary file writeFileAtomically writes first: PATH.tmp, beside the target.
std::string temporaryPathFor(const std::string& path);

// The one way sysid replaces a file: writes `bytes` to PATH.tmp, flushes it to the disk (fsync)
// and renames it onto PATH, so PATH is either the old file or the whole new one, never half of
// it. A file that is replaced keeps its permissions. On any failure PATH.tmp is removed, PATH
// is left as it was, and FileWriteError names PATH.
void writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace sysid::core
