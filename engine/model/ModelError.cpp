#include "engine/model/ModelError.h"

namespace sysid::model {

std::string formatDiagnostic(const std::string& source, const ModelDiagnostic& d)
{
    std::string out = source;
    if (d.where.line > 0) {
        out += ':' + std::to_string(d.where.line);
        if (d.where.column > 0)
            out += ':' + std::to_string(d.where.column);
    }
    return out + ": " + d.message;
}

static std::string joinDiagnostics(const std::string& source, const std::vector<ModelDiagnostic>& ds)
{
    std::string text;
    for (const auto& d : ds) {
        if (!text.empty())
            text += '\n';
        text += formatDiagnostic(source, d);
    }
    return text;
}

ModelError::ModelError(std::string source, std::vector<ModelDiagnostic> diagnostics) :
    std::runtime_error(joinDiagnostics(source, diagnostics)), source_(std::move(source)),
    diagnostics_(std::move(diagnostics))
{
}

}  // namespace sysid::model
