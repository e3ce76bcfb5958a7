#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sysid::model {

// A model is text a person writes; a file larger than this is not one (and reading it whole
// would only exhaust memory).
constexpr std::uintmax_t kMaxModelFileBytes = std::uintmax_t{16} << 20;

// The text of the model file at `path`, read only when it is a regular file (not a folder, a
// device such as /dev/zero or a pipe) of at most kMaxModelFileBytes; otherwise nothing, and
// `problem` says why in words for the user.
std::optional<std::string> readModelFile(const std::string& path, std::string& problem);

// The same, throwing a ModelError naming the file.
std::string readModelFileOrThrow(const std::string& path);

}  // namespace sysid::model
