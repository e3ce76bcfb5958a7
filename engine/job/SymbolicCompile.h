#pragma once

#include "engine/eval/CompiledModelSource.h"

#include <memory>
#include <string>

namespace sysid::job {

// The symbolic half of compileModelText: parses and differentiates model text on the calling
// thread, holding model::symbolicMutex() (GiNaC is not thread-safe) until the symbolic Model is
// gone. Throws JobError(Model) with the parser's "SOURCE:LINE:COLUMN: message" lines.
// The command line defines its own, which asks its symbolic helper, so that its executable holds
// no GiNaC (app/cli/SymbolicHelper.cpp; docs/DECISIONS.md, "The command line without GiNaC"):
// this file is then not linked.
std::shared_ptr<eval::CompiledModelSource> compileSymbolic(const std::string& text, const std::string& source,
                                                           eval::CompileOptions options);

}  // namespace sysid::job
