// The "Multistart" tab, offscreen, on the bundled sine-frequency example (a cost with many local
// minima in the frequency). Known answer: the best minimum is w = 2, A = 1 and becomes the
// project's result; the waterfall holds every start; "Use this minimum" on another row makes that
// minimum the result (its start fitted again); the settings are kept in the project; the waterfall
// is a plot that exports.
#include "UiTestSupport.h"

#include "ui/plots/WaterfallPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/MultistartPanel.h"
#include "ui/run/MultistartRunner.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace sysid;

class TestUiMultistart : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void waterfallSortsAndMarks()
    {
        ui::WaterfallPlot plot;
        plot.resize(400, 300);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        plot.setCosts({5, 1, nan, 3, 1});
        QCOMPARE(plot.pointCount(), 4);  // the failed start is left out
        QVERIFY(plot.isLogarithmic());
        plot.setMarked({1});
        QCOMPARE(plot.markedCount(), 2);
        plot.setCosts({0, 2});
        QVERIFY(!plot.isLogarithmic());  // a zero cost cannot go on a log axis
        QTemporaryDir dir;
        const QString png = dir.filePath("waterfall.png");
        QVERIFY(plot.exportTo(png, 400, 300));
        QVERIFY(QFileInfo(png).size() > 1000);
    }

    void runFindsTheGlobalMinimumAndUsesAnother()
    {
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(test::examplePath(QStringLiteral("sine_frequency.sysid")), &error), qPrintable(error));
        ui::MultistartPanel panel(&document);
        panel.resize(700, 500);
        QCOMPARE(panel.startsSpin()->value(), 40);  // the project's settings
        QCOMPARE(panel.seedSpin()->value(), 1);
        panel.startsSpin()->setValue(30);
        QVERIFY(document.project().multistart && document.project().multistart->starts == 30);

        QSignalSpy ended(&panel, &ui::MultistartPanel::runEnded);
        QSignalSpy starts(panel.runner(), &ui::MultistartRunner::startFinished);
        panel.runButton()->click();
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(ended.wait(60000));
        QCOMPARE(starts.size(), 30);
        const auto result = panel.result();
        QVERIFY(result && result->best);
        QCOMPARE(panel.waterfall()->pointCount(), 30);
        QVERIFY(panel.minimaTable()->rowCount() >= 3);
        QCOMPARE(panel.minimaTable()->columnCount(), 4);  // cost, starts, w, A
        QVERIFY2(panel.statusLabel()->text().contains(QStringLiteral("distinct minima")),
                 qPrintable(panel.statusLabel()->text()));
        // The best is the project's result: the true frequency.
        QVERIFY(document.result());
        QVERIFY(std::abs(document.result()->parameters[0].value - 2) < 1e-3);
        QCOMPARE(document.result()->cost, result->minima.front().cost);
        QCOMPARE(panel.waterfall()->markedCount(), static_cast<int>(result->minima.front().starts.size()));

        // Another minimum as the result: its start is fitted again, with the same cost.
        panel.minimaTable()->selectRow(1);
        QCOMPARE(panel.waterfall()->markedCount(), static_cast<int>(result->minima[1].starts.size()));
        QVERIFY(panel.useButton()->isEnabled());
        panel.useButton()->click();
        QVERIFY(ended.wait(60000));
        QVERIFY(document.result());
        QCOMPARE(document.result()->cost, result->minima[1].cost);
        QVERIFY(std::abs(document.result()->parameters[0].value - 2) > 0.1);
        // And back to the best, at once.
        panel.useMinimum(0);
        QCOMPARE(document.result()->cost, result->minima.front().cost);
    }

    void cancelStopsTheRun()
    {
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(test::examplePath(QStringLiteral("sine_frequency.sysid")), &error), qPrintable(error));
        ui::MultistartPanel panel(&document);
        panel.startsSpin()->setValue(2000);
        panel.threadsSpin()->setValue(1);
        QSignalSpy ended(&panel, &ui::MultistartPanel::runEnded);
        connect(panel.runner(), &ui::MultistartRunner::startFinished, &panel, [&panel] { panel.cancel(); });
        panel.runButton()->click();
        QVERIFY(ended.wait(60000));
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY2(panel.statusLabel()->text().startsWith(QStringLiteral("cancelled")),
                 qPrintable(panel.statusLabel()->text()));
        QVERIFY(!panel.result() || panel.result()->starts.size() < 2000);
    }
};

QTEST_MAIN(TestUiMultistart)
#include "test_ui_multistart.moc"
