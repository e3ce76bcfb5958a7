#pragma once

#include "engine/model/ModelError.h"
#include "engine/model/ModelSyntax.h"

#include <string>
#include <string_view>
#include <vector>

namespace sysid::model {

// Modular modelling (component models joined by constraints): replaces every
// `include "FILE" as NAME (BINDINGS)` of `syntax` by the statements of FILE (read relative to
// `directory`), each of its names prefixed (x becomes NAME.x) and each bound parameter or input
// replaced by its binding, an expression of the including model. Sub-models may include others.
// Their outputs NAME = EXPR become intermediates NAME.NAME (plain outputs are dropped: the including
// model chooses what it measures); fields and bond-graph elements are refused. Problems are appended to `errors`, placed
// in the sub-model file (SourceLocation::origin; see placeInText).
void expandIncludes(ModelSyntax& syntax, const std::string& directory, std::vector<ModelDiagnostic>& errors);

// A problem inside a sub-model as the model text shows it: at the include statement, the message
// saying where in which file ("in sub-model crank (bar.model:3:5): ...").
ModelDiagnostic placeInText(ModelDiagnostic diagnostic, const std::vector<SubModelOrigin>& origins);

// The folder include statements of a model are read from: the folder of `source` when it names a
// file (a trailing ":model" of a project's embedded model is dropped), else the current one.
std::string includeDirectory(const std::string& source);

// Whether model text includes sub-models (a line that starts `include "`): its source must then
// name its file with the folder (the front ends keep the path, a project resolves it on loading).
bool includesSubModels(std::string_view text);

}  // namespace sysid::model
