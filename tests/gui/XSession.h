#pragma once
// Tests that look at sysid-gui as a user does: a private X server (Xvfb, 1366x768x24, on a free
// display) with the openbox window manager, and Qt's xcb platform on it. Start the session in
// main() before the QApplication (SYSID_X_TEST_MAIN does); both programs end with it, and with the
// test process should it die.

#include <QPoint>
#include <QSize>
#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace sysid::test {

class XSession {
public:
    // Starts Xvfb and openbox and points DISPLAY and QT_QPA_PLATFORM at them.
    XSession();
    ~XSession();
    XSession(const XSession&) = delete;
    XSession& operator=(const XSession&) = delete;

    // The session of this test process (nullptr before one is made).
    static XSession* current();

    // Xvfb is installed; without it the tests skip.
    bool installed() const { return installed_; }
    // Empty when the session runs; else what went wrong.
    QString error() const { return error_; }
    QString display() const { return display_; }
    static QSize screenSize() { return {1366, 768}; }

    // Runs xdotool on this display (a click or a resize through the X server and the window
    // manager, as a user's); false with *message set when it fails.
    bool xdotool(const QStringList& arguments, QString* message = nullptr) const;
    // A left click at a point of the screen.
    bool click(QPoint global, QString* message = nullptr) const;

private:
    void stop();

    bool installed_ = false;
    QString error_;
    QString display_;
    pid_t server_ = -1;
    pid_t windowManager_ = -1;
};

}  // namespace sysid::test

// main() of a test that runs in an X session.
#define SYSID_X_TEST_MAIN(TestObject)                                                                                  \
    int main(int argc, char** argv)                                                                                    \
    {                                                                                                                  \
        sysid::test::XSession session;                                                                                 \
        QApplication app(argc, argv);                                                                                  \
        TestObject test;                                                                                               \
        return QTest::qExec(&test, argc, argv);                                                                        \
    }
