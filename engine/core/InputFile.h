#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <sys/types.h>

namespace sysid::core {

// Why readInputFile refused or failed. what() reads "PATH: message".
class InputFileError : public std::runtime_error {
public:
    InputFileError(std::string path, std::string message);

    std::string path;
    std::string message;  // without the path
};

// The largest files sysid reads whole: a CSV of tens of millions of rows fits, a project or a
// model is far smaller. Beyond these the file is refused before it is read.
inline constexpr std::uint64_t kMaxDataFileBytes = std::uint64_t{2} << 30;  // 2 GiB
inline constexpr std::uint64_t kMaxProjectFileBytes = std::uint64_t{512} << 20;  // 512 MiB

// Reads the whole of a regular file of at most `maxBytes`. `what` names the expected kind
// ("a CSV file", "a project file") in the messages. Refuses, without reading a byte: a path that
// does not exist, a folder, a device (/dev/zero), a FIFO, a socket, and a file larger than
// `maxBytes`; reads at most `maxBytes` + 1 bytes, so a file that grows while read is refused too.
std::string readInputFile(const std::string& path, std::uint64_t maxBytes, const std::string& what);

// Appends what `fd` holds to `text`, to its end or until `text` has more than `maxBytes`; false
// (errno set) on a read error. The one read loop of readInputFile, the model and cache readers.
bool readToEnd(int fd, std::string& text, std::uint64_t maxBytes);

// Why `path` cannot be read as `what`, or "" when it is a regular file within `maxBytes`:
// the check readInputFile makes, for a front end that only names the file.
std::string inputFileProblem(const std::string& path, std::uint64_t maxBytes, const std::string& what);

// Whether two paths name the same file (the same device and inode, whatever the names); false
// when either does not exist.
bool sameFile(const std::string& a, const std::string& b);

// What a file that is not a regular one is, from its st_mode, for messages: "a symbolic link",
// "a folder", "a device", "a named pipe (FIFO)", "a socket", else "not a regular file".
std::string fileKindOf(mode_t mode);

// "1.5 GB" for messages about sizes.
std::string describeBytes(double bytes);

}  // namespace sysid::core
