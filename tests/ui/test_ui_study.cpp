// The Monte Carlo study dock: its settings come from and go to the project's "study" member,
// Run identifies N noisy copies of the project's data on a worker thread (progress bar, summary
// table, box plot normalised by the true values), Cancel ends a long study within a second with
// the realisations that finished, the result exports as JSON and CSV, and the window has the dock.
#include "UiTestSupport.h"

#include "engine/job/NoiseStudy.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/BoxPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/run/StudyRunner.h"
#include "ui/settings/NumberField.h"
#include "ui/study/StudyPanel.h"

#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

// x' = a + b t with clean data for a = 1, b = 2 (x = t + t^2 on 0..2) and a "study" member.
QString writeLinearProject(const QTemporaryDir& dir, const QByteArray& study)
{
    if (!test::writeLinearCleanData(dir.filePath("clean.csv")))
        return {};
    const QByteArray project =
        "{\"version\": 1, \"model\": {\"source\": \"linear.model\", \"text\": [\"param a = 0.5\", \"param b = 0.5\", "
        "\"state x = 0\", \"x' = a + b*t\", \"output x\"]}, \"data\": [{\"path\": \"clean.csv\", \"true_values\": "
        "{\"a\": 1, \"b\": 2}}], \"study\": " +
        study + "}\n";
    const QString path = dir.filePath("linear.sysid");
    return test::writeFile(path, project) ? path : QString();
}

}  // namespace

