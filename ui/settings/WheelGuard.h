#pragma once

#include <QObject>

namespace sysid::ui {

// Scrolling a settings panel must not change its settings: a wheel turned over a combo box or spin
// box that the user has not clicked into (no focus) inside a scroll area scrolls the area instead of
// changing the value. Installed once on the application; a focused field still takes the wheel.
class WheelGuard : public QObject {
    Q_OBJECT

public:
    // Installs the process's guard on the application (again: nothing).
    static void install();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

}  // namespace sysid::ui
