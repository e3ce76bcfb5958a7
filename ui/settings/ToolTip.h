#pragma once

#include <QString>

namespace sysid::ui {

// A tooltip that wraps. Qt shows plain text on one line, as wide as the screen if it must (a
// method's description with its literature runs to 2000 px); rich text it wraps at about 80
// characters. The text's own line breaks are kept.
inline QString wrappedToolTip(const QString& plain)
{
    if (plain.isEmpty())
        return plain;
    return QStringLiteral("<p style=\"white-space:pre-wrap\">%1</p>").arg(plain.toHtmlEscaped());
}

}  // namespace sysid::ui
