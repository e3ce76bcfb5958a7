#include "UserActions.h"

#include "XSession.h"

#include <QScrollArea>
#include <QStringList>
#include <QTest>
#include <QWidget>

namespace sysid::test {

QRect globalRect(const QWidget* widget)
{
    return {widget->mapToGlobal(QPoint(0, 0)), widget->size()};
}

QString notSeen(const QWidget* widget, const QRect& screen)
{
    if (!widget->isVisible())
        return QStringLiteral("is hidden");
    if (widget->visibleRegion().isEmpty())
        return QStringLiteral("is covered");
    const QRect rect = globalRect(widget);
    if (!screen.contains(rect))
        return QStringLiteral("at (%1, %2) %3x%4 is not inside the screen %5x%6")
            .arg(rect.x())
            .arg(rect.y())
            .arg(rect.width())
            .arg(rect.height())
            .arg(screen.width())
            .arg(screen.height());
    return {};
}

bool clickOn(const QWidget* widget, QString* message)
{
    return XSession::current()->click(widget->mapToGlobal(widget->rect().center()), message);
}

bool pressKeys(const QString& keys, QString* message)
{
    return XSession::current()->xdotool({QStringLiteral("key"), QStringLiteral("--clearmodifiers"), keys}, message);
}

bool typeInto(QWidget* field, const QString& text, QString* message)
{
    if (!clickOn(field, message))
        return false;
    // The click reaches the application through the X server: wait until it has focused the field.
    if (!QTest::qWaitFor([field] { return field->hasFocus(); }, 5000)) {
        if (message)
            *message = QStringLiteral("%1 did not take the focus after a click").arg(field->objectName());
        return false;
    }
    const XSession* session = XSession::current();
    return pressKeys(QStringLiteral("ctrl+a"), message) &&
        session->xdotool({QStringLiteral("type"), QStringLiteral("--delay"), QStringLiteral("40"), text}, message) &&
        pressKeys(QStringLiteral("Tab"), message);
}

void scrollIntoView(QWidget* widget)
{
    for (QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(parent))
            area->ensureWidgetVisible(widget);
}

}  // namespace sysid::test
