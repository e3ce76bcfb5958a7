// The "Profiles" tab, offscreen. Known answers: for x' = a + b t (linear in a and b) the profile
// interval the panel draws is the Wald interval; the plot shows the points, the threshold and both
// intervals and exports; the results table gains the profile interval only once there is one.
#include "UiTestSupport.h"

#include "engine/job/FitJob.h"
#include "ui/plots/ProfilePlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ProfilePanel.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/ProfileRunner.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

// x = t + t^2 with a fixed disturbance (a = 1, b = 2), so the residuals are not zero.
// `intervals` samples over two seconds; a long record makes each re-fit slow enough that a cancel
// sent on the first point reaches the worker long before the profile could finish.
QString writeLinearProject(const QTemporaryDir& dir, int intervals = 40)
{
    QByteArray csv = "t,x\n";
    for (int k = 0; k <= intervals; ++k) {
        const double t = 2.0 * k / intervals;
        csv += QByteArray::number(t, 'g', 17) + "," + QByteArray::number(t + t * t + 0.01 * ((k % 3) - 1.0), 'g', 17) +
            "\n";
    }
    if (!test::writeFile(dir.filePath("noisy.csv"), csv))
        return {};
    const QByteArray project =
        "{\"version\": 1, \"model\": {\"source\": \"linear.model\", \"text\": [\"param a = 0.5 [-10, 10]\", "
        "\"param b = 0.5 [-10, 10]\", \"state x = 0\", \"x' = a + b*t\", \"output x\"]}, \"data\": [{\"path\": "
        "\"noisy.csv\"}]}\n";
    const QString path = dir.filePath("linear.sysid");
    return test::writeFile(path, project) ? path : QString();
}

}  // namespace

