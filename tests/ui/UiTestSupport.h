#pragma once
// What the widget tests share: settings kept out of the user's files, the bundled examples,
// small files written and read back, the clean record of the straight-line model, and acting on
// the next modal dialog.

#include <QApplication>
#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QStandardPaths>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <functional>

namespace sysid::test {

// How many times longer a time limit (a cancel, an event-loop gap) is in a build with the
// sanitizers: AddressSanitizer and UBSan make every instruction several times slower (Serebryany
// et al. 2012 report about 2x for ASan alone).
#ifdef SYSID_SANITIZED
inline constexpr long long kSanitizerSlowdown = 4;
#else
inline constexpr long long kSanitizerSlowdown = 1;
#endif

// Keeps QSettings and the autosave out of the user's files; for initTestCase().
inline void useTestSettings(const QString& application = QStringLiteral("sysid-test"))
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("sysid-test"));
    QCoreApplication::setApplicationName(application);
}

// A file of resources/examples.
inline QString examplePath(const QString& file)
{
    return QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/") + file;
}

inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// The whole file; empty when it cannot be read.
inline QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A CSV file "t,x" with x = t + t^2 on t = 0, 0.05, ..., 2: the clean record of x' = a + b t with
// a = 1, b = 2 and x(0) = 0.
inline bool writeLinearCleanData(const QString& path)
{
    QByteArray csv = "t,x\n";
    for (int k = 0; k <= 40; ++k) {
        const double t = 0.05 * k;
        csv += QByteArray::number(t, 'g', 17) + "," + QByteArray::number(t + t * t, 'g', 17) + "\n";
    }
    return writeFile(path, csv);
}

// Runs act on the next modal dialog once it is open (it is polled from the event loop, which
// the dialog's own exec() keeps turning).
inline void onNextModal(std::function<void(QWidget*)> act)
{
    auto* timer = new QTimer;
    timer->setInterval(10);
    QObject::connect(timer, &QTimer::timeout, [timer, act] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            timer->stop();
            timer->deleteLater();
            act(modal);
        }
    });
    timer->start();
}

}  // namespace sysid::test
