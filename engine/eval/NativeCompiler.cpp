#include "engine/eval/NativeCompiler.h"

#include "engine/core/InputFile.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sysid::eval {

namespace {

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

// FNV-1a (Fowler, Noll and Vo), 64 bits.
std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ull)
{
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

std::string hex(std::uint64_t value)
{
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

// A name no other thread or process uses: the process id and a counter.
std::string uniqueSuffix()
{
    static std::atomic<unsigned> counter{0};
    return "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
}

bool writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

std::string firstLine(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.find("error") != std::string::npos)
            return line;
    in.clear();
    in.seekg(0);
    std::getline(in, line);
    return line;
}

std::vector<std::string> words(const std::string& command)
{
    std::istringstream in(command);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

}  // namespace

std::filesystem::path nativeCacheDirectory()
{
    if (const auto own = environment("SYSID_NATIVE_CACHE"); !own.empty())
        return own;
    if (const auto xdg = environment("XDG_CACHE_HOME"); !xdg.empty())
        return std::filesystem::path(xdg) / "sysid" / "native";
    if (const auto home = environment("HOME"); !home.empty())
        return std::filesystem::path(home) / ".cache" / "sysid" / "native";
    return std::filesystem::temp_directory_path() / "sysid-native";
}

std::string nativeCompiler()
{
    const auto own = environment("SYSID_CC");
    return own.empty() ? "cc" : own;
}

const char* nativeCompilerOptions()
{
    return "-O2 -fPIC -shared -ffp-contract=off -fno-math-errno";
}

std::string nativeCacheStem(const std::string& text)
{
    return cacheStem(nativeCompiler() + "\n" + nativeCompilerOptions() + "\n" + text);
}

std::string cacheStem(std::string_view key)
{
    // Different offset bases make the two hashes independent.
    return hex(fnv1a(key)) + hex(fnv1a(key, 0x84222325cbf29ce4ull));
}

bool replaceCacheFile(const std::filesystem::path& path, const std::string& bytes)
{
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    const std::filesystem::path temporary = path.string() + uniqueSuffix();
    if (!writeText(temporary, bytes)) {
        std::filesystem::remove(temporary, error);
        return false;
    }
    std::filesystem::rename(temporary, path, error);
    if (!error)
        return true;
    std::filesystem::remove(temporary, error);
    return false;
}

void linkCacheFile(const std::filesystem::path& file, const std::filesystem::path& name)
{
    std::error_code error;
    const std::filesystem::path temporary = name.string() + uniqueSuffix();
    std::filesystem::create_hard_link(file, temporary, error);
    if (error) {
        error.clear();
        std::filesystem::copy_file(file, temporary, error);
    }
    if (!error)
        std::filesystem::rename(temporary, name, error);
    if (error)
        std::filesystem::remove(temporary, error);
}

std::string readCacheFile(const std::filesystem::path& path)
{
    // Read with POSIX calls: an ifstream's set-up and its copy character by character took 50 000
    // instructions for a 5 kB entry, a tenth of a short command's own work.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return {};
    std::string bytes;
    const bool read = core::readToEnd(fd, bytes, std::numeric_limits<std::uint64_t>::max());
    ::close(fd);
    return read ? bytes : std::string();  // unreadable: as if absent
}

CompileOutcome compileSharedObject(const std::string& text, const std::filesystem::path& library,
                                   const std::function<void(pid_t)>& started)
{
    CompileOutcome outcome;
    std::error_code error;
    std::filesystem::create_directories(library.parent_path(), error);
    if (error) {
        outcome.message = "cannot create " + library.parent_path().string() + " (" + error.message() + ")";
        return outcome;
    }
    const std::string suffix = uniqueSuffix();
    const std::filesystem::path source = library.string() + suffix + ".c";
    const std::filesystem::path object = library.string() + suffix;
    const std::filesystem::path log = library.string() + suffix + ".log";
    auto cleanUp = [&] {
        std::filesystem::remove(source, error);
        std::filesystem::remove(object, error);
        std::filesystem::remove(log, error);
    };
    if (!writeText(source, text)) {
        outcome.message = "cannot write " + source.string();
        cleanUp();
        return outcome;
    }

    std::vector<std::string> arguments = words(nativeCompiler());
    for (const auto& w : words(nativeCompilerOptions()))
        arguments.push_back(w);
    for (const std::string& a : {std::string("-o"), object.string(), source.string(), std::string("-lm")})
        arguments.push_back(a);
    std::vector<char*> argv;
    for (auto& a : arguments)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    // The compiler gets default signal handling (the command line blocks the signals in its own
    // threads to handle them as Cancel) and a process group of its own, so that stopping it
    // (stopNativeBuilds, the end of the process) stops the compiler proper that the driver started.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, argv.front(), &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        outcome.noCompiler = true;
        outcome.message = "no C compiler '" + nativeCompiler() + "' (" + std::strerror(spawned) + ")";
        cleanUp();
        return outcome;
    }
    if (started)
        started(pid);
    int status = 0;
    pid_t waited = -1;
    do
        waited = ::waitpid(pid, &status, 0);
    while (waited < 0 && errno == EINTR);
    if (started)
        started(-1);
    if (waited < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
            outcome.noCompiler = true;
            outcome.message = "no C compiler '" + nativeCompiler() + "'";
        } else {
            const std::string line = firstLine(log);
            outcome.message = "the C compiler '" + nativeCompiler() + "' failed" +
                (WIFSIGNALED(status) ? " (stopped by signal " + std::to_string(WTERMSIG(status)) + ")" : "") +
                (line.empty() ? std::string() : ": " + line);
        }
        cleanUp();
        return outcome;
    }
    // The library first, then its source: a reader that finds the source finds the library.
    std::filesystem::rename(object, library, error);
    if (!error) {
        std::filesystem::path kept = library;
        kept.replace_extension(".c");
        std::filesystem::rename(source, kept, error);
    }
    if (error) {
        outcome.message = "cannot write " + library.string() + " (" + error.message() + ")";
        cleanUp();
        return outcome;
    }
    std::filesystem::remove(log, error);
    outcome.ok = true;
    return outcome;
}

}  // namespace sysid::eval
