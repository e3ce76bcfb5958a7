#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <memory>
#include <string>

namespace sysid::eval {

// Compiled models kept between runs, beside their native code (nativeCacheDirectory), so that a
// run of an unchanged model neither parses nor differentiates it again. An entry is found by the
// model's text, its source name (it appears in messages), the compile options and the build of
// sysid that compiled it (the ELF build ID of the executable), and is checked against all of them
// in full: another build, text or option never reads it. Off when SYSID_MODEL_CACHE=off, and
// where the build has no ID.
class CompiledModelCache {
public:
    CompiledModelCache(const std::string& text, const std::string& source, CompileOptions options);

    // The model compiled by an earlier run, or null (none, another key, unreadable, damaged).
    std::shared_ptr<CompiledModelSource> find() const;
    // Keeps `model` for later runs; a cache that cannot be written is passed over in silence.
    void keep(const CompiledModelSource& model) const;
    // The entry's file stem, a hash of everything it is found by; empty when the cache is off.
    const std::string& name() const { return name_; }

private:
    std::string key_;  // empty: the cache is off
    std::string name_;
};

}  // namespace sysid::eval
