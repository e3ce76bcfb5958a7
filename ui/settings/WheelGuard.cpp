#include "ui/settings/WheelGuard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollArea>
#include <QWheelEvent>

namespace sysid::ui {

namespace {

// The combo or spin box a wheel event over `widget` would change (a spin box's line edit is its child).
QWidget* valueField(QWidget* widget)
{
    for (int level = 0; widget && level < 3; ++level, widget = widget->parentWidget())
        if (qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractSpinBox*>(widget))
            return widget;
    return nullptr;
}

QScrollArea* enclosingScrollArea(const QWidget* widget)
{
    for (QWidget* w = widget->parentWidget(); w; w = w->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(w))
            return area;
    return nullptr;
}

}  // namespace

void WheelGuard::install()
{
    static WheelGuard* guard = nullptr;
    if (guard || !qApp)
        return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (!watched->isWidgetType())
        return false;
    // Qt focuses a wheel-focus widget before any filter sees the wheel: such fields take focus by
    // click and tab only, so a wheel over an unclicked field finds it without focus.
    if (event->type() == QEvent::Polish) {
        auto* widget = static_cast<QWidget*>(watched);
        if ((qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractSpinBox*>(widget)) &&
            widget->focusPolicy() == Qt::WheelFocus)
            widget->setFocusPolicy(Qt::StrongFocus);
        return false;
    }
    if (event->type() != QEvent::Wheel)
        return false;
    auto* widget = static_cast<QWidget*>(watched);
    QWidget* field = valueField(widget);
    if (!field || field->hasFocus())
        return false;
    QScrollArea* area = enclosingScrollArea(field);
    if (!area)
        return false;
    // Handed to the scroll area's viewport directly: Qt passes a wheel event on to the parents only
    // when the window system sent it.
    const auto* wheel = static_cast<QWheelEvent*>(event);
    QWidget* viewport = area->viewport();
    const QPointF at = viewport->mapFromGlobal(widget->mapToGlobal(wheel->position()));
    QWheelEvent forwarded(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(), wheel->buttons(),
                          wheel->modifiers(), wheel->phase(), wheel->inverted(), wheel->source());
    QCoreApplication::sendEvent(viewport, &forwarded);
    return true;
}

}  // namespace sysid::ui
