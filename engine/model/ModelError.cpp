#include "engine/model/ModelError.h"

namespace sysid::model {

namespace {

constexpr std::size_t kMaxMessage = 600;  // characters of one message; the longest we write are ~300
const char* const kMoreProblems = "more problems follow; the first ones are listed, fix them first";

// Control characters (C0, DEL and, UTF-8 encoded, C1) as \xNN, so that a terminal shows them
// instead of obeying them.
std::string printable(std::string_view text, std::size_t limit)
{
    static const char* hex = "0123456789abcdef";
    std::string out;
    std::size_t shown = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (shown >= limit) {
            out += "...";
            break;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
            static_cast<unsigned char>(text[i + 1]) < 0xA0;
        if (c < 0x20 || c == 0x7F || c1) {
            const auto code = c1 ? static_cast<unsigned char>(text[++i]) : c;
            out += "\\x";
            out += hex[code >> 4];
            out += hex[code & 0xF];
        } else {
            out += static_cast<char>(c);
        }
        // A UTF-8 continuation byte is part of the character before it.
        if ((c & 0xC0) != 0x80)
            ++shown;
    }
    return out;
}

}  // namespace

bool addDiagnostic(std::vector<ModelDiagnostic>& errors, ModelDiagnostic d)
{
    if (errors.size() < kMaxDiagnostics)
        errors.push_back(std::move(d));
    else if (errors.size() == kMaxDiagnostics)
        errors.push_back({d.where, kMoreProblems});
    return errors.size() < kMaxDiagnostics;
}

std::string quoted(std::string_view text, std::size_t limit)
{
    return printable(text, limit);
}

std::string formatDiagnostic(const std::string& source, const ModelDiagnostic& d)
{
    std::string out = printable(source, kMaxMessage);
    if (d.where.line > 0) {
        out += ':' + std::to_string(d.where.line);
        if (d.where.column > 0)
            out += ':' + std::to_string(d.where.column);
    }
    return out + ": " + printable(d.message, kMaxMessage);
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

static std::vector<ModelDiagnostic> bounded(std::vector<ModelDiagnostic> ds)
{
    if (ds.size() > kMaxDiagnostics) {
        const bool marked = ds[kMaxDiagnostics].message == kMoreProblems;
        ds[kMaxDiagnostics] = {ds[kMaxDiagnostics].where,
                               marked ? std::string(kMoreProblems)
                                      : std::to_string(ds.size() - kMaxDiagnostics) +
                                       " more problems are not listed; fix the ones above first"};
        ds.resize(kMaxDiagnostics + 1);
    }
    for (auto& d : ds)
        d.message = printable(d.message, kMaxMessage);
    return ds;
}

ModelError::ModelError(std::string source, std::vector<ModelDiagnostic> diagnostics) :
    ModelError(std::move(source), bounded(std::move(diagnostics)), 0)
{
}

ModelError::ModelError(std::string source, std::vector<ModelDiagnostic> diagnostics, int) :
    std::runtime_error(joinDiagnostics(source, diagnostics)), source_(std::move(source)),
    diagnostics_(std::move(diagnostics))
{
}

}  // namespace sysid::model
