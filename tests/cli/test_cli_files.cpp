// The command line and its files: an output never replaces an input or something that is not a
// regular file, inputs that are devices, FIFOs or folders are named for what they are, absurd
// counts are refused before anything is allocated, and Ctrl-C or SIGTERM stop a run as Cancel,
// keeping what is finished (exit 130).
#include "SysidProcess.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include <sys/stat.h>
#include <unistd.h>

using namespace sysid::test;

namespace {

// A copy of the mass-spring-damper project with its data, in a folder of its own.
QString copyProject(const QTemporaryDir& dir)
{
    QDir(dir.path()).mkpath(QStringLiteral("data"));
    for (const char* name : {"mass_spring_damper.sysid", "mass_spring_damper.model",
                             "data/mass_spring_damper_measured.csv", "duffing.model"})
        QFile::copy(kExamples + name, dir.filePath(QString::fromLatin1(name)));
    return dir.filePath(QStringLiteral("mass_spring_damper.sysid"));
}

// The folder's entries other than the ones named: a temporary left behind shows here.
QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
}

}  // namespace

class TestCliFiles : public QObject {
    Q_OBJECT

    // Runs sysid with `args`, sends `signal` once its standard error holds `lines` lines with
    // `line`, and checks it then stops within 3 s with exit status 130.
    void interruptAfter(const QStringList& args, const QByteArray& line, int lines, int signal)
    {
        QProcess p;
        p.start(kSysid, args);
        QVERIFY(p.waitForStarted(30000));
        QByteArray err;
        QElapsedTimer clock;
        clock.start();
        while (err.count(line) < lines && clock.elapsed() < 120000) {
            p.waitForReadyRead(200);
            err += p.readAllStandardError();
        }
        QVERIFY2(err.count(line) >= lines, err.constData());
        // Still running (a finished process has id 0, and kill(0) would signal this test).
        QVERIFY2(p.processId() > 0, err.constData());
        QVERIFY(::kill(static_cast<pid_t>(p.processId()), signal) == 0);
        clock.restart();
        QVERIFY(p.waitForFinished(10000));
        const qint64 stopped = clock.elapsed();
        err += p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 130, err.right(2000).constData());
        QVERIFY2(stopped < 3000, qPrintable(QString::number(stopped) + " ms"));
    }

