#include "engine/core/AtomicFile.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sysid::core {

namespace {

std::string folderOf(const std::string& path)
{
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The rename is durable only once the folder's entry is on the disk too; a folder that cannot
// be opened or synced (some file systems refuse) leaves the file written all the same.
void syncFolder(const std::string& path)
{
    const int fd = ::open(folderOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

FileWriteError::FileWriteError(std::string path_, std::string message_) :
    std::runtime_error(path_.empty() ? message_ : path_ + ": " + message_), path(std::move(path_)),
    message(std::move(message_))
{
}

std::string temporaryPathFor(const std::string& path)
{
    return path + ".tmp";
}

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
    if (path.empty())
        throw FileWriteError("", "no file name given; expected the path of the file to write");
    const std::string temporary = temporaryPathFor(path);
    struct stat existing {};
    const bool replaces = ::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        throw FileWriteError(path, "cannot create the temporary file " + temporary + ": " + std::strerror(errno));
    auto fail = [&](const std::string& what) {
        const std::string reason = std::strerror(errno);
        ::unlink(temporary.c_str());
        throw FileWriteError(path, what + ": " + reason);
    };
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            ::close(fd);
            errno = error;
            fail("cannot write the temporary file " + temporary);
        }
        written += static_cast<std::size_t>(n);
    }
    if (replaces)
        ::fchmod(fd, existing.st_mode & 07777);
    if (::fsync(fd) != 0) {
        const int error = errno;
        ::close(fd);
        errno = error;
        fail("cannot write the temporary file " + temporary);
    }
    if (::close(fd) != 0)
        fail("cannot write the temporary file " + temporary);
    if (::rename(temporary.c_str(), path.c_str()) != 0)
        fail("cannot replace the file with " + temporary);
    syncFolder(path);
}

}  // namespace sysid::core
