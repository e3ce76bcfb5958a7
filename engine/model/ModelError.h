#pragma once

#include "engine/model/SourceLocation.h"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sysid::model {

struct ModelDiagnostic {
    SourceLocation where;
    std::string message;  // one line: what is wrong and what was expected
};

// At most this many problems are listed: a file that is not a model at all (random bytes, a
// binary) would otherwise give one per character.
constexpr std::size_t kMaxDiagnostics = 100;

// Appends a problem unless kMaxDiagnostics are already listed; the one past the limit says that
// more were left out. Returns whether there is room for more.
bool addDiagnostic(std::vector<ModelDiagnostic>& errors, ModelDiagnostic d);

// A piece of the model text for a message: control characters (terminal escape sequences)
// shown as \xNN and anything longer than `limit` characters cut short with "...".
std::string quoted(std::string_view text, std::size_t limit = 40);

// Thrown when a model cannot be built; holds every problem found, in text order (at most
// kMaxDiagnostics of them, each message made printable and of bounded length).
class ModelError : public std::runtime_error {
public:
    ModelError(std::string source, std::vector<ModelDiagnostic> diagnostics);

    const std::string& source() const { return source_; }
    const std::vector<ModelDiagnostic>& diagnostics() const { return diagnostics_; }

private:
    ModelError(std::string source, std::vector<ModelDiagnostic> diagnostics, int);  // already bounded

    std::string source_;
    std::vector<ModelDiagnostic> diagnostics_;
};

// "SOURCE:LINE:COLUMN: message" (the compiler convention editors understand).
std::string formatDiagnostic(const std::string& source, const ModelDiagnostic& d);

}  // namespace sysid::model
