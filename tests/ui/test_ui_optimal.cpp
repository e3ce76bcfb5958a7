// Optimal estimation in the window: the method in the estimator panel shows its settings
// (a weight per augmented state and residual), the seed-001 mass-spring-damper example run
// through the window converges to m = b = k = 1 and fills the residual plots and the cross
// plot, and Cancel ends a run within a second.
#include "UiTestSupport.h"

#include "engine/job/OptimalEstimationJob.h"
#include "engine/project/OptimalEstimationJson.h"
#include "engine/integrate/IntegratorSettings.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/CostPlot.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/StiffnessPlot.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/OptimalEstimationView.h"
#include "ui/run/OptimalEstimationRunner.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/settings/NumberField.h"
#include "ui/settings/OptimalEstimationSettingsWidget.h"
#include "ui/settings/StageScheduleTable.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

// A project with the MSD example model and its record.
QString writeMsdProject(const QTemporaryDir& dir)
{
    QFile model(test::examplePath("msd_optimal.model"));
    if (!model.open(QIODevice::ReadOnly))
        return {};
    QJsonArray lines;
    for (const auto& line : QString::fromUtf8(model.readAll()).split('\n'))
        lines.append(line);
    const QJsonObject project{{"version", 1},
                              {"model", QJsonObject{{"source", "msd_optimal.model"}, {"text", lines}}},
                              {"data", QJsonArray{QJsonObject{{"path", test::examplePath("msd_optimal_data.csv")}}}}};
    const QString path = dir.filePath("msd.sysid");
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(project).toJson()) <= 0)
        return {};
    return path;
}

void selectOptimal(ui::EstimatorPanel* panel)
{
    QComboBox* combo = panel->methodCombo();
    combo->setCurrentIndex(combo->findData(ui::EstimatorPanel::kOptimalMethod));
}

}  // namespace

