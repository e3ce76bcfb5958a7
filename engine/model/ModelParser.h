#pragma once

#include "engine/model/ModelError.h"
#include "engine/model/ModelSyntax.h"

#include <string>
#include <string_view>
#include <vector>

namespace sysid::model {

// How deep parentheses, function calls and powers may nest in one expression.
constexpr int kMaxNesting = 100;

// Model text as the parser reads it: without a leading UTF-8 byte-order mark, every line ending
// (CR LF, CR) a plain LF.
std::string normalizedModelText(std::string_view text);

// Parses model text into statements. Syntax errors are appended to `errors`; the parser
// skips to the next line after each one so that every broken line is reported.
ModelSyntax parseModelSyntax(std::string_view text, std::vector<ModelDiagnostic>& errors);

}  // namespace sysid::model
