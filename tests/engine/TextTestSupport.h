#pragma once
// Files and texts in the engine tests: the bundled examples, whole files read back, substrings,
// and the message of an expected exception.

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>

namespace sysid::test {

// resources/examples/, with the trailing slash.
inline const std::string kExamples = SYSID_SOURCE_DIR "/resources/examples/";

// The whole file, byte for byte; empty when it cannot be read.
inline std::string slurp(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

// what() of the exception E thrown by f, or a note that none (or another) was thrown.
template <class E>
std::string messageOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const E& e) {
        return e.what();
    } catch (...) {
        return "(another exception)";
    }
    return "(no exception)";
}

}  // namespace sysid::test