class TestUiOptimal : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void selectingTheMethodShowsItsSettings()
    {
        ui::EstimatorPanel panel;
        panel.show();
        auto* optimalBox = panel.findChild<QGroupBox*>(QStringLiteral("optimalBox"));
        QVERIFY(optimalBox);
        QVERIFY(!optimalBox->isVisible());
        QVERIFY(panel.weightTable()->isVisible());
        const auto before = panel.settings().method;
        selectOptimal(&panel);
        QVERIFY(panel.optimalSelected());
        QVERIFY(optimalBox->isVisible());
        QVERIFY(!panel.weightTable()->isVisible());  // the fit's output weights do not apply
        QVERIFY(panel.settings().method == before);  // the fit method is kept
        // setSettings (the document echoing a fit setting back) leaves the method selected.
        panel.setSettings(panel.settings());
        QVERIFY(panel.optimalSelected());

        // Invalid entries turn red and keep the last valid value.
        ui::OptimalEstimationSettingsWidget* w = panel.optimalSettingsWidget();
        w->setNames({"s", "s'", "m"}, {"s", "eom:s"});
        QCOMPARE(w->weightTable()->rowCount(), 5);
        w->weightTable()->item(0, ui::OptimalEstimationSettingsWidget::WeightColumn)->setText("4");
        w->weightTable()->item(1, ui::OptimalEstimationSettingsWidget::WeightColumn)->setText("0");  // W must be > 0
        w->weightTable()->item(4, ui::OptimalEstimationSettingsWidget::WeightColumn)->setText("0");  // V may be 0
        w->weightTable()->item(2, ui::OptimalEstimationSettingsWidget::PriorValueColumn)->setText("1");
        w->weightTable()->item(2, ui::OptimalEstimationSettingsWidget::PriorWeightColumn)->setText("100");
        w->shootingPointsSpin()->setValue(51);
        w->weightTable()->item(0, ui::OptimalEstimationSettingsWidget::GuessColumn)->setText("s + 0*t");
        ui::StageScheduleTable* stages = w->stageTable();
        auto* method = qobject_cast<QComboBox*>(stages->editor(0, "integrator.method"));
        QVERIFY(method);
        method->setCurrentIndex(method->findText("crank-nicolson"));
        auto* steps = qobject_cast<QSpinBox*>(stages->editor(0, "steps_per_interval"));
        QVERIFY(steps && steps->isEnabled());
        steps->setValue(3);
        // A fixed-step stage's tolerances are not used: greyed out; an adaptive stage's steps likewise.
        QVERIFY(!stages->editor(0, "integrator.rtol")->isEnabled());
        QVERIFY(!stages->editor(1, "steps_per_interval")->isEnabled());
        QVERIFY(stages->editor(2, "previous_jacobians")->isEnabled());
        QVERIFY(!stages->editor(1, "previous_jacobians")->isEnabled());  // after a fixed-step stage
        auto* rtol = qobject_cast<ui::NumberField*>(stages->editor(1, "integrator.rtol"));
        QVERIFY(rtol);
        rtol->setText("3e-7");
        const auto s = w->settings();
        QVERIFY(s.stages[0].integrator.method == integrate::IntegrationMethod::CrankNicolson);
        QCOMPARE_EQ(s.stages[0].stepsPerInterval, std::size_t{3});
        QCOMPARE(s.stages[1].integrator.relativeTolerance, 3e-7);
        QCOMPARE(s.guessExpressions, (std::map<std::string, std::string>{{"s", "s + 0*t"}}));
        QCOMPARE(s.stateWeights, (std::map<std::string, double>{{"s", 4.0}}));
        QCOMPARE(s.measurementWeights, (std::map<std::string, double>{{"eom:s", 0.0}}));
        QCOMPARE(s.initialPrior.at("m"), (std::pair<double, double>{1.0, 100.0}));
        QCOMPARE_EQ(s.shootingPoints, std::size_t{51});
        QVERIFY(!w->isValid());
        QVERIFY(!panel.isValid());
        w->weightTable()->item(1, ui::OptimalEstimationSettingsWidget::WeightColumn)->setText("");
        QVERIFY(w->isValid());

        // An invalid stage setting is named with its stage; the stage keeps its last valid value.
        rtol->setText("0");
        QVERIFY(!w->isValid());
        QVERIFY2(panel.inputProblems().join('\n').contains("stage 2 relative tolerance"),
                 qPrintable(panel.inputProblems().join('\n')));
        QCOMPARE(w->settings().stages[1].integrator.relativeTolerance, 3e-7);
        rtol->setText("1e-6");
        QVERIFY(w->isValid());
        // Stages are added (a copy of the last) and removed; the defaults come back.
        stages->addButton()->click();
        QCOMPARE_EQ(w->settings().stages.size(), std::size_t{4});
        QCOMPARE(stages->table()->columnCount(), 4);
        stages->removeButton()->click();
        stages->removeButton()->click();
        QCOMPARE_EQ(w->settings().stages.size(), std::size_t{2});
        stages->defaultsButton()->click();
        QCOMPARE(estimate::scheduleText(w->settings().stages),
                 estimate::scheduleText(estimate::defaultOptimalEstimationStages()));
        // What the run starts from.
        QComboBox* from = w->startFromCombo();
        from->setCurrentIndex(from->findData(ui::OptimalEstimationSettingsWidget::StartFromLastResult));
        emit from->activated(from->currentIndex());
        QCOMPARE(w->settings().guessFrom, std::string(estimate::kLastOptimalResult));
        from->setCurrentIndex(from->findData(ui::OptimalEstimationSettingsWidget::StartFromData));
        emit from->activated(from->currentIndex());
        QVERIFY(w->settings().guessFrom.empty());
    }

    void windowListsTheWeightsOfTheModel()
    {
        QTemporaryDir dir;
        ui::MainWindow w(writeMsdProject(dir));
        QCOMPARE(w.document()->dataSetCount(), 1);
        QVERIFY2(w.document()->modelText().contains("param m = 10"), qPrintable(w.document()->modelText()));
        selectOptimal(w.estimatorPanel());
        const QTableWidget* table = w.estimatorPanel()->optimalSettingsWidget()->weightTable();
        QCOMPARE(table->rowCount(), 8);  // s, s', m, b, k; s, u, eom:s
        QVERIFY(table->item(0, 0)->text().endsWith("s"));
        QVERIFY(table->item(7, 0)->text().endsWith("eom:s"));
    }

    // Weights edited in the panel are saved in the project ("optimal_estimation") and shown
    // again when it is opened.
    void weightsAreSavedWithTheProject()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath("saved.sysid");
        {
            ui::MainWindow w(writeMsdProject(dir));
            selectOptimal(w.estimatorPanel());
            ui::OptimalEstimationSettingsWidget* widget = w.estimatorPanel()->optimalSettingsWidget();
            widget->weightTable()->item(7, ui::OptimalEstimationSettingsWidget::WeightColumn)->setText("250");  // eom:s
            widget->shootingPointsSpin()->setValue(61);
            qobject_cast<QSpinBox*>(widget->stageTable()->editor(0, "steps_per_interval"))->setValue(8);
            widget->weightTable()->item(1, ui::OptimalEstimationSettingsWidget::GuessColumn)->setText("0*s");
            QVERIFY(w.document()->isModified());
            QVERIFY(w.saveTo(saved));
        }
        QFile file(saved);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject optimal = QJsonDocument::fromJson(file.readAll()).object()["optimal_estimation"].toObject();
        QCOMPARE(optimal["measurement_weights"].toObject()["eom:s"].toDouble(), 250.0);
        QCOMPARE(optimal["shooting_points"].toInt(), 61);
        const QJsonObject first = optimal["stages"].toArray().at(0).toObject();
        QCOMPARE(first["integrator"].toObject()["method"].toString(), QStringLiteral("euler"));
        QCOMPARE(first["steps_per_interval"].toInt(), 8);
        QCOMPARE(optimal["initial_guess"].toObject()["s'"].toString(), QStringLiteral("0*s"));
        ui::MainWindow again(saved);
        const auto s = again.estimatorPanel()->optimalSettingsWidget()->settings();
        QCOMPARE(s.measurementWeights.at("eom:s"), 250.0);
        QCOMPARE_EQ(s.shootingPoints, std::size_t{61});
        QCOMPARE_EQ(s.stages[0].stepsPerInterval, std::size_t{8});
        QCOMPARE(qobject_cast<QSpinBox*>(
                     again.estimatorPanel()->optimalSettingsWidget()->stageTable()->editor(0, "steps_per_interval"))
                     ->value(),
                 8);
        QCOMPARE(again.estimatorPanel()->optimalSettingsWidget()->weightTable()->item(1, 4)->text(),
                 QStringLiteral("0*s"));
        QCOMPARE(again.estimatorPanel()->optimalSettingsWidget()->weightTable()->item(7, 1)->text(),
                 QStringLiteral("250"));
    }

    void runConvergesAndFillsTheResidualPlots()
    {
        QTemporaryDir dir;
        ui::MainWindow w(writeMsdProject(dir));
        w.show();
        selectOptimal(w.estimatorPanel());
        w.runFit();
        QVERIFY(w.optimalRunner()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!w.optimalRunner()->isRunning(), 60000);
        ui::OptimalEstimationView* view = w.optimalView();
        QVERIFY(view->result().has_value());
        const auto& r = *view->result();
        QVERIFY2(r.converged(), r.termination.message.c_str());
        // The same job straight through the engine gives the same numbers.
        job::OptimalEstimationJob direct;
        const job::FitJob fit = w.document()->makeFitJob();
        direct.modelText = fit.modelText;
        direct.modelSource = fit.modelSource;
        direct.experiment = fit.experiments.front();
        job::NullProgressSink sink;
        const auto expected = direct.run(sink);
        QCOMPARE(r.parameterNames, expected.parameterNames);
        for (Eigen::Index i = 0; i < r.parameters.size(); ++i) {
            QVERIFY2(std::abs(r.parameters(i) - 1.0) < 1e-3, std::to_string(r.parameters(i)).c_str());
            QCOMPARE(r.parameters(i), expected.parameters(i));
        }
        QCOMPARE(view->parameterTable()->rowCount(), 3);
        QCOMPARE(view->parameterTable()->item(0, 0)->text(), QStringLiteral("m"));
        QCOMPARE(view->stateResidualPlot()->curveNames().size(), 5);
        QCOMPARE(view->measurementResidualPlot()->curveNames().size(), 3);
        QCOMPARE(view->measurementResidualPlot()->curvePointCount(QStringLiteral("eps:eom:s")), 1001);
        QCOMPARE(view->crossResidualCombo()->currentText(), QStringLiteral("eps:eom:s"));
        QCOMPARE(view->crossAbscissaCombo()->currentText(), QStringLiteral("s'"));
        QCOMPARE(view->crossPlot()->measuredCount(), 1001);
        QCOMPARE(w.costPlot()->iterationCount(), static_cast<int>(r.iterations));
        QCOMPARE(w.parameterPlot()->iterationCount(), static_cast<int>(r.iterations));
        QVERIFY(w.outputPlot(0)->modelCount() > 0);  // estimated s over the measured s
    }

    // Check stiffness: kappa(t) in the view's Stiffness tab, the suggestion next to the shooting
    // points, and Use takes it.
    void stiffnessCheckShowsTheSuggestion()
    {
        QTemporaryDir dir;
        ui::MainWindow w(writeMsdProject(dir));
        w.show();
        selectOptimal(w.estimatorPanel());
        ui::OptimalEstimationSettingsWidget* widget = w.estimatorPanel()->optimalSettingsWidget();
        QSignalSpy diagnosed(w.optimalRunner(), &ui::OptimalEstimationRunner::diagnosed);
        widget->checkStiffnessButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(diagnosed.count(), 1, 30000);
        QVERIFY2(widget->stiffnessLabel()->text().contains("suggested"), qPrintable(widget->stiffnessLabel()->text()));
        ui::OptimalEstimationView* view = w.optimalView();
        QCOMPARE(view->stiffnessPlot()->curvePointCount(QStringLiteral("at the starting guess")), 101);
        QCOMPARE(view->stiffnessPlot()->limit(), -2.0 / 0.1);  // kappa*dt = -2 with dt = 10 s / 100
        QVERIFY(view->stiffnessSummary()->text().contains("suggested"));
        QVERIFY(view->stiffnessSummary()->toolTip().contains("kappa = min Re(lambda)"));
        QVERIFY(!view->result());  // a check is not a result
        const auto& d = diagnosed.front().at(1).value<std::optional<estimate::StiffnessDiagnostics>>();
        QVERIFY(d && d->suggestedPoints >= 2);
        if (d->suggestedPoints != 101) {
            QVERIFY(widget->useSuggestionButton()->isEnabled());
            widget->useSuggestionButton()->click();
            QCOMPARE(widget->shootingPointsSpin()->value(),
                     static_cast<int>(std::min<std::size_t>(d->suggestedPoints, 100000)));
        }
    }

    // "Start from the last result": the second run starts from the first's solution and needs fewer
    // iterations; the result is saved with the project and shown (and used) again when it is opened.
    void startFromTheLastResult()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath("warm.sysid");
        std::size_t fromData = 0;
        {
            ui::MainWindow w(writeMsdProject(dir));
            w.show();
            selectOptimal(w.estimatorPanel());
            ui::OptimalEstimationSettingsWidget* widget = w.estimatorPanel()->optimalSettingsWidget();
            w.runFit();
            QTRY_VERIFY_WITH_TIMEOUT(!w.optimalRunner()->isRunning(), 60000);
            QVERIFY(w.optimalView()->result() && w.optimalView()->result()->converged());
            fromData = w.optimalView()->result()->iterations;
            QCOMPARE(w.optimalView()->stiffnessPlot()->curveNames().size(), 2);  // at the guess and the solution
            QComboBox* from = widget->startFromCombo();
            from->setCurrentIndex(from->findData(ui::OptimalEstimationSettingsWidget::StartFromLastResult));
            emit from->activated(from->currentIndex());
            w.runFit();
            QTRY_VERIFY_WITH_TIMEOUT(!w.optimalRunner()->isRunning(), 60000);
            const auto& warm = *w.optimalView()->result();
            qInfo("from the data %zu iterations, from the last result %zu", fromData, warm.iterations);
            QVERIFY(warm.converged());
            QVERIFY(warm.iterations < fromData);
            QVERIFY(w.saveTo(saved));
        }
        QFile file(saved);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(root["optimal_estimation"].toObject()["guess_from"].toString(), QStringLiteral("last_result"));
        QVERIFY(root["last_optimal_result"].toObject().contains("costates"));
        ui::MainWindow again(saved);
        QVERIFY(again.optimalView()->result().has_value());
        QCOMPARE(again.estimatorPanel()->optimalSettingsWidget()->startFromCombo()->currentData().toInt(),
                 int(ui::OptimalEstimationSettingsWidget::StartFromLastResult));
    }

    // Start from a result file (sysid optimal -o): the combo names it, the run starts from it.
    void startFromAResultFile()
    {
        QTemporaryDir dir;
        ui::MainWindow w(writeMsdProject(dir));
        w.show();
        selectOptimal(w.estimatorPanel());
        job::OptimalEstimationJob direct;
        const job::FitJob fit = w.document()->makeFitJob();
        direct.modelText = fit.modelText;
        direct.modelSource = fit.modelSource;
        direct.experiment = fit.experiments.front();
        job::NullProgressSink sink;
        const QString file = dir.filePath("previous.json");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(project::optimalResultToJson(direct.run(sink)).dump()));
        out.close();
        ui::OptimalEstimationSettingsWidget* widget = w.estimatorPanel()->optimalSettingsWidget();
        auto settings = widget->settings();
        settings.guessFrom = file.toStdString();
        widget->setSettings(settings);
        QCOMPARE(widget->startFromCombo()->currentText(), QStringLiteral("File: previous.json"));
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.optimalRunner()->isRunning(), 60000);
        QVERIFY(w.optimalView()->result() && w.optimalView()->result()->converged());
        QCOMPARE_EQ(w.optimalView()->result()->iterations, std::size_t{0});  // a solution already
    }

    void cancelEndsTheRunWithinASecond()
    {
        QTemporaryDir dir;
        ui::MainWindow w(writeMsdProject(dir));
        w.show();
        selectOptimal(w.estimatorPanel());
        w.estimatorPanel()->optimalSettingsWidget()->shootingPointsSpin()->setValue(4001);  // a slower run
        QSignalSpy iterations(w.optimalRunner(), &ui::OptimalEstimationRunner::iteration);
        QSignalSpy finished(w.optimalRunner(), &ui::OptimalEstimationRunner::finished);
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(iterations.count() >= 1 || finished.count() == 1, 30000);
        QVERIFY2(finished.isEmpty(), "the run ended before it could be cancelled");
        QElapsedTimer clock;
        clock.start();
        w.cancelFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.optimalRunner()->isRunning(), 5000);
        const qint64 ms = clock.elapsed();
        qInfo("cancel took %lld ms", static_cast<long long>(ms));
        QVERIFY2(ms < 1000 * test::kSanitizerSlowdown, qPrintable(QStringLiteral("cancel took %1 ms").arg(ms)));
        QCOMPARE(finished.count(), 1);
        QVERIFY(finished.front().at(0).toBool());  // cancelled
        QVERIFY(w.estimatorPanel()->runButton()->isEnabled());
    }
};

QTEST_MAIN(TestUiOptimal)
#include "test_ui_optimal.moc"
