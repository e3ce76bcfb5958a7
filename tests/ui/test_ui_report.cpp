// The GUI's log shows the full report of a fit when it finishes, and the results the
// termination and statistics of periodic solutions.
#include "UiTestSupport.h"

#include "engine/project/FitReport.h"
#include "ui/main/MainWindow.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/FitRunner.h"

#include <QPlainTextEdit>
#include <QtTest>

using namespace sysid;

namespace {

// A report line's label as fitReport pads it.
QString label(const QString& name)
{
    const QString start = QStringLiteral("  ") + name;
    return start.leftJustified(std::max<qsizetype>(start.size() + 1, 24));
}

}  // namespace

class TestUiReport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void logShowsTheReportWhenAFitFinishes()
    {
        ui::MainWindow w(QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/mass_spring_damper.sysid"));
        const auto* log = w.findChild<QPlainTextEdit*>(QStringLiteral("runLog"));
        QVERIFY(log);
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning() && w.document()->result().has_value(), 60000);
        const estimate::FitResult& result = *w.document()->result();
        const QString text = log->toPlainText();
        // The engine's report, whole, before the line that ends the fit.
        const QString report = QString::fromStdString(project::fitReport(result));
        const auto at = text.indexOf(report);
        QVERIFY2(at >= 0, qPrintable(text));
        QVERIFY2(text.indexOf(QStringLiteral("fit finished"), at) > at, qPrintable(text));
        QVERIFY(report.contains(label("method") + "output-error by Levenberg-Marquardt"));
        QVERIFY(report.contains(label("termination") + QString::fromStdString(core::describe(result.termination))));
        QVERIFY(result.statistics.seconds.total > 0.0);
    }

    void runnerLogsTheReportLastBeforeFinished()
    {
        ui::MainWindow w(QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/mass_spring_damper.sysid"));
        ui::FitRunner runner;
        QStringList lines;
        std::optional<estimate::FitResult> result;
        bool done = false;
        connect(&runner, &ui::FitRunner::logLine, this, [&](const QString& line) { lines << line; });
        connect(&runner, &ui::FitRunner::finished, this,
                [&](bool, const QString&, const std::optional<estimate::FitResult>& r) {
                    result = r;
                    done = true;
                });
        auto job = w.document()->makeFitJob();
        job.settings.maxIterations = 3;
        runner.start(job);
        QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
        QVERIFY(result.has_value());
        QCOMPARE(result->termination.kind, core::TerminationKind::IterationLimit);
        QVERIFY(!lines.isEmpty());
        QCOMPARE(lines.back(), QString::fromStdString(project::fitReport(*result)));
        const QString settingsLine = lines.back().split('\n').filter(label("non-default settings")).value(0);
        QVERIFY2(settingsLine.contains(QStringLiteral("max_iterations = 3")), qPrintable(lines.back()));
    }
};

QTEST_MAIN(TestUiReport)
#include "test_ui_report.moc"
