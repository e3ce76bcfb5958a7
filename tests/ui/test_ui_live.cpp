// The model simulated at the current parameter values (ui/run/LiveSimulation) in the main window:
// a changed value is drawn over the data within a second and equals an engine simulation at that
// value; rapid edits are debounced into a couple of simulations; an invalid model gives no curve
// and no dialog; a failing simulation says so in the status bar; a fit shows its own curve, and
// the next edit the live one again.
#include "UiTestSupport.h"

#include "engine/job/SimulationJob.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/FitRunner.h"
#include "ui/run/LiveSimulation.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QStatusBar>
#include <QtTest>

#include <cmath>

using namespace sysid;
using sysid::test::examplePath;

namespace {

class Quiet final : public job::ProgressSink {
public:
    void started(const std::vector<std::string>&) override {}
    void iteration(const estimate::IterationRecord&) override {}
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
    void log(const std::string&) override {}
    void finished(job::JobStatus, const std::string&) override {}
};

// The first output of the model text simulated by the engine over data set 0 as a fit uses it.
std::vector<double> engineSimulation(const ui::ProjectDocument& document)
{
    const data::DataTable* table = document.fittedTable(0);
    job::SimulationJob simulation;
    simulation.modelText = document.modelText().toStdString();
    simulation.times = table->time();
    simulation.inputs = *table;
    simulation.inputMapping = document.dataSet(0).mapping;
    simulation.settings = document.settings().integrator;
    Quiet quiet;
    const integrate::Trajectory trajectory = simulation.run(quiet);
    std::vector<double> y;
    for (Eigen::Index i = 0; i < trajectory.outputs.rows(); ++i)
        y.push_back(trajectory.outputs(i, 0));
    return y;
}

bool idle(ui::MainWindow& w)
{
    return QTest::qWaitFor([&] { return !w.liveSimulation()->isRunning(); }, 5000);
}

// The window as it opens: the starting guess is simulated once model and data are there.
bool settled(ui::MainWindow& w)
{
    return QTest::qWaitFor(
               [&] { return w.outputPlot(0)->isModelAtCurrentValues() && w.outputPlot(0)->modelCount() > 0; }, 5000) &&
        idle(w);
}

QString withStiffness(const QString& text, const QString& value)
{
    QString out = text;
    out.replace(QStringLiteral("param k = 10 [0, 100]"), QStringLiteral("param k = %1 [0, 100]").arg(value));
    return out;
}

bool noDialog()
{
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->isVisible() && (qobject_cast<QMessageBox*>(w) || qobject_cast<QDialog*>(w)))
            return false;
    return QApplication::activeModalWidget() == nullptr;
}

}  // namespace

