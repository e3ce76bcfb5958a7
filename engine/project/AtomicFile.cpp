#include "engine/project/AtomicFile.h"

#include "engine/project/ProjectError.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace sysid::project {

namespace {

std::string lastError()
{
    return std::strerror(errno);
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& text)
{
    if (path.empty())
        throw ProjectError("", "", "no file name given");
    const std::string temporary = path + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        throw ProjectError(path, "", "cannot write " + temporary + ": " + lastError());
    auto fail = [&](const std::string& what) {
        const std::string reason = lastError();
        ::unlink(temporary.c_str());
        throw ProjectError(path, "", what + ": " + reason);
    };
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            ::close(fd);
            fail("cannot write " + temporary);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        ::close(fd);
        fail("cannot write " + temporary);
    }
    if (::close(fd) != 0)
        fail("cannot write " + temporary);
    if (::rename(temporary.c_str(), path.c_str()) != 0)
        fail("cannot rename " + temporary + " to it");
}

}  // namespace sysid::project
