#pragma once

#include <QSize>

class QScrollArea;
class QWidget;

namespace sysid::ui {

// How the main window fits the screen it opens on.

// `content` in a frameless scroll area that gives it its minimum size and scrolls beyond: a dock
// holding it can then be shorter (or narrower) than its content without the window growing.
QScrollArea* scrollable(QWidget* content);

// The first-start geometry of a top-level window: `preferred` where the screen's available
// area has room for it, else maximised (a laptop's 1366x768, a 1024x700 window manager area).
void fitToScreen(QWidget* window, QSize preferred);

}  // namespace sysid::ui
