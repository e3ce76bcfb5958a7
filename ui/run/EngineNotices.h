#pragma once

#include <QObject>
#include <QString>

namespace sysid::ui {

// The engine's one-line notices to the user (no C compiler for native model code, a build that
// failed and fell back to the interpreter) as a signal on the GUI thread, for the windows' logs:
// the engine reports them from whichever worker thread met them, once per process.
class EngineNotices : public QObject {
    Q_OBJECT

public:
    // The process's relay; the first call routes the engine's notices to it.
    static EngineNotices& instance();

signals:
    void notice(const QString& line);

private:
    EngineNotices() = default;
};

}  // namespace sysid::ui
