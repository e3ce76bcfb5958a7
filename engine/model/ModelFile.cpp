#include "engine/model/ModelFile.h"

#include "engine/model/ModelError.h"

#include <filesystem>
#include <fstream>

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
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        problem = "cannot open the model file (does it exist and is it readable?)";
        return std::nullopt;
    }
    // The size may change between the check and the read: stop one chunk past the limit.
    std::string text;
    char chunk[1 << 16];
    while (in && text.size() <= kMaxModelFileBytes) {
        in.read(chunk, sizeof chunk);
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) {
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
