#pragma once

#include <string>
#include <string_view>

namespace sysid::cli {

// A message as it may reach a terminal: control characters other than newline and tab (a
// project's text may hold escape sequences that would recolour or rewrite the screen) are shown
// as \xNN, and a message longer than `limit` bytes is cut with a note of how much was left out.
std::string terminalText(std::string_view text, std::size_t limit = 8192);

}  // namespace sysid::cli