class TestUiLive : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void aChangedValueIsDrawnWithinASecond()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        w.show();
        QVERIFY(settled(w));
        ui::TimeSeriesPlot* output = w.outputPlot(0);
        QVERIFY(output->legendEntries().contains(QStringLiteral("s model at current values")));
        QVERIFY(!output->isModelOutOfDate());
        const QString original = w.document()->modelText();
        QVERIFY(original.contains(QStringLiteral("param k = 10 [0, 100]")));

        QElapsedTimer clock;
        clock.start();
        const std::vector<double> before = output->modelValues();
        w.document()->setModelText(withStiffness(original, QStringLiteral("4")));
        QVERIFY(
            QTest::qWaitFor([&] { return output->modelValues() != before && !w.liveSimulation()->isRunning(); }, 1000));
        qInfo("curve at the new value after %lld ms", static_cast<long long>(clock.elapsed()));
        const std::vector<double> expected = engineSimulation(*w.document());
        const std::vector<double> drawn = output->modelValues();
        QCOMPARE(drawn.size(), expected.size());  // the record is small enough to be drawn whole
        QCOMPARE(output->modelTimes(), w.document()->fittedTable(0)->time());
        for (std::size_t i = 0; i < drawn.size(); ++i)
            QVERIFY2(std::abs(drawn[i] - expected[i]) <= 1e-12 * (1 + std::abs(expected[i])),
                     qPrintable(QString::number(i)));
        QVERIFY(output->residualCount() > 0);  // measured - model at the current values
        w.document()->setModelText(original);
        QVERIFY(idle(w));
    }

    void rapidEditsRunACoupleOfSimulations()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        QVERIFY(settled(w));
        const QString original = w.document()->modelText();
        const int before = w.liveSimulation()->simulationsStarted();
        for (int k = 1; k <= 10; ++k) {  // typing: a keystroke every 50 ms
            w.document()->setModelText(withStiffness(original, QString::number(k)));
            QTest::qWait(50);
        }
        QTest::qWait(ui::LiveSimulation::kDebounceMs + 100);
        QVERIFY(idle(w));
        const int runs = w.liveSimulation()->simulationsStarted() - before;
        qInfo("%d simulation(s) for 10 edits", runs);
        QVERIFY(runs >= 1 && runs <= 2);
        // The curve is the last value's.
        const std::vector<double> expected = engineSimulation(*w.document());
        const std::vector<double> drawn = w.outputPlot(0)->modelValues();
        QCOMPARE(drawn.size(), expected.size());
        QVERIFY(std::abs(drawn.back() - expected.back()) <= 1e-12 * (1 + std::abs(expected.back())));
        w.document()->setModelText(original);
        QVERIFY(idle(w));
    }

    void anInvalidModelGivesNoCurveAndNoDialog()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        w.show();
        QVERIFY(settled(w));
        const QString original = w.document()->modelText();
        QString broken = original;
        broken.replace(QStringLiteral("param k = 10 [0, 100]"), QStringLiteral("param k = 10 [0, 100"));
        QVERIFY(broken != original);
        const int before = w.liveSimulation()->simulationsStarted();
        w.document()->setModelText(broken);
        QVERIFY(QTest::qWaitFor([&] { return w.outputPlot(0)->modelCount() == 0; }, 1000));
        QTest::qWait(100);
        QCOMPARE(w.liveSimulation()->simulationsStarted(), before);
        QCOMPARE(w.outputPlot(0)->modelCount(), 0);
        QVERIFY(noDialog());

        // A model that parses but cannot be simulated on these data (an input the record lacks):
        // the message goes to the status bar, not into a dialog.
        QString unknownInput = original;
        unknownInput.replace(QStringLiteral("param k = 10 [0, 100]"), QStringLiteral("param k = 10 [0, 100]\ninput w"));
        unknownInput.replace(QStringLiteral("(u - b*s'"), QStringLiteral("(u + w - b*s'"));
        QVERIFY(unknownInput.contains(QStringLiteral("u + w")));
        w.document()->setModelText(unknownInput);
        QVERIFY(w.document()->modelSummary().valid);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return w.statusBar()->currentMessage().contains(QStringLiteral("simulation at the current values"));
            },
            2000));
        qInfo("%s", qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(w.outputPlot(0)->modelCount(), 0);
        QVERIFY(noDialog());
        w.document()->setModelText(original);
        QVERIFY(settled(w));
    }

    void aFitShowsItsCurveAndTheNextEditTheLiveOne()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        QVERIFY(settled(w));
        const int before = w.liveSimulation()->simulationsStarted();
        w.runFit();
        QVERIFY(w.runner()->isRunning());
        QVERIFY(QTest::qWaitFor([&] { return !w.runner()->isRunning(); }, 60000));
        QVERIFY(w.document()->result().has_value());
        QTest::qWait(ui::LiveSimulation::kDebounceMs + 200);
        ui::TimeSeriesPlot* output = w.outputPlot(0);
        QVERIFY(!output->isModelAtCurrentValues());  // the fit's response
        QVERIFY(output->legendEntries().contains(QStringLiteral("s model")));
        QCOMPARE(w.liveSimulation()->simulationsStarted(), before);  // none while or after the fit

        w.document()->setModelText(withStiffness(w.document()->modelText(), QStringLiteral("3")));
        QVERIFY(QTest::qWaitFor([&] { return output->isModelAtCurrentValues(); }, 1000));
        QVERIFY(idle(w));
        QVERIFY(output->legendEntries().contains(QStringLiteral("s model at current values")));
        // A new starting value poses the same problem: the fit's result stays current.
        QVERIFY(w.document()->resultOutOfDate().isEmpty());
        w.document()->newFromModel(QStringLiteral("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n"),
                                   QStringLiteral("decay.model"));  // nothing left to save
    }
};

QTEST_MAIN(TestUiLive)
#include "test_ui_live.moc"
