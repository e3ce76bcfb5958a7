// The periodic-solution panel in the main window: settings become a job, the orbit and the
// frequency-response curve are drawn from what the engine returns, and bad settings say why.
#include "UiTestSupport.h"

#include "ui/main/MainWindow.h"
#include "ui/periodic/PeriodicController.h"
#include "ui/periodic/PeriodicPanel.h"
#include "ui/plots/BranchPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/settings/NumberField.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>

using namespace sysid;

namespace {

const QString duffing = QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/duffing_frequency_response.model");

}  // namespace

class TestUiPeriodic : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(QStringLiteral("sysid-periodic-test")); }

    void panelBuildsTheJob()
    {
        ui::MainWindow w(duffing);
        ui::PeriodicPanel* panel = w.periodicPanel();
        QCOMPARE(panel->sweepParameterCombo()->currentText(), QStringLiteral("w"));  // the likely frequency
        panel->periodEdit()->setText(QStringLiteral("3.5"));
        panel->periodsSpin()->setValue(2);
        panel->solverCombo()->setCurrentIndex(1);
        panel->nodesSpin()->setValue(300);
        QVERIFY(!panel->intervalsSpin()->isEnabled());
        QString error;
        auto job = panel->job(w.document()->modelText(), w.document()->modelSource(), &error);
        QVERIFY2(job, qPrintable(error));
        QCOMPARE(job->shooting.period, 3.5);
        QCOMPARE(job->shooting.periods, std::size_t{2});
        QCOMPARE(job->solver, discretise::PeriodicSolver::Discretisation);
        QCOMPARE(job->nodes, std::size_t{300});
        QVERIFY(!job->sweep);

        panel->periodEdit()->setText(QStringLiteral("-1"));
        QVERIFY(!panel->job(w.document()->modelText(), w.document()->modelSource(), &error));
        QVERIFY(error.contains(QStringLiteral("period")));
        // A frequency sweep takes its period from the parameter: the field is not needed.
        panel->sweepBox()->setChecked(true);
        QVERIFY(!panel->periodEdit()->isEnabled());
        panel->sweepFromEdit()->setText(QStringLiteral("x"));
        QVERIFY(!panel->job(w.document()->modelText(), w.document()->modelSource(), &error));
        QVERIFY(error.contains(QStringLiteral("Continuation")));
        panel->sweepFromEdit()->setText(QStringLiteral("0.5"));
        job = panel->job(w.document()->modelText(), w.document()->modelSource(), &error);
        QVERIFY2(job && job->sweep, qPrintable(error));
        QCOMPARE(job->sweep->parameter, std::string("w"));
        QVERIFY(job->sweep->frequency);
        QVERIFY(job->sweep->method == shooting::ContinuationMethod::PseudoArclength);
        // The continuation method is picked from its table; bad settings say which and why.
        QCOMPARE(panel->continuationCombo()->count(),
                 static_cast<int>(shooting::kContinuationMethods.entries().size()));
        panel->continuationCombo()->setCurrentIndex(
            panel->continuationCombo()->findData(static_cast<int>(shooting::ContinuationMethod::Natural)));
        job = panel->job(w.document()->modelText(), w.document()->modelSource(), &error);
        QVERIFY2(job && job->sweep, qPrintable(error));
        QVERIFY(job->sweep->method == shooting::ContinuationMethod::Natural);
        panel->sweepFromEdit()->setText(QStringLiteral("-1"));
        QVERIFY(!panel->job(w.document()->modelText(), w.document()->modelSource(), &error));
        QVERIFY2(error.contains(QStringLiteral("Continuation")) && error.contains(QStringLiteral("frequencies > 0")),
                 qPrintable(error));
    }

    void orbitIsDrawnWithItsStability()
    {
        ui::MainWindow w(duffing);
        ui::PeriodicPanel* panel = w.periodicPanel();
        panel->periodEdit()->setText(QString::number(2 * std::numbers::pi, 'g', 17));
        QSignalSpy shown(w.periodicController(), &ui::PeriodicController::orbitShown);
        panel->runButton()->click();
        QVERIFY(!panel->runButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!w.periodicController()->runner()->isRunning(), 30000);
        QTRY_COMPARE(shown.count(), 1);
        QVERIFY(w.orbitPlot()->modelCount() >= 100);
        QVERIFY2(panel->resultText().contains(QStringLiteral("stable")), qPrintable(panel->resultText()));
        QVERIFY(panel->resultText().contains(QStringLiteral("Floquet multipliers")));
        QVERIFY(panel->runButton()->isEnabled());
    }

    // The Duffing frequency response folds twice; the middle branch is drawn as unstable.
    void frequencyResponseShowsFoldsAndUnstableBranch()
    {
        ui::MainWindow w(duffing);
        ui::PeriodicPanel* panel = w.periodicPanel();
        panel->sweepBox()->setChecked(true);
        panel->sweepFromEdit()->setText(QStringLiteral("0.5"));
        panel->sweepToEdit()->setText(QStringLiteral("2.5"));
        QSignalSpy shown(w.periodicController(), &ui::PeriodicController::branchShown);
        panel->runButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, 60000);
        QCOMPARE(w.branchPlot()->markerCount(), 2);
        QVERIFY(w.branchPlot()->unstableCount() > 0);
        QVERIFY(w.branchPlot()->stableCount() > w.branchPlot()->unstableCount());
        QVERIFY(panel->resultText().contains(QStringLiteral("2 fold(s)")));
    }

    void failureIsShownNotThrown()
    {
        ui::MainWindow w(QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/mass_spring_damper.model"));
        w.periodicPanel()->runButton()->click();  // the model has an input: no periodic solution job
        QTRY_VERIFY_WITH_TIMEOUT(
            !w.periodicController()->runner()->isRunning() && w.periodicPanel()->runButton()->isEnabled(), 30000);
        QVERIFY2(
            w.periodicPanel()->resultText().contains(QStringLiteral("Measured excitation: choose the record of u")),
            qPrintable(w.periodicPanel()->resultText()));
        // A file that cannot be read is named.
        w.periodicPanel()->setInputFile(QStringLiteral("/nonexistent/force.csv"));
        w.periodicPanel()->runButton()->click();
        QVERIFY2(w.periodicPanel()->resultText().contains(QStringLiteral("force.csv")),
                 qPrintable(w.periodicPanel()->resultText()));
    }

    // A model driven by a measured input: the record is a CSV file of u = cos(1.3 t) over one period;
    // the orbit is the analytic one, and a continuation in the damping runs with the same record.
    void measuredExcitationFromAFile()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("driven.model"));
        QVERIFY(test::writeFile(model,
                                "param c = 0.2\nparam k = 1\ninput u\nx'' = -c*x' - k*x + u\n"
                                "x(0) = 0, 0\noutput x\n"));
        const double omega = 1.3, T = 2 * std::numbers::pi / omega;
        QByteArray csv = "t,u\n";
        for (int k = 0; k < 64; ++k)
            csv += QByteArray::number(T * k / 64, 'g', 17) + "," +
                QByteArray::number(std::cos(omega * T * k / 64), 'g', 17) + "\n";
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("u.csv")), csv));

        ui::MainWindow w(model);
        ui::PeriodicPanel* panel = w.periodicPanel();
        QVERIFY(!panel->inputBox()->isHidden());
        QVERIFY(panel->inputBox()->title().contains(QStringLiteral("u")));
        QVERIFY(!panel->frequencyCheck()->isChecked());  // a measured record fixes the period
        panel->periodEdit()->setText(QString::number(T, 'g', 17));
        panel->setInputFile(dir.filePath(QStringLiteral("u.csv")));
        QCOMPARE(panel->inputDataSet(), -1);
        panel->inputPeriodsCombo()->setCurrentIndex(1);
        QString error;
        auto job = panel->job(w.document()->modelText(), w.document()->modelSource(), &error);
        QVERIFY2(job, qPrintable(error));
        QCOMPARE(job->inputPeriods, std::size_t{1});

        QSignalSpy shown(w.periodicController(), &ui::PeriodicController::orbitShown);
        panel->runButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!w.periodicController()->runner()->isRunning() && shown.count() == 1, 30000);
        QVERIFY2(panel->resultText().contains(QStringLiteral("stable")), qPrintable(panel->resultText()));
        const auto orbit = w.orbitPlot();
        QVERIFY(orbit->modelCount() >= 100);

        QSignalSpy branch(w.periodicController(), &ui::PeriodicController::branchShown);
        panel->sweepBox()->setChecked(true);
        panel->sweepParameterCombo()->setCurrentText(QStringLiteral("c"));
        panel->sweepFromEdit()->setText(QStringLiteral("0.2"));
        panel->sweepToEdit()->setText(QStringLiteral("0.4"));
        panel->runButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!w.periodicController()->runner()->isRunning() && branch.count() == 1, 30000);
        QVERIFY(w.branchPlot()->stableCount() >= 3);
    }

    // The oleo example: the force is the F column of the project's data set (three periods, averaged).
    void measuredExcitationFromADataSet()
    {
        ui::MainWindow w(QStringLiteral(SYSID_SOURCE_DIR "/resources/examples/oleo.sysid"));
        ui::PeriodicPanel* panel = w.periodicPanel();
        QVERIFY(!panel->inputBox()->isHidden());
        QCOMPARE(panel->inputSourceCombo()->count(), 2);  // the data set and "CSV file"
        QCOMPARE(panel->inputDataSet(), 0);
        QCOMPARE(panel->periodEdit()->value(), 2.0);  // the project's periodic-response period
        QSignalSpy shown(w.periodicController(), &ui::PeriodicController::orbitShown);
        panel->runButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!w.periodicController()->runner()->isRunning(), 60000);
        QVERIFY2(shown.count() == 1, qPrintable(panel->resultText()));
        QVERIFY2(panel->resultText().contains(QStringLiteral("stable")), qPrintable(panel->resultText()));
    }

    // The README's frequency-response screenshot comes from the application itself.
    void screenshotAfterAFrequencyResponse()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("frc.png"));
        QProcess gui;
        gui.start(QStringLiteral(SYSID_BINARY_DIR "/app/sysid-gui"),
                  {QStringLiteral("--screenshot"), file, duffing, QStringLiteral("--frequency-response"),
                   QStringLiteral("w=0.5:2.5")});
        QVERIFY(gui.waitForFinished(120000));
        QCOMPARE(gui.exitCode(), 0);
        QImage image(file);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 500);

        gui.start(QStringLiteral(SYSID_BINARY_DIR "/app/sysid-gui"),
                  {QStringLiteral("--screenshot"), file, duffing, QStringLiteral("--frequency-response"),
                   QStringLiteral("w=1")});
        QVERIFY(gui.waitForFinished(30000));
        QCOMPARE(gui.exitCode(), 2);
        QVERIFY(gui.readAllStandardError().contains("NAME=FROM:TO"));
    }

    void cancelEndsQuickly()
    {
        ui::MainWindow w(duffing);
        ui::PeriodicPanel* panel = w.periodicPanel();
        panel->sweepBox()->setChecked(true);
        panel->sweepFromEdit()->setText(QStringLiteral("0.2"));
        panel->sweepToEdit()->setText(QStringLiteral("20"));
        panel->runButton()->click();
        QTest::qWait(100);
        QElapsedTimer timer;
        timer.start();
        panel->cancelButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!w.periodicController()->runner()->isRunning(), 5000);
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(panel->runButton()->isEnabled());
    }
};

QTEST_MAIN(TestUiPeriodic)
#include "test_ui_periodic.moc"
