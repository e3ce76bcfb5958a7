#pragma once

#include "engine/model/SourceLocation.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace sysid::model {

struct ModelDiagnostic {
    SourceLocation where;
    std::string message;  // one line: what is wrong and what was expected
};

// Thrown when a model cannot be built; holds every problem found, in text order.
class ModelError : public std::runtime_error {
public:
    ModelError(std::string source, std::vector<ModelDiagnostic> diagnostics);

    const std::string& source() const { return source_; }
    const std::vector<ModelDiagnostic>& diagnostics() const { return diagnostics_; }

private:
    std::string source_;
    std::vector<ModelDiagnostic> diagnostics_;
};

// "SOURCE:LINE:COLUMN: message" (the compiler convention editors understand).
std::string formatDiagnostic(const std::string& source, const ModelDiagnostic& d);

}  // namespace sysid::model
