#include "engine/model/ModelFile.h"

#include "engine/core/InputFile.h"
#include "engine/model/ModelError.h"

#include <algorithm>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

namespace sysid::model {

std::optional<std::string> readModelFile(const std::string& path, std::string& problem)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    // Checked before opening: opening a pipe blocks until someone writes to it.
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        problem = "cannot open the model file (does it exist and is it readable?)";
        return std::nullopt;
    }
    if (fs::is_directory(status)) {
        problem = "is a folder, not a model file";
        return std::nullopt;
    }
    if (!fs::is_regular_file(status)) {
        problem = "is not a regular file (a device, a pipe or a socket); a model is read from a text file";
        return std::nullopt;
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > kMaxModelFileBytes) {
        problem = "the file has " + std::to_string(size) + " bytes, more than a model file may have (" +
            std::to_string(kMaxModelFileBytes >> 20) + " MiB)";
        return std::nullopt;
    }
    // POSIX calls rather than an ifstream, whose set-up costs more than reading a model; O_NONBLOCK:
    // a pipe swapped in after the check fails the read instead of blocking it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        problem = "cannot open the model file (does it exist and is it readable?)";
        return std::nullopt;
    }
    // The size may change between the check and the read: stop one chunk past the limit.
    std::string text;
    text.reserve(static_cast<std::size_t>(std::min<std::uintmax_t>(ec ? 0 : size, kMaxModelFileBytes)));
    const bool read = core::readToEnd(fd, text, kMaxModelFileBytes);
    ::close(fd);
    if (!read) {
        problem = "cannot read the model file";
        return std::nullopt;
    }
    if (text.size() > kMaxModelFileBytes) {
        problem =
            "the file has more bytes than a model file may have (" + std::to_string(kMaxModelFileBytes >> 20) + " MiB)";
        return std::nullopt;
    }
    return text;
}

std::string readModelFileOrThrow(const std::string& path)
{
    std::string problem;
    std::optional<std::string> text = readModelFile(path, problem);
    if (!text)
        throw ModelError(path, {{{}, problem}});
    return std::move(*text);
}

}  // namespace sysid::model
