#pragma once

// Runs the built `sysid` command line as a process, for the CLI test suites, and reads back
// what it wrote.

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sysid::test {

inline const QString kSysid = QStringLiteral(SYSID_BINARY_DIR "/app/sysid");
// The whole command line, to which kSysid hands what needs the symbolic engine.
inline const QString kSysidSymbolic = QStringLiteral(SYSID_BINARY_DIR "/app/sysid-symbolic");
inline const QString kExamples = QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/");

struct Run {
    int exitCode = -1;  // -2: crashed
    QString out, err;
    QByteArray rawOut;
};

// Runs `program` with `args` (and `environment`; default: this process's), closing its input,
// and waits at most `timeoutMs` for it to end.
inline Run runProgram(const QString& program, const QStringList& args,
                      const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
                      int timeoutMs = 240000)
{
    QProcess p;
    p.setProcessEnvironment(environment);
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(30000)) {
        r.err = "could not start " + program;
        return r;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
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

inline Run runSysid(const QStringList& args)
{
    return runProgram(kSysid, args);
}

// Exit status and the start of both streams, for a failing check's message.
inline QByteArray describe(const Run& r, int characters = 3000)
{
    return QString("exit %1\nstdout:\n%2\nstderr:\n%3")
        .arg(r.exitCode)
        .arg(r.out.left(characters), r.err.left(characters))
        .toUtf8();
}

inline QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// The JSON object in text; an empty object when it is not valid JSON or not an object.
inline QJsonObject parseObject(const QByteArray& text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    return error.error == QJsonParseError::NoError && doc.isObject() ? doc.object() : QJsonObject();
}

// The JSON object in a file; an empty object when it cannot be read or holds none.
inline QJsonObject readJson(const QString& path)
{
    return parseObject(readFile(path));
}

}  // namespace sysid::test
