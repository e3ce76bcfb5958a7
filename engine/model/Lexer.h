#pragma once

#include "engine/model/ModelError.h"
#include "engine/model/Token.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace sysid::model {

// A model this long is not written by hand; the limit keeps the tokens (and the expressions made
// of them) within a few hundred megabytes.
constexpr std::size_t kMaxTokens = std::size_t{1} << 20;

// Splits model text into tokens; '#' comments are dropped, line ends become separators.
// Lexical errors are appended to `errors` and the offending character is skipped.
std::vector<Token> tokenize(std::string_view text, std::vector<ModelDiagnostic>& errors);

}  // namespace sysid::model
