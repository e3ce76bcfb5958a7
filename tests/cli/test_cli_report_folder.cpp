// `sysid report PROJECT -o FOLDER`: the fit of a project as report.html with the parameters and
// the history figures, in a folder that is new or empty unless --force.
#include "SysidProcess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace sysid::test;

class TestCliReportFolder : public QObject {
    Q_OBJECT

private slots:
    void writesTheReportAndRefusesToOverwrite()
    {
        QTemporaryDir tmp;
        const QString folder = tmp.filePath("msd report");
        const Run r = runSysid({"report", kExamples + "mass_spring_damper.sysid", "-o", folder, "--quiet"});
        QVERIFY2(r.exitCode == 0, describe(r));
        QDir dir(folder);
        for (const char* file : {"report.html", "parameters.json", "parameters.csv", "cost.svg", "parameters.svg"})
            QVERIFY2(dir.exists(file), file);
        const QString html = QString::fromUtf8(readFile(dir.filePath("report.html")));
        QCOMPARE(html.count(QStringLiteral("<html")), 1);
        QVERIFY(html.contains(QStringLiteral("mass_spring_damper.sysid")));
        QVERIFY(html.contains(QStringLiteral("s&#39;&#39; = (u - b*s&#39; - k*s)/m")));
        for (const char* name : {"m", "b", "k"})
            QVERIFY2(html.contains(QStringLiteral("<td><b>%1</b></td>").arg(name)), name);
        QVERIFY(html.contains(QStringLiteral("class=\"correlation\"")));
        // Every figure it refers to is in the folder, by a relative path.
        const QRegularExpression source(QStringLiteral("<img src=\"([^\"]+)\""));
        int images = 0;
        for (auto it = source.globalMatch(html); it.hasNext(); ++images) {
            const QString file = it.next().captured(1);
            QVERIFY2(QFileInfo(file).isRelative() && dir.exists(file), qPrintable(file));
        }
        QCOMPARE(images, 2);
        QVERIFY(readFile(dir.filePath("cost.svg")).startsWith("<svg "));

        // A second report into the same folder is refused, naming what it would replace, and
        // leaves the files as they were.
        const QByteArray before = readFile(dir.filePath("report.html"));
        const Run again = runSysid({"report", kExamples + "mass_spring_damper.sysid", "-o", folder, "--quiet"});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains("not empty") && again.err.contains("report.html") && again.err.contains("--force"),
                 describe(again));
        QCOMPARE(readFile(dir.filePath("report.html")), before);

        // --force writes it.
        QFile::remove(dir.filePath("cost.svg"));
        const Run forced =
            runSysid({"report", kExamples + "mass_spring_damper.sysid", "-o", folder, "--quiet", "--force"});
        QVERIFY2(forced.exitCode == 0, describe(forced));
        QVERIFY(dir.exists("cost.svg"));
    }

    void refusesWhatIsNotAProject()
    {
        QTemporaryDir tmp;
        const Run r = runSysid({"report", kExamples + "mass_spring_damper.model", "-o", tmp.filePath("r")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(".sysid"), describe(r));
        const Run noFolder = runSysid({"report", kExamples + "mass_spring_damper.sysid"});
        QCOMPARE(noFolder.exitCode, 2);
        QVERIFY2(noFolder.err.contains("-o FOLDER"), describe(noFolder));
        QVERIFY(!QFileInfo::exists(tmp.filePath("r")));
    }
};

QTEST_MAIN(TestCliReportFolder)
#include "test_cli_report_folder.moc"
