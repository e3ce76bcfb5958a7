#pragma once

// Runs the built `sysid` command line as a process, for the CLI test suites.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace sysid::test {

inline const QString kSysid = QStringLiteral(SYSID_BINARY_DIR "/app/sysid");
inline const QString kExamples = QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/");

struct Run {
    int exitCode = -1;  // -2: crashed
    QString out, err;
    QByteArray rawOut;
};

inline Run runSysid(const QStringList& args)
{
    QProcess p;
    p.start(kSysid, args);
    Run r;
    if (!p.waitForStarted(30000)) {
        r.err = "could not start " + kSysid;
        return r;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(240000)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.rawOut = p.readAllStandardOutput();
    r.out = QString::fromUtf8(r.rawOut);
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

}  // namespace sysid::test
