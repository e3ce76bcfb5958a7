#pragma once

#include "engine/model/ModelError.h"
#include "engine/model/ModelSyntax.h"

#include <string_view>
#include <vector>

namespace sysid::model {

// Parses model text into statements. Syntax errors are appended to `errors`; the parser
// skips to the next line after each one so that every broken line is reported.
ModelSyntax parseModelSyntax(std::string_view text, std::vector<ModelDiagnostic>& errors);

}  // namespace sysid::model
