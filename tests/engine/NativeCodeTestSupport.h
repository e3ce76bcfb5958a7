#pragma once

// What the tests of native model code and of the compiled-model cache share: the interpreter's
// copy of a compiled model, and an environment variable set for one scope.
#include "engine/eval/CompiledModelSource.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

namespace sysid::test {

// The same model without native code: the interpreter's reference.
inline std::shared_ptr<const eval::CompiledModelSource> interpreted(const eval::CompiledModelSource& source)
{
    auto copy = std::make_shared<eval::CompiledModelSource>(source);
    copy->native = nullptr;
    return copy;
}

struct Environment {
    std::string name, saved;
    bool had = false;
    Environment(std::string variable, const std::string& value) : name(std::move(variable))
    {
        if (const char* old = std::getenv(name.c_str())) {
            had = true;
            saved = old;
        }
        ::setenv(name.c_str(), value.c_str(), 1);
    }
    ~Environment()
    {
        if (had)
            ::setenv(name.c_str(), saved.c_str(), 1);
        else
            ::unsetenv(name.c_str());
    }
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;
};

}  // namespace sysid::test
