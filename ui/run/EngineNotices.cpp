#include "ui/run/EngineNotices.h"

#include "engine/eval/NativeCode.h"

#include <QMetaObject>

namespace sysid::ui {

EngineNotices& EngineNotices::instance()
{
    // Never deleted: a worker may report while the application shuts down.
    static EngineNotices* relay = [] {
        auto* r = new EngineNotices;
        eval::setNativeCodeNotices([r](const std::string& line) {
            const QString text = QString::fromStdString(line);
            QMetaObject::invokeMethod(
                r, [r, text] { emit r->notice(text); }, Qt::QueuedConnection);
        });
        return r;
    }();
    return *relay;
}

}  // namespace sysid::ui