class TestUiProfile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void plotShowsProfileThresholdAndIntervals()
    {
        job::ProfileResult result;
        result.threshold = 3.84;
        result.objectiveAtOptimum = 10;
        result.parameterNames = {"k"};
        result.optimum.value = 2;
        result.optimum.objective = 10;
        result.optimum.parameters = {2};
        job::ParameterProfile p;
        p.name = "k";
        p.unit = "1/s";
        p.estimate = 2;
        p.sd = 0.5;
        p.waldInterval = {2 - 0.98, 2 + 0.98};
        const auto point = [](double value, double objective) {
            job::ProfilePoint out;
            out.value = value;
            out.objective = objective;
            out.parameters = {value};
            return out;
        };
        for (const double v : {1.5, 1.0})
            p.lower.points.push_back(point(v, 10 + std::pow((v - 2) / 0.5, 2)));
        for (const double v : {2.5, 3.5})
            p.upper.points.push_back(point(v, 10 + 0.5 * std::pow((v - 2) / 0.5, 2)));
        p.low = 1.02;
        p.high = 3.3;
        p.verdict = job::ProfileVerdict::Identifiable;
        ui::ProfilePlot plot;
        plot.resize(500, 300);
        plot.setProfile(p, result);
        QCOMPARE(plot.pointCount(), 5);
        QCOMPARE(plot.threshold(), 3.84);
        QCOMPARE(*plot.low(), 1.02);
        QCOMPARE(*plot.high(), 3.3);
        QCOMPARE(plot.waldInterval()[0], 2 - 0.98);
        QVERIFY2(plot.xAxisLabel().contains("k [1/s]") && plot.xAxisLabel().contains("identifiable"),
                 qPrintable(plot.xAxisLabel()));
        const QStringList legend = plot.legendEntries();
        QVERIFY2(legend.contains("profile") && legend.contains("Wald interval") && legend.contains("profile interval"),
                 qPrintable(legend.join(", ")));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(plot.exportTo(dir.filePath("profile.png"), 600, 400, &error), qPrintable(error));
        QVERIFY(QFileInfo(dir.filePath("profile.png")).size() > 1000);
        p.high.reset();  // open on the upper side: one end drawn
        plot.setProfile(p, result);
        QVERIFY(!plot.high());
    }

    void panelProfilesTheLinearModelToItsWaldInterval()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(dir);
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        ui::ProfilePanel panel(&document);
        QCOMPARE(panel.parameters(), (QStringList{"a", "b"}));
        panel.setChosenParameters({"b"});
        QCOMPARE(panel.chosenParameters(), QStringList{"b"});

        QSignalSpy ended(&panel, &ui::ProfilePanel::runEnded);
        QSignalSpy finished(&panel, &ui::ProfilePanel::profilesFinished);
        QSignalSpy points(panel.runner(), &ui::ProfileRunner::pointComputed);
        panel.runButton()->click();
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(panel.cancelButton()->isEnabled());
        QVERIFY(ended.wait(60000));
        QCOMPARE(finished.count(), 1);
        QVERIFY(points.count() >= 14);  // each re-fit streamed
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY2(panel.statusLabel()->text().contains("re-fits"), qPrintable(panel.statusLabel()->text()));
        QCOMPARE(panel.plots().size(), 1);
        const ui::ProfilePlot* plot = panel.plotOf("b");
        QVERIFY(plot);
        QVERIFY(plot->low() && plot->high());
        const auto wald = plot->waldInterval();
        const double width = wald[1] - wald[0];
        QVERIFY(std::abs(*plot->low() - wald[0]) < 1e-6 * width);
        QVERIFY(std::abs(*plot->high() - wald[1]) < 1e-6 * width);

        // The results table: no profile column until profiles exist for its parameters.
        ui::ResultsPanel results;
        job::FitJob fit = document.makeFitJob();
        job::NullProgressSink sink;
        results.setResult(fit.run(sink));
        QVERIFY(!results.showsProfileIntervals());
        results.setProfileIntervals(*panel.result());
        QVERIFY(results.showsProfileIntervals());
        const QTableWidget* table = results.parameterTable();
        QVERIFY(table->item(0, ui::ResultsPanel::ColProfile)->text().isEmpty());  // a was not profiled
        QCOMPARE(table->item(1, ui::ResultsPanel::ColProfile)->text(),
                 QStringLiteral("[%1, %2]")
                     .arg(ui::ResultsPanel::formatNumber(*plot->low()), ui::ResultsPanel::formatNumber(*plot->high())));
        QVERIFY(table->item(1, ui::ResultsPanel::ColProfile)->toolTip().contains("identifiable"));
        results.setResult(fit.run(sink));
        QVERIFY(!results.showsProfileIntervals());

        // The choices and the profiles are the project's: saved, and shown again on opening it.
        QVERIFY(document.project().lastProfileResult);
        QCOMPARE((*document.project().lastProfileResult)["profiles"].size(), std::size_t(1));
        panel.pointsSpin()->setValue(7);
        QVERIFY2(document.save(path, &error), qPrintable(error));
        ui::ProjectDocument reopened;
        QVERIFY2(reopened.load(path, &error), qPrintable(error));
        QVERIFY(reopened.project().profile);
        QCOMPARE(reopened.project().profile->settings.points, std::size_t(7));
        QVERIFY(reopened.project().lastProfileResult);
        ui::ProfilePanel again(&reopened);
        QCOMPARE(again.chosenParameters(), QStringList{"b"});
        QCOMPARE(again.pointsSpin()->value(), 7);
    }

    void cancelKeepsThePointsDone()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(dir, 40000);
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        ui::ProfilePanel panel(&document);
        QSignalSpy ended(&panel, &ui::ProfilePanel::runEnded);
        connect(panel.runner(), &ui::ProfileRunner::pointComputed, &panel, [&panel] { panel.cancel(); });
        panel.runButton()->click();
        QVERIFY(ended.wait(60000));
        QVERIFY2(panel.statusLabel()->text().startsWith("cancelled"), qPrintable(panel.statusLabel()->text()));
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.cancelButton()->isEnabled());
    }
};

QTEST_MAIN(TestUiProfile)
#include "test_ui_profile.moc"
