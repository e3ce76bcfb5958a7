#include "engine/core/InputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sysid::core {

namespace {

std::string problemOf(const std::string& path, const struct stat& st, std::uint64_t maxBytes, const std::string& what)
{
    if (!S_ISREG(st.st_mode))
        return "is " + fileKindOf(st.st_mode) + ", not " + what;
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes)
        return "is " + describeBytes(static_cast<double>(st.st_size)) + ", more than the " +
            describeBytes(static_cast<double>(maxBytes)) + " sysid reads as " + what;
    (void)path;
    return {};
}

}  // namespace

InputFileError::InputFileError(std::string path_, std::string message_) :
    std::runtime_error(path_ + ": " + message_), path(std::move(path_)), message(std::move(message_))
{
}

std::string fileKindOf(mode_t mode)
{
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISFIFO(mode))
        return "a named pipe (FIFO)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

std::string describeBytes(double bytes)
{
    const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 6) {
        bytes /= 1000.0;
        ++unit;
    }
    char text[48];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%.0f bytes", bytes);
    else
        std::snprintf(text, sizeof text, "%.3g %s", bytes, units[unit]);
    return text;
}

std::string inputFileProblem(const std::string& path, std::uint64_t maxBytes, const std::string& what)
{
    if (path.empty())
        return "no file name given; expected " + what;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return errno == ENOENT ? "file not found; expected " + what
                               : "cannot be accessed: " + std::string(std::strerror(errno));
    return problemOf(path, st, maxBytes, what);
}

std::string readInputFile(const std::string& path, std::uint64_t maxBytes, const std::string& what)
{
    if (const std::string problem = inputFileProblem(path, maxBytes, what); !problem.empty())
        throw InputFileError(path, problem);
    // O_NONBLOCK: a FIFO swapped in after the check must not block the open.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        throw InputFileError(path, "cannot be opened: " + std::string(std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !problemOf(path, st, maxBytes, what).empty()) {
        const std::string problem = problemOf(path, st, maxBytes, what);
        ::close(fd);
        throw InputFileError(path, problem.empty() ? "cannot be examined" : problem);
    }
    std::string text;
    text.reserve(static_cast<std::size_t>(st.st_size));
    const bool read = readToEnd(fd, text, maxBytes);
    const int error = errno;
    ::close(fd);
    if (!read)
        throw InputFileError(path, "cannot be read: " + std::string(std::strerror(error)));
    if (text.size() > maxBytes)
        throw InputFileError(path,
                             "grew beyond the " + describeBytes(static_cast<double>(maxBytes)) + " sysid reads as " +
                                 what + " while it was read");
    return text;
}

bool readToEnd(int fd, std::string& text, std::uint64_t maxBytes)
{
    char buffer[1 << 16];
    while (text.size() <= maxBytes) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            break;
        text.append(buffer, static_cast<std::size_t>(n));
    }
    return true;
}

bool sameFile(const std::string& a, const std::string& b)
{
    struct stat sa {
    }, sb{};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace sysid::core
