#pragma once

#include <QString>

#include <string_view>

namespace sysid::ui {

// The engine's texts (names, labels, help lines of its tables) as Qt strings: they are UTF-8 views.
inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace sysid::ui
