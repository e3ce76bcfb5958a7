#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include <sys/types.h>

namespace sysid::eval {

// Where compiled model libraries are kept: $SYSID_NATIVE_CACHE, else $XDG_CACHE_HOME/sysid/native,
// else ~/.cache/sysid/native.
std::filesystem::path nativeCacheDirectory();

// The C compiler: $SYSID_CC, else cc. Its options (optimised, position-independent, no
// floating-point contraction, so that the code computes what the interpreter computes).
std::string nativeCompiler();
const char* nativeCompilerOptions();

// The cache's file stem for this C text compiled by this compiler (a hash of both).
std::string nativeCacheStem(const std::string& text);

// A file stem for `key` in the cache: two independent 64-bit hashes, 128 bits against collisions.
std::string cacheStem(std::string_view key);
// Writes `bytes` to `path` under a unique temporary name beside it and renames it into place, so
// that concurrent processes never see a partial file. No fsync: an entry lost to a crash is only
// built again. False, with nothing left behind, when it cannot be written.
bool replaceCacheFile(const std::filesystem::path& path, const std::string& bytes);
// Makes `name` a second name of the cache file `file` (a hard link, else a copy), through a
// temporary renamed into place. Failure is silent: the second name is only a shortcut.
void linkCacheFile(const std::filesystem::path& file, const std::filesystem::path& name);
// The whole file, or "" when it cannot be read.
std::string readCacheFile(const std::filesystem::path& path);

struct CompileOutcome {
    bool ok = false;
    bool noCompiler = false;  // the compiler could not be started
    std::string message;  // why it failed, one line
};

// Compiles C text into a shared object at `library`. Both the source and the library are written
// under unique temporary names beside it and renamed into place, so concurrent processes never
// see a partial file; the source is kept beside the library (`library` with extension .c) so
// that a later run can check that the cached library is of the same text. `started` gets the
// compiler's process id (for cancelling it at exit), then -1 when it has finished.
CompileOutcome compileSharedObject(const std::string& text, const std::filesystem::path& library,
                                   const std::function<void(pid_t)>& started);

}  // namespace sysid::eval
