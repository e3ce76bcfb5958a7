#pragma once

#include "engine/model/ModelError.h"
#include "engine/model/Token.h"

#include <string_view>
#include <vector>

namespace sysid::model {

// Splits model text into tokens; '#' comments are dropped, line ends become separators.
// Lexical errors are appended to `errors` and the offending character is skipped.
std::vector<Token> tokenize(std::string_view text, std::vector<ModelDiagnostic>& errors);

}  // namespace sysid::model
