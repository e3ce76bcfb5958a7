#include "ui/main/ScreenFit.h"

#include <QGuiApplication>
#include <QRect>
#include <QScreen>
#include <QScrollArea>
#include <QWidget>

namespace sysid::ui {

QScrollArea* scrollable(QWidget* content)
{
    auto* area = new QScrollArea;
    area->setObjectName(content->objectName().isEmpty() ? QStringLiteral("scrollArea")
                                                        : content->objectName() + QStringLiteral("Scroll"));
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    area->setWidget(content);
    return area;
}

void fitToScreen(QWidget* window, QSize preferred)
{
    const QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        window->resize(preferred);
        return;
    }
    const QRect available = screen->availableGeometry();
    // Room for the window manager's frame around the preferred size.
    const QSize frame(16, 48);
    if (available.width() >= preferred.width() + frame.width() &&
        available.height() >= preferred.height() + frame.height()) {
        window->resize(preferred);
        window->move(available.center() - QRect(QPoint(), preferred + frame).center());
        return;
    }
    // Restored from maximised, it still fits.
    window->resize(available.size() - frame);
    window->move(available.topLeft());
    window->setWindowState(window->windowState() | Qt::WindowMaximized);
}

}  // namespace sysid::ui
