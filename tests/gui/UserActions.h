#pragma once
// What a user does and sees in the X session of a GUI test: where a widget is on the screen,
// whether it can be seen, clicks, typing and key presses sent through the X server (xdotool), so
// that they reach the application as a user's do.

#include <QRect>
#include <QString>

class QWidget;

namespace sysid::test {

QRect globalRect(const QWidget* widget);
// Empty when the widget is shown, not covered by its parents' other children and inside the
// screen; else why not ("is hidden", "is covered", "at (x, y) WxH is not inside the screen …").
QString notSeen(const QWidget* widget, const QRect& screen);

// A left click at the middle of the widget; false with *message set when xdotool fails.
bool clickOn(const QWidget* widget, QString* message = nullptr);
// Clicks into the field, selects what it holds (Ctrl+A), types `text` key by key and leaves the
// field with Tab, as a user edits a number.
bool typeInto(QWidget* field, const QString& text, QString* message = nullptr);
// Presses a key combination such as "ctrl+n" in the focused window.
bool pressKeys(const QString& keys, QString* message = nullptr);
// Scrolls the scroll areas holding the widget until it is in view (a user scrolls to a field).
void scrollIntoView(QWidget* widget);

}  // namespace sysid::test