private slots:
    // A result that cannot be written to standard output (a full disk) is an error, not a success.
    void aFullStandardOutputIsAnError()
    {
        QProcess p;
        p.setStandardOutputFile(QStringLiteral("/dev/full"));
        p.start(kSysid, {"periodic", kExamples + "duffing_periodic.model", "--period", "4.487989505128276", "-q",
                         "-o", "-"});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 1, qPrintable(err));
        QVERIFY2(err.contains("cannot write the result to standard output: No space left on device"), qPrintable(err));
    }

    void outputNamingAnInputIsRefused()
    {
        QTemporaryDir dir;
        const QString project = copyProject(dir);
        const QString data = dir.filePath(QStringLiteral("data/mass_spring_damper_measured.csv"));
        const QString model = dir.filePath(QStringLiteral("mass_spring_damper.model"));
        const QString duffing = dir.filePath(QStringLiteral("duffing.model"));
        // The same file under another name (a hard link) is the same input.
        const QString alias = dir.filePath(QStringLiteral("alias.csv"));
        QVERIFY(::link(data.toLocal8Bit().constData(), alias.toLocal8Bit().constData()) == 0);
        const QByteArray projectBefore = readFile(project), dataBefore = readFile(data),
                         duffingBefore = readFile(duffing);
        const QList<QStringList> runs{
            {"fit", project, "-o", project, "-q"},
            {"fit", project, "-o", data, "-q"},
            {"fit", model, "--data", data, "-o", data, "-q"},
            {"fit", model, "--data", data, "-o", alias, "-q"},
            {"simulate", duffing, "--t-end", "1", "--dt", "0.1", "-o", duffing},
            {"study", project, "--realisations", "2", "-o",
             dir.filePath(QStringLiteral("data/../data/mass_spring_damper_measured.csv"))},
        };
        for (const QStringList& args : runs) {
            const Run r = runSysid(args);
            QVERIFY2(r.exitCode == 1, describe(r));
            QVERIFY2(r.err.contains("sysid does not overwrite its inputs"), describe(r));
        }
        QCOMPARE(readFile(project), projectBefore);
        QCOMPARE(readFile(data), dataBefore);
        QCOMPARE(readFile(duffing), duffingBefore);
    }

    // A link, a device or a FIFO given to -o is refused before the work; nothing is replaced.
    void outputThatIsNotARegularFileIsRefused()
    {
        QTemporaryDir dir;
        const QString project = copyProject(dir);
        const QString victim = dir.filePath(QStringLiteral("victim.txt"));
        QVERIFY(writeFile(victim, "precious\n"));
        const QString link = dir.filePath(QStringLiteral("link.json"));
        QVERIFY(QFile::link(victim, link));
        const Run linked = runSysid({"study", project, "--realisations", "3", "-o", link});
        QVERIFY2(linked.exitCode == 1, describe(linked));
        QVERIFY2(linked.err.contains("is a symbolic link; sysid writes only regular files"), describe(linked));
        QVERIFY2(!linked.err.contains("realisation 1"), describe(linked));  // refused before the work
        const Run device = runSysid({"simulate", dir.filePath(QStringLiteral("duffing.model")), "--t-end", "1", "--dt",
                                     "0.5", "-o", QStringLiteral("/dev/null")});
        QVERIFY2(device.exitCode == 1, describe(device));
        QVERIFY2(device.err.contains("is a device; sysid writes only regular files"), describe(device));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(readFile(victim), QByteArray("precious\n"));
        // A link planted where the writer of older versions put its temporary is not followed.
        QVERIFY(QFile::link(victim, dir.filePath(QStringLiteral("out.csv.tmp"))));
        const Run r = runSysid({"simulate", dir.filePath(QStringLiteral("duffing.model")), "--t-end", "1", "--dt",
                                "0.5", "-o", dir.filePath(QStringLiteral("out.csv"))});
        QVERIFY2(r.exitCode == 0, describe(r));
        QCOMPARE(readFile(victim), QByteArray("precious\n"));
        // An output in a folder that does not exist is refused before the work too.
        const Run missing = runSysid({"study", project, "--realisations", "3", "-o", dir.filePath("no/such/s.json")});
        QVERIFY2(missing.exitCode == 1 && missing.err.contains("does not exist"), describe(missing));
        QVERIFY2(!missing.err.contains("realisation 1"), describe(missing));
    }

    void dataThatIsNotARegularFileIsNamed()
    {
        QTemporaryDir dir;
        copyProject(dir);
        const QString model = dir.filePath(QStringLiteral("mass_spring_damper.model"));
        const QString fifo = dir.filePath(QStringLiteral("pipe.csv"));
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        const QList<std::pair<QString, QString>> cases{
            {QStringLiteral("/dev/zero"), "is a device, not a CSV file"},
            {QStringLiteral("/dev/urandom"), "is a device, not a CSV file"},
            {fifo, "is a named pipe (FIFO), not a CSV file"},
            {dir.filePath(QStringLiteral("data")), "is a folder, not a CSV file"}};
        for (const auto& [data, message] : cases) {
            QElapsedTimer clock;
            clock.start();
            const Run r = runSysid({"fit", model, "--data", data, "-o", dir.filePath(QStringLiteral("r.json")), "-q"});
            QVERIFY2(r.exitCode == 1, describe(r));
            QVERIFY2(r.err.contains(message), describe(r));
            QVERIFY2(!r.err.contains("not found"), describe(r));
            QVERIFY2(clock.elapsed() < 20000, describe(r));
        }
    }

    // Counts beyond what the machine can hold are refused at once, saying how much they need.
    void absurdCountsAreRefusedFast()
    {
        QTemporaryDir dir;
        const QString project = copyProject(dir);
        const QString out = dir.filePath(QStringLiteral("out.json"));
        // A periodic run that fails writes its failure record, so it writes elsewhere.
        const QList<QStringList> runs{
            {"periodic", kExamples + "duffing_periodic.model", "--period", "6.283185307179586", "--shooting-intervals",
             "1000000000", "-o", dir.filePath(QStringLiteral("orbit.json"))},
            {"study", project, "--realisations", "100000000", "-o", out},
            {"contour", project, "--x", "b=0:2", "--y", "k=0:2", "--grid", "1000000000000", "-o", out},
            {"optimal", kExamples + "flexible_manipulator_optimal.sysid", "--points", "1000000000", "-o", out},
        };
        for (const QStringList& args : runs) {
            QElapsedTimer clock;
            clock.start();
            const Run r = runSysid(args);
            QVERIFY2(r.exitCode == 1 || r.exitCode == 2, describe(r));
            QVERIFY2(r.err.contains("of memory, more than the"), describe(r));
            QVERIFY2(clock.elapsed() < 20000, describe(r));
        }
        QVERIFY(!QFile::exists(out));
    }

    // A count cast from a double beyond size_t once gave a grid of one sample and exit 0.
    void timeGridBeyondRangeIsRefused()
    {
        QTemporaryDir dir;
        const Run r = runSysid({"simulate", kExamples + "duffing.model", "--t-end", "1e300", "--dt", "1", "-o",
                                dir.filePath(QStringLiteral("x.csv"))});
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains("samples, more than 1e8"), describe(r));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.csv"))));
    }

    // Data near the end of double's range: the default weights would underflow to 0 and report an
    // exact fit; that is an error instead.
    void dataBeyondTheWeightsRangeIsAnError()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("decay.model"));
        QVERIFY(writeFile(model, "param a = 1\nstate y = 1e300\ny' = -a*y\noutput y\n"));
        QByteArray csv = "t,y\n";
        for (int i = 0; i <= 20; ++i)
            csv += QByteArray::number(0.1 * i) + "," + QByteArray::number(1e300 * std::exp(-0.5 * 0.1 * i), 'g', 17) +
                "\n";
        QVERIFY(writeFile(dir.filePath(QStringLiteral("d.csv")), csv));
        const Run r = runSysid({"fit", model, "--data", dir.filePath(QStringLiteral("d.csv")), "-o",
                                dir.filePath(QStringLiteral("r.json")), "-q"});
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains("beyond what their weight can be computed for"), describe(r));
        QVERIFY2(!r.out.contains("exact fit"), describe(r));
    }

    // Text from a project reaches the terminal with its control characters shown, not obeyed.
    void escapeSequencesAreNotPrintedRaw()
    {
        QTemporaryDir dir;
        const QString project = copyProject(dir);
        QByteArray text = readFile(project);
        // A key with escape sequences (JSON's \u001b): clear the screen, set the window title.
        text.insert(text.indexOf('{') + 1, "\"\\u001b[2J\\u001b]0;pwned\\u0007\": 1,");
        QVERIFY(writeFile(project, text));
        const Run r = runSysid({"fit", project, "-q", "-o", dir.filePath(QStringLiteral("r.json"))});
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(!r.err.contains(QChar(0x1b)) && !r.err.contains(QChar(0x07)), describe(r));
        QVERIFY2(r.err.contains("\\x1b[2J"), describe(r));
    }

    // A project may point its data at any file; the error does not echo that file's lines.
    void errorsDoNotEchoAnArbitraryFile()
    {
        QTemporaryDir dir;
        const QString project = copyProject(dir);
        const QString secret = dir.filePath(QStringLiteral("secret.txt"));
        QVERIFY(writeFile(secret, "root:x:0:0:hunter2:/root:/bin/bash\ndaemon:x:1:1:swordfish:/usr/sbin\n"));
        QByteArray text = readFile(project);
        text.replace("data/mass_spring_damper_measured.csv", secret.toUtf8());
        QVERIFY(writeFile(project, text));
        const Run r = runSysid({"fit", project, "-q", "-o", dir.filePath(QStringLiteral("r.json"))});
        QVERIFY2(r.exitCode == 1, describe(r));
        QVERIFY2(r.err.contains("does not look like a CSV file of numbers"), describe(r));
        QVERIFY2(!r.err.contains("hunter2") && !r.err.contains("swordfish"), describe(r));
    }

    void interruptedStudyKeepsTheFinishedRealisations_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }

    // Ctrl-C (SIGINT) or SIGTERM during a study: it stops within a second or two, writes the
    // realisations that finished (marked cancelled) and exits 130, leaving no temporary.
    void interruptedStudyKeepsTheFinishedRealisations()
    {
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString project = copyProject(dir);
        const QString out = dir.filePath(QStringLiteral("study.json"));
        const QStringList before = entries(dir.path());
        interruptAfter({"study", project, "--realisations", "100000", "--threads", "2", "-o", out}, "realisation ", 4,
                       signal);
        if (QTest::currentTestFailed())
            return;
        const QJsonObject result = readJson(out);
        QVERIFY2(result.value("cancelled").toBool(), readFile(out).left(500).constData());
        const qsizetype finished = result.value("realisations").toArray().size();
        QVERIFY2(finished >= 4 && finished < 100000, qPrintable(QString::number(finished)));
        QStringList after = entries(dir.path());
        after.removeAll(QStringLiteral("study.json"));
        QCOMPARE(after, before);
    }

    // Ctrl-C during a multistart: the starts that finished are written (the lowest as the result,
    // the multistart marked cancelled) and the exit is 130.
    void interruptedMultistartKeepsTheFinishedStarts()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("fit.json"));
        interruptAfter({"fit", kExamples + "sine_frequency.model", "--data", kExamples + "data/sine_frequency.csv",
                        "--multistart", "100000", "--threads", "2", "-o", out},
                       "start ", 5, SIGINT);
        if (QTest::currentTestFailed())
            return;
        const QJsonObject result = readJson(out);
        const QJsonObject multistart = result.value("multistart").toObject();
        QVERIFY2(multistart.value("cancelled").toBool(), readFile(out).left(500).constData());
        const qsizetype finished = multistart.value("starts").toArray().size();
        QVERIFY2(finished >= 4 && finished < 100000, qPrintable(QString::number(finished)));
        QVERIFY(result.value("parameters").isObject() || result.value("parameters").isArray());
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("fit.json")});
    }

    // Ctrl-C during a single fit: the best estimate so far is written, marked cancelled.
    void interruptedFitKeepsItsBestEstimate()
    {
        QTemporaryDir dir;
        const QString project = copyProject(dir);
        const QString out = dir.filePath(QStringLiteral("fit.json"));
        // A fit made slow by a tiny largest step (seconds per iteration).
        interruptAfter({"fit", project, "--model-code", "interpreted", "--max-step", "2e-5", "-o", out}, "iteration ", 2,
                       SIGINT);
        if (QTest::currentTestFailed())
            return;
        const QJsonObject result = readJson(out);
        QVERIFY2(result.value("cancelled").toBool(), readFile(out).left(500).constData());
        QVERIFY2(result.value("iterations").toInt() >= 1, readFile(out).left(500).constData());
        QCOMPARE(entries(dir.path()), (QStringList{QStringLiteral("data"), QStringLiteral("duffing.model"),
                                                   QStringLiteral("fit.json"), QStringLiteral("mass_spring_damper.model"),
                                                   QStringLiteral("mass_spring_damper.sysid")}));
    }

    // Ctrl-C while a model's code is compiled for the first time: the compiler (here one that
    // would take a minute, with a child of its own) is stopped with its children, and sysid exits
    // 130 within a second, without a notice that the native code is unavailable.
    void interruptDuringTheFirstCompilationStopsTheCompiler()
    {
        QTemporaryDir dir;
        const QString pids = dir.filePath(QStringLiteral("compiler.pids"));
        const QString slowCompiler = dir.filePath(QStringLiteral("slow-cc"));
        QVERIFY(writeFile(slowCompiler, "#!/bin/sh\necho $$ > \"$SLOWCC_PIDS\"\nsleep 60 &\necho $! >> \"$SLOWCC_PIDS\"\n"
                                        "wait\nexec cc \"$@\"\n"));
        QVERIFY(QFile::setPermissions(slowCompiler, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("SYSID_CC"), slowCompiler);
        environment.insert(QStringLiteral("SYSID_NATIVE_CACHE"), dir.filePath(QStringLiteral("cache")));
        environment.insert(QStringLiteral("SLOWCC_PIDS"), pids);
        environment.remove(QStringLiteral("SYSID_NATIVE"));
        const QString out = dir.filePath(QStringLiteral("sim.csv"));
        QProcess run;
        run.setProcessEnvironment(environment);
        run.start(kSysid, {"simulate", kExamples + "duffing.model", "--t-end", "1", "--dt", "0.1", "-o", out});
        QVERIFY(run.waitForStarted(30000));
        // Started: the compiler wrote its own and its child's process ids.
        QTRY_VERIFY_WITH_TIMEOUT(readFile(pids).count('\n') >= 2, 30000);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(::kill(static_cast<pid_t>(run.processId()), SIGINT) == 0);
        QVERIFY(run.waitForFinished(10000));
        const qint64 stopped = clock.elapsed();
        const QByteArray stderrText = run.readAllStandardError();
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QVERIFY2(run.exitCode() == 130, stderrText.constData());
        QVERIFY2(stopped < 1000, qPrintable(QString::number(stopped) + " ms"));
        QVERIFY2(!stderrText.contains("native model code unavailable"), stderrText.constData());
        // Both the compiler and its child are gone (or only wait to be reaped).
        for (const QByteArray& id : readFile(pids).split('\n')) {
            if (id.trimmed().isEmpty())
                continue;
            const QString stat = QStringLiteral("/proc/%1/stat").arg(QString::fromLatin1(id.trimmed()));
            QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(stat) || readFile(stat).contains(") Z "), 2000);
        }
    }
};

QTEST_GUILESS_MAIN(TestCliFiles)
#include "test_cli_files.moc"
