#include "engine/core/AtomicFile.h"

#include "engine/core/InputFile.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
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

std::string fileNameOf(const std::string& path)
{
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string reason(int error)
{
    return std::strerror(error);
}

// The target as it is now: absent (false) or a regular file (true, `existing` filled). Anything
// else is refused before a byte is written.
bool inspectTarget(const std::string& path, struct stat& existing)
{
    if (::lstat(path.c_str(), &existing) != 0) {
        if (errno == ENOENT)
            return false;
        throw FileWriteError(path, "cannot be examined: " + reason(errno));
    }
    if (!S_ISREG(existing.st_mode))
        throw FileWriteError(path,
                             "is " + fileKindOf(existing.st_mode) +
                                 "; sysid writes only regular files and does not replace anything else");
    return true;
}

void checkFolder(const std::string& path)
{
    const std::string folder = folderOf(path);
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0)
        throw FileWriteError(
            path,
            "the folder " + folder + " " +
                (errno == ENOENT ? std::string("does not exist") : "cannot be used: " + reason(errno)));
    if (!S_ISDIR(st.st_mode))
        throw FileWriteError(path, folder + " is not a folder");
}

// A name nobody else picks: pid, a counter, the clock and the address of a local, hashed.
std::string uniqueSuffix()
{
    static std::atomic<unsigned long> counter{0};
    unsigned long long x = static_cast<unsigned long long>(::getpid()) * 0x9E3779B97F4A7C15ULL;
    x ^= static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    x ^= (counter.fetch_add(1) + 1) * 0xBF58476D1CE4E5B9ULL;
    int local = 0;
    x ^= reinterpret_cast<std::uintptr_t>(&local);
    x ^= x >> 31;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 29;
    char text[24];
    std::snprintf(text, sizeof text, "%012llx", x & 0xFFFFFFFFFFFFULL);
    return text;
}

std::string temporaryName(const std::string& path)
{
    const std::string folder = folderOf(path);
    const std::string prefix = path.find('/') == std::string::npos ? std::string() : folder + "/";
    return prefix + "." + fileNameOf(path) + "." + uniqueSuffix() + ".tmp";
}

// Creates a fresh temporary file named beside PATH with O_EXCL|O_NOFOLLOW, so a planted file or
// link at that name is never opened; returns its descriptor and sets `name`.
int createNamedTemporary(const std::string& path, std::string& name)
{
    for (int attempt = 0; attempt < 100; ++attempt) {
        name = temporaryName(path);
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

bool writeAll(int fd, std::string_view bytes)
{
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        written += static_cast<std::size_t>(n);
    }
    return true;
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

void checkCanWrite(const std::string& path)
{
    if (path.empty())
        throw FileWriteError("", "no file name given; expected the path of the file to write");
    struct stat existing {};
    inspectTarget(path, existing);
    checkFolder(path);
    int fd = -1;
#ifdef O_TMPFILE
    fd = ::open(folderOf(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ::close(fd);
        return;
    }
#endif
    std::string name;
    fd = createNamedTemporary(path, name);
    if (fd < 0)
        throw FileWriteError(path, "cannot create a file in " + folderOf(path) + ": " + reason(errno));
    ::close(fd);
    ::unlink(name.c_str());
}

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
    if (path.empty())
        throw FileWriteError("", "no file name given; expected the path of the file to write");
    struct stat existing {};
    const bool replaces = inspectTarget(path, existing);
    const std::string folder = folderOf(path);

    // The bytes go first into a file without a name (Linux's O_TMPFILE): killed at any moment
    // before the rename, the process leaves nothing behind. It gets a unique name just before the
    // rename. Where O_TMPFILE is not supported, a named temporary is created exclusively instead.
    std::string name;
    bool named = false;
    int fd = -1;
#ifdef O_TMPFILE
    fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
#endif
    if (fd < 0) {
        fd = createNamedTemporary(path, name);
        if (fd < 0) {
            const int error = errno;
            checkFolder(path);
            throw FileWriteError(path, "cannot create a temporary file in " + folder + ": " + reason(error));
        }
        named = true;
    }
    auto fail = [&](const std::string& what, int error) {
        if (fd >= 0)
            ::close(fd);
        if (named)
            ::unlink(name.c_str());
        throw FileWriteError(path, what + ": " + reason(error));
    };
    if (!writeAll(fd, bytes))
        fail("cannot write the temporary file in " + folder, errno);
    if (replaces) {
        ::fchmod(fd, existing.st_mode & 07777);
        // Kept where allowed (root replacing another's file); otherwise the writer owns it.
        if (::geteuid() == 0 && ::fchown(fd, existing.st_uid, existing.st_gid) != 0) {
            // The writer keeps the file; its content is what matters.
        }
    }
    if (::fsync(fd) != 0)
        fail("cannot write the temporary file in " + folder, errno);
    if (!named) {
        const std::string self = "/proc/self/fd/" + std::to_string(fd);
        for (int attempt = 0; attempt < 100 && !named; ++attempt) {
            name = temporaryName(path);
            if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0)
                named = true;
            else if (errno != EEXIST)
                break;
        }
        if (!named) {
            // No /proc to name the unnamed file by: write it again under a name of its own.
            ::close(fd);
            fd = createNamedTemporary(path, name);
            if (fd < 0)
                throw FileWriteError(path, "cannot create a temporary file in " + folder + ": " + reason(errno));
            named = true;
            if (!writeAll(fd, bytes))
                fail("cannot write the temporary file in " + folder, errno);
            if (replaces)
                ::fchmod(fd, existing.st_mode & 07777);
            if (::fsync(fd) != 0)
                fail("cannot write the temporary file in " + folder, errno);
        }
    }
    if (::close(fd) != 0) {
        fd = -1;
        fail("cannot write the temporary file in " + folder, errno);
    }
    fd = -1;
    // The target may have become something else since it was examined; refuse that too.
    struct stat now {};
    if (::lstat(path.c_str(), &now) == 0 && !S_ISREG(now.st_mode)) {
        ::unlink(name.c_str());
        throw FileWriteError(path,
                             "is " + fileKindOf(now.st_mode) +
                                 "; sysid writes only regular files and does not replace anything else");
    }
    if (::rename(name.c_str(), path.c_str()) != 0)
        fail("cannot replace the file", errno);
    syncFolder(path);
}

}  // namespace sysid::core
