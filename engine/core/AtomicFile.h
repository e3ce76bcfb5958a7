#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace sysid::core {

// Why writeFileAtomically or checkCanWrite failed. what() reads "PATH: message"; `message`
// names the step that failed and the system's reason.
class FileWriteError : public std::runtime_error {
public:
    FileWriteError(std::string path, std::string message);

    std::string path;  // the target as given
    std::string message;  // without the path
};

// The one way sysid writes a file (results, CSV, projects, autosave, reports, figures):
// the bytes go to a new temporary file in PATH's folder that nobody else can have opened
// (an unnamed O_TMPFILE, else a random name created with O_EXCL|O_NOFOLLOW), are flushed to
// the disk (fsync) and the file is renamed onto PATH. So PATH is either the old file or the
// whole new one; writers racing for the same PATH all succeed and the last rename wins; a
// process killed while writing leaves no temporary behind (the unnamed file vanishes with it).
// A replaced file keeps its permissions. PATH itself is refused when it exists and is not a
// regular file (a symbolic link, a device, a FIFO, a folder): sysid replaces only files.
// On any failure PATH is left as it was, no temporary remains, and FileWriteError names PATH.
void writeFileAtomically(const std::string& path, std::string_view bytes);

// What writeFileAtomically checks and tries before it writes, without writing: PATH is not a
// folder, link or device, its folder exists, and a file can be created there. For checking an
// output's place before long work rather than after it.
void checkCanWrite(const std::string& path);

}  // namespace sysid::core
