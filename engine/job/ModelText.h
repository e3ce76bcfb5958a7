#pragma once

#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeCode.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sysid::job {

// Parses and compiles model text on the calling thread, holding model::symbolicMutex()
// (GiNaC is not thread-safe) until the symbolic Model is gone, and requests its native code
// (eval::requestNativeCode) unless `code` is interpreted. `options` say what the run evaluates:
// second derivatives only where estimate::needsSecondDerivatives or
// integrate::sensitivitiesNeedSecondDerivatives says so, for each job its own.
// Throws JobError(Model) with the parser's "SOURCE:LINE:COLUMN: message" lines.
std::shared_ptr<const eval::CompiledModelSource> compileModelText(const std::string& text, const std::string& source,
                                                                  eval::CompileOptions options,
                                                                  eval::ModelCode code = eval::ModelCode::Native);

// The model's parameter values (model order) with `overrides` (name -> value) applied.
// Throws JobError(Settings) naming an unknown parameter and listing the known ones.
std::vector<double> startingValues(const eval::CompiledModelSource& model,
                                   const std::map<std::string, double>& overrides);

}  // namespace sysid::job
