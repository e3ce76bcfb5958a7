#include "app/cli/TerminalText.h"

#include <cstdio>

namespace sysid::cli {

std::string terminalText(std::string_view text, std::size_t limit)
{
    std::string out;
    const std::string_view shown = text.substr(0, limit);
    out.reserve(shown.size());
    for (const char c : shown) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte < 0x20 && c != '\n' && c != '\t') || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        } else {
            out += c;
        }
    }
    if (text.size() > limit)
        out += " … (" + std::to_string(text.size() - limit) + " more bytes not shown)";
    return out;
}

}  // namespace sysid::cli