class TestUiStudy : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void settingsComeFromAndGoToTheProject()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(
            dir, R"({"realisations": 30, "noise_percent": 7.5, "distribution": "gaussian", "seed": 4})");
        QVERIFY(!path.isEmpty());
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        ui::StudyPanel panel(&document);
        QCOMPARE(panel.realisationsSpin()->value(), 30);
        QCOMPARE(panel.noiseField()->value(), 7.5);
        QCOMPARE(panel.distributionCombo()->currentData().toString(), QString("gaussian"));
        QCOMPARE(panel.seedSpin()->value(), 4);
        QVERIFY(!document.isModified());

        panel.noiseField()->setValue(12.0);
        panel.distributionCombo()->setCurrentIndex(0);
        QVERIFY(document.isModified());
        QCOMPARE(document.project().study->noisePercent, 12.0);
        QVERIFY2(document.save(path, &error), qPrintable(error));
        const QJsonObject saved = QJsonDocument::fromJson(test::readFile(path)).object()["study"].toObject();
        QCOMPARE(saved["noise_percent"].toDouble(), 12.0);
        QCOMPARE(saved["distribution"].toString(), QString("uniform"));
        QCOMPARE(saved["realisations"].toInt(), 30);

        ui::ProjectDocument reopened;
        QVERIFY(reopened.load(path, &error));
        ui::StudyPanel again(&reopened);
        QCOMPARE(again.noiseField()->value(), 12.0);
        QCOMPARE(again.distributionCombo()->currentIndex(), 0);
    }

    // Before a run the empty table has the columns of the study Run would make: no "true" or
    // "bias" for a parametric bootstrap.
    void theEmptyTableFollowsTheChosenStudy()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(dir, R"({"realisations": 30})");
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        ui::StudyPanel panel(&document);
        QComboBox* kind = panel.kindCombo();
        const auto header = [&panel](int column) { return panel.summaryTable()->horizontalHeaderItem(column)->text(); };
        kind->setCurrentIndex(kind->findData(QStringLiteral("bootstrap")));
        QCOMPARE(header(1), QStringLiteral("estimate"));
        QCOMPARE(header(5), QStringLiteral("97.5 %"));
        kind->setCurrentIndex(kind->findData(QStringLiteral("monte-carlo")));
        QCOMPARE(header(1), QStringLiteral("true"));
        QCOMPARE(header(4), QStringLiteral("bias"));
    }

    void runFillsTableAndBoxPlotAndExports()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(
            dir, R"({"realisations": 60, "noise_percent": 5, "distribution": "gaussian", "seed": 11})");
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        ui::StudyPanel panel(&document);
        panel.threadsSpin()->setValue(2);
        QSignalSpy finished(&panel, &ui::StudyPanel::finished);
        QSignalSpy progress(panel.runner(), &ui::StudyRunner::realisationFinished);
        QVERIFY(!panel.exportButton()->isEnabled());
        panel.runButton()->click();
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(panel.cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(progress.count(), 60);
        QCOMPARE(panel.progressBar()->value(), 60);
        QCOMPARE(panel.progressBar()->maximum(), 60);
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(panel.exportButton()->isEnabled());

        const auto result = panel.result();
        QVERIFY(result);
        QCOMPARE(result->realisations.size(), std::size_t{60});
        QCOMPARE(result->failed, std::size_t{0});
        // The same study run directly in the engine gives the same numbers.
        job::NoiseStudy direct;
        direct.fit = document.makeFitJob();
        direct.settings = panel.settings();
        direct.trueValues = document.trueValues();
        const job::NoiseStudyResult reference = direct.run();
        QCOMPARE(result->summary[0].mean, reference.summary[0].mean);
        QCOMPARE(result->summary[1].sd, reference.summary[1].sd);

        QTableWidget* table = panel.summaryTable();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QString("a"));
        QCOMPARE(table->item(0, 1)->text(), QString("1"));
        // A mean to the second significant digit of its sd (narrow columns, no false digits).
        const double sd1 = reference.summary[1].sd;
        QVERIFY(std::abs(table->item(1, 2)->text().toDouble() - reference.summary[1].mean) <= 0.05 * sd1);
        QCOMPARE(table->item(1, 2)->text().section('.', 1).size(), 1 - int(std::floor(std::log10(sd1))));
        // Spreads and biases, known to a few per cent from the sample, to three digits.
        QCOMPARE(table->item(0, 5)->text().toDouble(),
                 QString::number(reference.summary[0].biasPercent, 'g', 3).toDouble());

        // Box plot: divided by the true values, the true value at 1, quartiles in order.
        const auto& boxes = panel.boxPlot()->boxes();
        QCOMPARE(boxes.size(), std::size_t{2});
        for (std::size_t p = 0; p < 2; ++p) {
            const auto& b = boxes[p];
            const auto& s = reference.summary[p];
            QVERIFY(b.byTrueValue);
            QCOMPARE(b.scale, s.trueValue);
            QCOMPARE(b.trueMark, 1.0);
            QCOMPARE(b.median, s.median / s.trueValue);
            QVERIFY(b.lowerWhisker <= b.q1 && b.q1 <= b.median && b.median <= b.q3 && b.q3 <= b.upperWhisker);
            QVERIFY(std::abs(b.median - 1) < 0.1);
            for (const double o : b.outliers)
                QVERIFY(o < b.lowerWhisker || o > b.upperWhisker);
        }
        QVERIFY(panel.boxPlot()->exportTo(dir.filePath("box.png"), 400, 300));
        QVERIFY(QFile(dir.filePath("box.png")).size() > 0);

        QVERIFY2(panel.exportResult(dir.filePath("study.json"), &error), qPrintable(error));
        const QJsonObject json = QJsonDocument::fromJson(test::readFile(dir.filePath("study.json"))).object();
        QCOMPARE(json["completed"].toInt(), 60);
        QCOMPARE(json["parameters"].toObject()["b"].toObject()["mean"].toDouble(), reference.summary[1].mean);
        QVERIFY2(panel.exportResult(dir.filePath("study.csv"), &error), qPrintable(error));
        QCOMPARE(test::readFile(dir.filePath("study.csv")).count('\n'), 61);
        QVERIFY(!panel.exportResult(dir.filePath("missing/folder/study.json"), &error));
        QVERIFY(!error.isEmpty());
    }

    void cancelReturnsWithinASecond()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(dir, R"({"realisations": 1000000, "noise_percent": 5})");
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        ui::StudyPanel panel(&document);
        panel.threadsSpin()->setValue(2);
        QSignalSpy finished(&panel, &ui::StudyPanel::finished);
        QSignalSpy progress(panel.runner(), &ui::StudyRunner::realisationFinished);
        panel.runButton()->click();
        QVERIFY(progress.wait(30000));
        QElapsedTimer timer;
        timer.start();
        panel.cancelButton()->click();
        QVERIFY(finished.wait(5000));
        qInfo("finished %lld ms after Cancel", static_cast<long long>(timer.elapsed()));
        QVERIFY(timer.elapsed() < 1000);
        const auto result = panel.result();
        QVERIFY(result && result->cancelled);
        QVERIFY(!result->realisations.empty() && result->realisations.size() < 1000000);
        QCOMPARE(panel.summaryTable()->rowCount(), 2);  // the realisations that finished
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.cancelButton()->isEnabled());
    }

    void boxPlotWithoutOrWithNegativeTrueValues()
    {
        // p: true -2 (divided by 2, the true value at -1); q: unknown true value (divided by |mean|).
        job::NoiseStudyResult result;
        result.parameterNames = {"p", "q"};
        const double nan = std::nan("");
        for (int r = 0; r < 5; ++r) {
            job::RealisationResult real;
            real.index = static_cast<std::size_t>(r);
            real.estimates = {-2.0 + 0.1 * (r - 2), 10.0 + r + (r == 4 ? 100 : 0)};
            result.realisations.push_back(real);
        }
        result.summary = {job::summarise("p", {-2.2, -2.1, -2.0, -1.9, -1.8}, -2.0),
                          job::summarise("q", {10, 11, 12, 13, 114}, nan)};
        ui::BoxPlot plot;
        plot.setResult(result);
        const auto& boxes = plot.boxes();
        QCOMPARE(boxes.size(), std::size_t{2});
        QVERIFY(boxes[0].byTrueValue);
        QCOMPARE(boxes[0].scale, 2.0);
        QCOMPARE(boxes[0].trueMark, -1.0);
        QCOMPARE(boxes[0].q1, -1.05);
        QCOMPARE(boxes[0].q3, -0.95);
        QVERIFY(boxes[0].outliers.isEmpty());
        QVERIFY(!boxes[1].byTrueValue);
        QCOMPARE(boxes[1].scale, 32.0);  // the mean of 10, 11, 12, 13, 114
        QVERIFY(std::isnan(boxes[1].trueMark));
        QCOMPARE(boxes[1].median, 12.0 / 32.0);
        QCOMPARE(boxes[1].upperWhisker, 13.0 / 32.0);  // Q3 + 1.5 IQR = 16: 114 is an outlier
        QCOMPARE(boxes[1].outliers, QVector<double>{114.0 / 32.0});
        plot.clear();
        QVERIFY(plot.boxes().empty());
    }

    void noDataGivesAMessage()
    {
        ui::ProjectDocument document;
        document.newFromModel(QStringLiteral("param a = 1\nstate x = 0\nx' = a\noutput x\n"),
                              QStringLiteral("m.model"));
        ui::StudyPanel panel(&document);
        QSignalSpy message(&panel, &ui::StudyPanel::message);
        QSignalSpy finished(&panel, &ui::StudyPanel::finished);
        panel.run();
        QVERIFY(finished.wait(10000));
        QCOMPARE(message.count(), 1);
        QVERIFY2(message.first().first().toString().contains("no data"),
                 qPrintable(message.first().first().toString()));
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.result());
        QString error;
        QVERIFY(!panel.exportResult(QStringLiteral("x.json"), &error));
        QVERIFY(error.contains("run a study first"));
    }

    void theWindowHasTheDock()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(dir, R"({"realisations": 5, "noise_percent": 3})");
        ui::MainWindow window(path);
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("studyDock"));
        QVERIFY(dock);
        QVERIFY(dock->isAncestorOf(window.studyPanel()));  // inside the dock's scroll area
        QCOMPARE(window.studyPanel()->realisationsSpin()->value(), 5);
        QCOMPARE(window.studyPanel()->noiseField()->value(), 3.0);
    }
};

QTEST_MAIN(TestUiStudy)
#include "test_ui_study.moc"
