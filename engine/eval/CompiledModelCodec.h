#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <memory>
#include <string>
#include <string_view>

namespace sysid::eval {

// A compiled model as bytes and back, for the cache of compiled models (CompiledModelCache):
// every field of CompiledModelSource but its native code and cache name, doubles bit for bit.
// The bytes are for the same build of sysid only (no version of their own: the cache's key
// names the build).
std::string encodeCompiledModel(const CompiledModelSource& model);

// Null when `bytes` are not a whole encoding (truncated, another layout): the caller compiles
// the model again. The model gets native code of its own, not yet requested.
std::shared_ptr<CompiledModelSource> decodeCompiledModel(std::string_view bytes);

}  // namespace sysid::eval
