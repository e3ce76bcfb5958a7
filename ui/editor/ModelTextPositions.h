#pragma once

#include <QString>

#include <algorithm>

namespace sysid::ui {

// Offset in a line's UTF-16 text of a 1-based column counted in characters (code points), as
// the model lexer counts them. Clamped to the line's length; column <= 1 gives 0.
inline int columnToOffset(const QString& line, int column)
{
    int offset = 0;
    const int n = static_cast<int>(line.size());
    for (int c = 1; c < column && offset < n; ++c)
        offset += (line.at(offset).isHighSurrogate() && offset + 1 < n) ? 2 : 1;
    return std::min(offset, n);
}

}  // namespace sysid::ui
