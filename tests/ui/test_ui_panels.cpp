// ResultsPanel, EstimatorPanel and FilterPanel: contents, exports, round trips, inline errors.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <numbers>

#include "ui/results/ResultsPanel.h"
#include "ui/settings/EnumCombo.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/SpectrumPlot.h"
#include "ui/settings/FilterPanel.h"
#include "ui/settings/NumberField.h"
#include "ui/settings/WheelGuard.h"

#include "engine/estimate/MethodTraits.h"

using sysid::ui::comboValue;
using sysid::ui::EstimatorPanel;
using sysid::ui::FilterPanel;
using sysid::ui::ResultsPanel;
namespace estimate = sysid::estimate;
namespace data = sysid::data;
namespace core = sysid::core;
namespace discretise = sysid::discretise;

namespace {

estimate::FitResult twoParameterResult()
{
    estimate::FitResult r;
    estimate::ParameterEstimate c;
    c.name = "c";
    c.initial = 0.5;
    c.value = 0.1;
    c.sd = 0.01;
    c.lower95 = 0.08;
    c.upper95 = 0.12;
    c.unit = "N*s/m";
    estimate::ParameterEstimate k;
    k.name = "k3";
    k.initial = 2.0;
    k.value = 1.0;
    k.sd = std::numeric_limits<double>::infinity();
    k.lower95 = -std::numeric_limits<double>::infinity();
    k.upper95 = std::numeric_limits<double>::infinity();
    k.atBound = true;
    r.parameters = {c, k};
    r.correlation = Eigen::MatrixXd(2, 2);
    r.correlation << 1.0, -0.8, -0.8, 1.0;
    r.covariance = Eigen::MatrixXd::Identity(2, 2);
    r.cost = 1.25;
    r.outputNames = {"x"};
    r.residualRms = {0.03};
    r.residualCount = 100;
    r.iterations = 7;
    r.termination =
        core::Termination::convergence(core::TerminationCriterion::CostTolerance, "cost decrease below tolerance");
    return r;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

data::DataTable sineTable()
{
    data::DataTable t;
    t.source = "sine";
    t.columnNames = {"t", "y"};
    t.columns.resize(2);
    const double fs = 100.0;
    for (int i = 0; i < 1000; ++i) {
        const double time = i / fs;
        t.columns[0].push_back(time);
        t.columns[1].push_back(std::sin(2 * std::numbers::pi * 1.0 * time) +
                               0.3 * std::sin(2 * std::numbers::pi * 30.0 * time));
    }
    t.timeColumn = 0;
    return t;
}

}  // namespace

class TestUiPanels : public QObject {
    Q_OBJECT

private slots:
    // A wheel turned over a combo box the user has not clicked into scrolls the panel and leaves the
    // setting alone; once the combo has focus the wheel changes it, as everywhere.
    void wheelScrollsThePanelNotTheSettings()
    {
        sysid::ui::WheelGuard::install();
        QScrollArea area;
        area.setWidgetResizable(true);
        auto* panel = new EstimatorPanel;
        area.setWidget(panel);
        area.resize(400, 300);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QComboBox* combo = panel->switchesCombo();
        QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);  // a wheel over it does not focus it
        QCOMPARE(panel->shootingIntervalsSpin()->focusPolicy(), Qt::StrongFocus);
        const int before = combo->currentIndex();
        QVERIFY(combo->count() > 1);
        const auto wheel = [](QWidget* target) {
            const QPointF at(5, 5);
            QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(target, &event);
        };
        const int scrolled = area.verticalScrollBar()->value();
        wheel(combo);
        QCOMPARE(combo->currentIndex(), before);
        QVERIFY(area.verticalScrollBar()->value() > scrolled);  // the wheel went to the scroll area
        combo->setFocus();
        QTRY_VERIFY(combo->hasFocus());
        wheel(combo);
        QVERIFY(combo->currentIndex() != before);
    }

    void resultsTableShowsParameters()
    {
        ResultsPanel panel;
        panel.setResult(twoParameterResult(), {{"c", 0.125}});
        QTableWidget* t = panel.parameterTable();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, ResultsPanel::ColName)->text(), QStringLiteral("c"));
        QCOMPARE(t->item(0, ResultsPanel::ColEstimate)->text(), QStringLiteral("0.1"));
        QCOMPARE(t->item(0, ResultsPanel::ColUnit)->text(), QStringLiteral("N*s/m"));
        QCOMPARE(t->horizontalHeaderItem(ResultsPanel::ColUnit)->text(), QStringLiteral("Unit"));
        QVERIFY(t->item(1, ResultsPanel::ColUnit)->text().isEmpty());  // none given
        QCOMPARE(t->item(0, ResultsPanel::ColSd)->text(), QStringLiteral("0.01"));
        QCOMPARE(t->item(0, ResultsPanel::ColInterval)->text(), QStringLiteral("[0.08, 0.12]"));
        QCOMPARE(t->item(0, ResultsPanel::ColRelError)->text(), QStringLiteral("-20 %"));
        QVERIFY(t->item(0, ResultsPanel::ColBound)->text().isEmpty());
        QCOMPARE(t->item(1, ResultsPanel::ColName)->text(), QStringLiteral("k3"));
        QCOMPARE(t->item(1, ResultsPanel::ColSd)->text(), QStringLiteral("∞"));
        QCOMPARE(t->item(1, ResultsPanel::ColInterval)->text(), QStringLiteral("[−∞, ∞]"));
        QVERIFY(t->item(1, ResultsPanel::ColRelError)->text().isEmpty());
        QVERIFY(!t->item(1, ResultsPanel::ColBound)->text().isEmpty());
        QCOMPARE(ResultsPanel::formatNumber(std::nan("")), QStringLiteral("—"));

        const QString summary = panel.summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("1.25")), qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("x 0.03")));
        QVERIFY(summary.contains(QStringLiteral("7 iterations")));
        QVERIFY(summary.contains(QStringLiteral("cost decrease below tolerance")));
        QVERIFY(summary.contains(QStringLiteral("converged")));

        panel.clear();
        QCOMPARE(panel.parameterTable()->rowCount(), 0);
        QCOMPARE(panel.correlationTable()->rowCount(), 0);
        QVERIFY(!panel.hasResult());
    }

    // Maximum likelihood: the method is picked by its label, hides the weights it estimates, and the results table
    // ends with each output's noise sd, its SD and interval, after the parameters (the correlation stays theirs).
    void maximumLikelihoodSelectedAndNoiseShown()
    {
        EstimatorPanel estimator;
        estimator.show();
        const int index = estimator.methodCombo()->findText(QStringLiteral("Maximum likelihood"));
        QVERIFY(index >= 0);
        estimator.methodCombo()->setCurrentIndex(index);
        QVERIFY(estimator.settings().method == estimate::EstimationMethod::MaximumLikelihood);
        QVERIFY(!estimator.weightTable()->isVisible());
        QVERIFY(estimator.sensitivityCombo()->isVisible());

        estimate::FitResult r = twoParameterResult();
        r.outputNames = {"x", "v"};
        r.residualRms = {0.002, 0.2};
        r.noise = {{"x", 0.00201, 0.0001, 201, "m"}, {"v", 0.199, 0.00993, 201, "m/s"}};
        ResultsPanel panel;
        panel.setResult(r);
        QTableWidget* t = panel.parameterTable();
        QCOMPARE(t->rowCount(), 4);
        QCOMPARE(t->item(2, ResultsPanel::ColName)->text(), QStringLiteral("noise sd x"));
        QVERIFY(t->item(2, ResultsPanel::ColName)->font().italic());
        QCOMPARE(t->item(2, ResultsPanel::ColEstimate)->text(), QStringLiteral("0.00201"));
        QCOMPARE(t->item(2, ResultsPanel::ColSd)->text(), QStringLiteral("0.0001"));
        QCOMPARE(t->item(2, ResultsPanel::ColUnit)->text(), QStringLiteral("m"));
        QCOMPARE(t->item(3, ResultsPanel::ColName)->text(), QStringLiteral("noise sd v"));
        QCOMPARE(t->item(3, ResultsPanel::ColEstimate)->text(), QStringLiteral("0.199"));
        QCOMPARE(t->item(3, ResultsPanel::ColInterval)->text(), QStringLiteral("[0.179537, 0.218463]"));
        QVERIFY(t->item(3, ResultsPanel::ColName)->toolTip().contains(QStringLiteral("maximum likelihood")));
        QCOMPARE(panel.correlationTable()->rowCount(), 2);
        // A later result without them leaves only its parameters.
        panel.setResult(twoParameterResult());
        QCOMPARE(t->rowCount(), 2);
    }

    void correlationCellsColouredBySign()
    {
        ResultsPanel panel;
        panel.setResult(twoParameterResult());
        QTableWidget* c = panel.correlationTable();
        QCOMPARE(c->rowCount(), 2);
        QCOMPARE(c->columnCount(), 2);
        QCOMPARE(c->item(0, 1)->text(), QStringLiteral("-0.800"));
        QCOMPARE(c->item(0, 0)->text(), QStringLiteral("1.000"));
        const QColor negative = c->item(0, 1)->background().color();
        const QColor positive = c->item(0, 0)->background().color();
        QVERIFY(negative.blue() > negative.red());
        QVERIFY(positive.red() > positive.blue());
        QCOMPARE(ResultsPanel::correlationColor(0.0), QColor(255, 255, 255));
        QCOMPARE(ResultsPanel::correlationColor(-1.0), QColor(0, 0, 255));
        QCOMPARE(ResultsPanel::correlationColor(1.0), QColor(255, 0, 0));
    }

    void exportsJsonAndCsv()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const estimate::FitResult r = twoParameterResult();
        QString error;
        const QString jsonPath = dir.filePath(QStringLiteral("result.json"));
        QVERIFY2(ResultsPanel::exportJson(r, jsonPath, &error), qPrintable(error));
        const auto json = nlohmann::json::parse(readAll(jsonPath).toStdString());
        QCOMPARE(json["parameters"]["c"]["value"].get<double>(), 0.1);
        QCOMPARE(json["parameters"]["c"]["unit"].get<std::string>(), std::string("N*s/m"));
        QCOMPARE(json["iterations"].get<int>(), 7);
        QVERIFY(json["converged"].get<bool>());

        const QString csvPath = dir.filePath(QStringLiteral("parameters.csv"));
        QVERIFY2(ResultsPanel::exportCsv(r, csvPath, &error), qPrintable(error));
        const QStringList lines = QString::fromUtf8(readAll(csvPath)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QStringLiteral("name,value,sd,lower95,upper95,unit"));
        const QStringList first = lines[1].split(QLatin1Char(','));
        QCOMPARE(first.size(), 6);
        QCOMPARE(first[5], QStringLiteral("N*s/m"));
        QCOMPARE(first[0], QStringLiteral("c"));
        QCOMPARE(first[1].toDouble(), 0.1);  // 17 digits read back exactly
        QCOMPARE(first[4].toDouble(), 0.12);
        QCOMPARE(lines[2], QStringLiteral("k3,1,inf,-inf,inf,"));

        const QString bad = dir.filePath(QStringLiteral("no/such/folder/result.json"));
        error.clear();
        QVERIFY(!ResultsPanel::exportJson(r, bad, &error));
        QVERIFY(!error.isEmpty());
        error.clear();
        QVERIFY(!ResultsPanel::exportCsv(r, dir.filePath(QStringLiteral("no/such/p.csv")), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFileInfo::exists(bad));
    }

    void exportsReportFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("report/run1"));
        int calls = 0;
        const ResultsPanel::FigureExporter figure = [&calls](const QString& path, QString*) {
            ++calls;
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write("png") == 3;
        };
        QString error;
        QVERIFY2(ResultsPanel::exportReport(twoParameterResult(), folder,
                                            {{QStringLiteral("fit.png"), figure}, {QStringLiteral("cost.png"), figure}},
                                            &error),
                 qPrintable(error));
        QCOMPARE(calls, 2);
        for (const char* name : {"parameters.json", "parameters.csv", "fit.png", "cost.png"}) {
            QVERIFY2(QFileInfo::exists(QDir(folder).filePath(QString::fromLatin1(name))), name);
        }
        const ResultsPanel::FigureExporter failing = [](const QString&, QString* e) {
            *e = QStringLiteral("plot failed");
            return false;
        };
        QVERIFY(
            !ResultsPanel::exportReport(twoParameterResult(), folder, {{QStringLiteral("x.png"), failing}}, &error));
        QCOMPARE(error, QStringLiteral("plot failed"));
    }

    // The seed's fixed-step schemes are in the integrator combo, with tooltips saying what they
    // cost (Crank-Nicolson's oscillation, explicit Euler's limit), and round-trip through settings.
    void estimatorOffersTheFixedStepSchemes()
    {
        EstimatorPanel panel;
        auto* combo = panel.findChild<QComboBox*>(QStringLiteral("integratorCombo"));
        QVERIFY(combo);
        const int euler = combo->findText(QStringLiteral("euler"));
        const int implicitEuler = combo->findText(QStringLiteral("implicit-euler"));
        const int crankNicolson = combo->findText(QStringLiteral("crank-nicolson"));
        QVERIFY(euler >= 0 && implicitEuler >= 0 && crankNicolson >= 0);
        QVERIFY(combo->itemData(euler, Qt::ToolTipRole).toString().contains(QStringLiteral("stability limit")));
        QVERIFY(combo->itemData(crankNicolson, Qt::ToolTipRole).toString().contains(QStringLiteral("not L-stable")));
        for (auto method :
             {sysid::integrate::IntegrationMethod::ImplicitEuler, sysid::integrate::IntegrationMethod::CrankNicolson}) {
            estimate::FitSettings s;
            s.integrator.method = method;
            s.integrator.methodChosen = true;
            s.integrator.maxStep = 0.01;
            panel.setSettings(s);
            QCOMPARE(panel.settings().integrator.method, method);
            QCOMPARE(combo->currentText(), QString::fromStdString(sysid::integrate::methodName(method)));
        }
    }

    // Issue 7: while no integrator is chosen the panel shows the model's default and reports it as
    // not chosen; a pick in the combo is a choice that a new default does not override.
    void estimatorShowsTheModelsDefaultIntegratorUntilOneIsPicked()
    {
        using sysid::integrate::IntegrationMethod;
        EstimatorPanel panel;
        QComboBox* combo = panel.integratorCombo();
        panel.setSettings(estimate::FitSettings{});
        QCOMPARE(combo->currentText(), QStringLiteral("dopri5"));
        panel.setDefaultIntegrator(IntegrationMethod::SparseImplicit);
        QCOMPARE(combo->currentText(), QStringLiteral("sparse-implicit"));
        QVERIFY(combo->toolTip().contains(QStringLiteral("method of lines")));
        QVERIFY(panel.settings().integrator.method == IntegrationMethod::SparseImplicit);
        QVERIFY(!panel.settings().integrator.methodChosen);
        panel.setSettings(panel.settings());  // a round trip through the document keeps it open
        QVERIFY(!panel.settings().integrator.methodChosen);

        QSignalSpy changed(&panel, &EstimatorPanel::settingsChanged);
        combo->setCurrentIndex(combo->findText(QStringLiteral("crank-nicolson")));
        QVERIFY(changed.count() >= 1);
        QVERIFY(panel.settings().integrator.methodChosen);
        panel.setDefaultIntegrator(IntegrationMethod::Dopri5);
        QCOMPARE(combo->currentText(), QStringLiteral("crank-nicolson"));
        QVERIFY(combo->toolTip().contains(QStringLiteral("by hand")));
        panel.setSettings(panel.settings());
        QCOMPARE(combo->currentText(), QStringLiteral("crank-nicolson"));
    }

    // Issue 20: how a model with constraints is kept on them shows only for such a model; Baumgarte's
    // rates only where his terms are added; a model with constraints defaults to sparse-implicit.
    void estimatorShowsConstraintStabilisation()
    {
        using sysid::integrate::ConstraintStabilisation;
        EstimatorPanel panel;
        panel.resize(400, 1200);
        panel.show();
        auto* combo = panel.findChild<QComboBox*>(QStringLiteral("stabilisationCombo"));
        auto* alpha = panel.findChild<QWidget*>(QStringLiteral("baumgarteAlphaEdit"));
        QVERIFY(combo && alpha);
        panel.setSettings(estimate::FitSettings{});
        QVERIFY(!combo->isVisible());
        panel.setConstrained(true);
        panel.setDefaultIntegrator(sysid::integrate::IntegrationMethod::SparseImplicit);
        QVERIFY(combo->isVisible());
        QVERIFY(panel.integratorCombo()->toolTip().contains(QStringLiteral("constraints")));
        QCOMPARE(combo->currentText(), QStringLiteral("projection"));
        QVERIFY(!alpha->isEnabled());
        combo->setCurrentIndex(combo->findText(QStringLiteral("baumgarte")));
        QVERIFY(alpha->isEnabled());
        estimate::FitSettings s = panel.settings();
        QCOMPARE(s.integrator.stabilisation, ConstraintStabilisation::Baumgarte);
        s.integrator.baumgarteAlpha = 3;
        s.integrator.baumgarteBeta = 4;
        panel.setSettings(s);
        QCOMPARE(panel.settings().integrator.baumgarteAlpha, 3.0);
        QCOMPARE(panel.settings().integrator.baumgarteBeta, 4.0);
        panel.setConstrained(false);
        QVERIFY(!combo->isVisible());
    }

    void estimatorRoundTripsSettings()
    {
        EstimatorPanel panel;
        panel.setOutputs({QStringLiteral("x"), QStringLiteral("v")});
        estimate::FitSettings s;
        s.method = estimate::EstimationMethod::MultipleShooting;
        s.shootingIntervals = 17;
        s.integrator.method = sysid::integrate::IntegrationMethod::Rosenbrock4;
        s.integrator.methodChosen = true;
        s.integrator.relativeTolerance = 1e-7;
        s.integrator.absoluteTolerance = 3e-11;
        s.integrator.maxStep = 0.05;
        s.maxIterations = 42;
        s.costTolerance = 1e-9;
        s.stepTolerance = 2e-8;
        s.gradientTolerance = 5e-7;
        s.outputWeights = {{"x", 2.5}};
        s.priors = {{"c", estimate::Prior{0.1, 0.2}}};
        QSignalSpy changed(&panel, &EstimatorPanel::settingsChanged);
        panel.setSettings(s);
        QVERIFY(changed.count() >= 1);
        QVERIFY(panel.shootingIntervalsSpin()->isEnabled());

        const estimate::FitSettings back = panel.settings();
        QCOMPARE(back.method, s.method);
        QCOMPARE(back.shootingIntervals, s.shootingIntervals);
        QCOMPARE(back.integrator.method, s.integrator.method);
        QCOMPARE(back.integrator.relativeTolerance, s.integrator.relativeTolerance);
        QCOMPARE(back.integrator.absoluteTolerance, s.integrator.absoluteTolerance);
        QCOMPARE(back.integrator.maxStep, s.integrator.maxStep);
        QCOMPARE(back.maxIterations, s.maxIterations);
        QCOMPARE(back.costTolerance, s.costTolerance);
        QCOMPARE(back.stepTolerance, s.stepTolerance);
        QCOMPARE(back.gradientTolerance, s.gradientTolerance);
        QCOMPARE(back.outputWeights.size(), std::size_t{1});
        QCOMPARE(back.outputWeights.at("x"), 2.5);
        QCOMPARE(back.priors.size(), std::size_t{1});
        QCOMPARE(panel.weightTable()->rowCount(), 2);
        QCOMPARE(panel.weightTable()->item(0, 1)->text(), QStringLiteral("2.5"));
        QVERIFY(panel.weightTable()->item(1, 1)->text().isEmpty());

        // A weight typed into the table; an empty cell is automatic.
        panel.weightTable()->item(1, 1)->setText(QStringLiteral("4"));
        QCOMPARE(panel.settings().outputWeights.at("v"), 4.0);
        panel.weightTable()->item(0, 1)->setText(QString());
        QCOMPARE(panel.settings().outputWeights.count("x"), std::size_t{0});

        // Output error disables the shooting intervals.
        panel.methodCombo()->setCurrentIndex(0);
        QVERIFY(!panel.shootingIntervalsSpin()->isEnabled());
        QCOMPARE(panel.settings().method, estimate::EstimationMethod::OutputError);
    }

    void estimatorSteepestDescentGain()
    {
        EstimatorPanel panel;
        QVERIFY(panel.gainEdit()->isHidden());  // output error: no gain
        estimate::FitSettings s;
        s.method = estimate::EstimationMethod::SteepestDescent;
        s.steepestDescentGain = 0.05;
        panel.setSettings(s);
        QVERIFY(!panel.gainEdit()->isHidden());
        QCOMPARE(panel.gainEdit()->text(), QStringLiteral("0.05"));
        QCOMPARE(panel.settings().method, estimate::EstimationMethod::SteepestDescent);
        QCOMPARE(panel.settings().steepestDescentGain, 0.05);
        panel.gainEdit()->clear();
        QTest::keyClicks(panel.gainEdit(), QStringLiteral("0.01"));
        QCOMPARE(panel.settings().steepestDescentGain, 0.01);
        panel.gainEdit()->clear();
        QTest::keyClicks(panel.gainEdit(), QStringLiteral("0"));
        QVERIFY(!panel.isValid());  // the gain must be > 0
        panel.methodCombo()->setCurrentIndex(0);
        QVERIFY(panel.gainEdit()->isHidden());
    }

    // The sensitivity method: shown for the single-shooting methods only; structural greys out the
    // integrator (it does not run); applies only where the method takes it.
    void estimatorSensitivityMethod()
    {
        EstimatorPanel panel;
        QVERIFY(!panel.sensitivityCombo()->isHidden());  // output error
        QCOMPARE(panel.settings().sensitivity, estimate::SensitivityMethod::Forward);
        QVERIFY(panel.integratorBox()->isEnabled());
        estimate::FitSettings s;
        s.method = estimate::EstimationMethod::SteepestDescent;
        s.sensitivity = estimate::SensitivityMethod::Structural;
        panel.setSettings(s);
        QCOMPARE(panel.sensitivityCombo()->currentData().toInt(),
                 static_cast<int>(estimate::SensitivityMethod::Structural));
        QCOMPARE(panel.settings().sensitivity, estimate::SensitivityMethod::Structural);
        QVERIFY(!panel.integratorBox()->isEnabled());
        QVERIFY(panel.integratorBox()->toolTip().contains("matrix exponential"));
        QSignalSpy changed(&panel, &EstimatorPanel::settingsChanged);
        panel.methodCombo()->setCurrentIndex(
            panel.methodCombo()->findData(static_cast<int>(estimate::EstimationMethod::MultipleShooting)));
        QVERIFY(panel.sensitivityCombo()->isHidden());
        QCOMPARE(panel.settings().sensitivity, estimate::SensitivityMethod::Forward);  // not applicable: forward
        QVERIFY(panel.integratorBox()->isEnabled());
        panel.methodCombo()->setCurrentIndex(
            panel.methodCombo()->findData(static_cast<int>(estimate::EstimationMethod::Bayes)));
        QCOMPARE(panel.settings().sensitivity, estimate::SensitivityMethod::Structural);  // the pick is kept
        changed.clear();
        panel.sensitivityCombo()->setCurrentIndex(
            panel.sensitivityCombo()->findData(static_cast<int>(estimate::SensitivityMethod::Forward)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.settings().sensitivity, estimate::SensitivityMethod::Forward);
        QVERIFY(panel.integratorBox()->isEnabled());
    }

    // Each method shows exactly the controls its row in estimate::kMethodTraits says it takes.
    void estimatorShowsWhatTheMethodTakes()
    {
        using In = estimate::MethodInput;
        EstimatorPanel panel;
        panel.show();
        for (const auto& row : estimate::kMethodTraits) {
            const QString name = QString::fromStdString(estimate::methodName(row.method));
            panel.methodCombo()->setCurrentIndex(panel.methodCombo()->findData(static_cast<int>(row.method)));
            QCOMPARE(panel.settings().method, row.method);
            QVERIFY2(panel.gainEdit()->isVisible() == row.takes(In::Gain), qPrintable(name));
            QVERIFY2(panel.sensitivityCombo()->isVisible() == row.takes(In::SensitivityMethod), qPrintable(name));
            QVERIFY2(panel.shootingIntervalsSpin()->isEnabled() == row.takes(In::ShootingIntervals), qPrintable(name));
            QVERIFY2(panel.periodicBox()->isVisible() == row.takes(In::PeriodicResponse), qPrintable(name));
            QVERIFY2(panel.equationErrorBox()->isVisible() ==
                         (row.takes(In::OneStepFormula) || row.takes(In::MultistepFormula)),
                     qPrintable(name));
            QVERIFY2(panel.weightTable()->isVisible() == row.takes(In::OutputWeights), qPrintable(name));
            QVERIFY2(panel.integratorBox()->isVisible(), qPrintable(name));
        }
    }

    // The inputs' intersample behaviour: one row per model input, its combo from the engine's
    // table, hidden for a model without inputs and for optimal estimation, round-tripped.
    void estimatorIntersampleTable()
    {
        EstimatorPanel panel;
        panel.show();
        auto* box = panel.findChild<QWidget*>(QStringLiteral("intersampleBox"));
        QVERIFY(box);
        QVERIFY(!box->isVisible());
        panel.setInputs({"u", "w"});
        QVERIFY(box->isVisible());
        auto* u = panel.findChild<QComboBox*>(QStringLiteral("intersample_u"));
        QVERIFY(u);
        QCOMPARE(u->count(), static_cast<int>(sysid::integrate::intersampleTable.entries().size()));
        QCOMPARE(u->currentText(), QStringLiteral("linear"));
        QVERIFY(panel.settings().intersample.empty());
        QSignalSpy changed(&panel, &EstimatorPanel::settingsChanged);
        u->setCurrentIndex(u->findData(static_cast<int>(sysid::integrate::Intersample::Hold)));
        QCOMPARE(changed.count(), 1);
        const auto settings = panel.settings();
        QCOMPARE(settings.intersample.size(), std::size_t{1});
        QCOMPARE(settings.intersample.at("u"), sysid::integrate::Intersample::Hold);

        EstimatorPanel other;
        other.setInputs({"u", "w"});
        auto loaded = settings;
        loaded.intersample["w"] = sysid::integrate::Intersample::Spline;
        other.setSettings(loaded);
        QCOMPARE(other.findChild<QComboBox*>(QStringLiteral("intersample_w"))->currentText(), QStringLiteral("spline"));
        QVERIFY(other.settings().intersample == loaded.intersample);

        panel.methodCombo()->setCurrentIndex(panel.methodCombo()->findData(EstimatorPanel::kOptimalMethod));
        QVERIFY(!box->isVisible());
        panel.setInputs({});
        panel.methodCombo()->setCurrentIndex(0);
        QVERIFY(!box->isVisible());
    }

    // A model's `input u hold` is what u shows when the settings say nothing; choosing it again
    // stores nothing, choosing linear stores the override.
    void estimatorIntersampleShowsTheModelsDeclaration()
    {
        using sysid::integrate::Intersample;
        EstimatorPanel panel;
        panel.show();
        panel.setInputs({"u", "w"}, {{"u", Intersample::Hold}});
        auto* u = panel.findChild<QComboBox*>(QStringLiteral("intersample_u"));
        auto* w = panel.findChild<QComboBox*>(QStringLiteral("intersample_w"));
        QVERIFY(u && w);
        QCOMPARE(u->currentText(), QStringLiteral("hold"));
        QCOMPARE(w->currentText(), QStringLiteral("linear"));
        QVERIFY(panel.settings().intersample.empty());
        u->setCurrentIndex(u->findData(static_cast<int>(Intersample::Linear)));
        QCOMPARE(panel.settings().intersample.at("u"), Intersample::Linear);
        u->setCurrentIndex(u->findData(static_cast<int>(Intersample::Hold)));
        QVERIFY(panel.settings().intersample.empty());
        // Loaded settings override the declaration in what is shown.
        auto loaded = panel.settings();
        loaded.intersample["u"] = Intersample::Spline;
        panel.setSettings(loaded);
        QCOMPARE(u->currentText(), QStringLiteral("spline"));
    }

    // The choices are the tables': one item per value, its label, its description as tooltip.
    void estimatorChoicesComeFromTheTables()
    {
        EstimatorPanel panel;
        const auto& methods = estimate::kEstimationMethods.entries();
        QCOMPARE(panel.methodCombo()->count(), static_cast<int>(methods.size()) + 1);  // + optimal estimation
        for (const auto& e : methods) {
            const int i = panel.methodCombo()->findData(static_cast<int>(e.value));
            QCOMPARE(panel.methodCombo()->itemText(i), QString::fromUtf8(e.label.data(), e.label.size()));
            QCOMPARE(panel.methodCombo()->itemData(i, Qt::ToolTipRole).toString(),
                     QString::fromUtf8(e.description.data(), e.description.size()));
        }
        QCOMPARE(panel.integratorCombo()->count(),
                 static_cast<int>(sysid::integrate::kIntegrationMethods.entries().size()));
        QCOMPARE(panel.sensitivityCombo()->count(), static_cast<int>(estimate::kSensitivityMethods.entries().size()));
        QCOMPARE(panel.periodicSolverCombo()->count(), static_cast<int>(discretise::kPeriodicSolvers.entries().size()));
        QCOMPARE(panel.schemeCombo()->count(), static_cast<int>(discretise::kPeriodicSchemes.entries().size()));
    }

    void estimatorPeriodicResponseSettings()
    {
        EstimatorPanel panel;
        QVERIFY(panel.periodicBox()->isHidden());  // output error: not shown
        estimate::FitSettings s;
        s.method = estimate::EstimationMethod::PeriodicResponse;
        s.periodic.frequencyParameter = "w";
        s.periodic.period = 2.5;
        s.periodic.periods = 2;
        s.periodic.solver = discretise::PeriodicSolver::Discretisation;
        s.periodic.intervals = 3;
        s.periodic.nodes = 120;
        s.periodic.scheme = discretise::PeriodicScheme::CentralDifference;
        s.periodic.settlePeriods = 9;
        panel.setSettings(s);
        QVERIFY(!panel.periodicBox()->isHidden());
        QVERIFY(!panel.periodEdit()->isEnabled());  // the frequency parameter sets the period
        QVERIFY(panel.nodesSpin()->isEnabled());
        QVERIFY(panel.schemeCombo()->isEnabled());
        QCOMPARE(panel.settleSpin()->value(), 9);
        QVERIFY(!panel.shootingIntervalsSpin()->isEnabled());
        estimate::FitSettings back = panel.settings();
        QCOMPARE(back.method, estimate::EstimationMethod::PeriodicResponse);
        QCOMPARE(back.periodic.frequencyParameter, std::string("w"));
        QCOMPARE(back.periodic.period, 2.5);
        QCOMPARE(back.periodic.periods, std::size_t{2});
        QCOMPARE(back.periodic.solver, discretise::PeriodicSolver::Discretisation);
        QCOMPARE(back.periodic.intervals, std::size_t{3});
        QCOMPARE(back.periodic.nodes, std::size_t{120});
        QCOMPARE(back.periodic.scheme, discretise::PeriodicScheme::CentralDifference);
        QCOMPARE(back.periodic.settlePeriods, std::size_t{9});

        // Typed by the user: no frequency parameter, a period of 6.
        panel.frequencyParameterEdit()->clear();
        QTest::keyClicks(panel.frequencyParameterEdit(), QStringLiteral(" "));
        QVERIFY(panel.periodEdit()->isEnabled());
        panel.periodEdit()->clear();
        QTest::keyClicks(panel.periodEdit(), QStringLiteral("6"));
        panel.periodicSolverCombo()->setCurrentIndex(
            panel.periodicSolverCombo()->findData(static_cast<int>(discretise::PeriodicSolver::Shooting)));
        QVERIFY(!panel.nodesSpin()->isEnabled());
        QVERIFY(!panel.schemeCombo()->isEnabled());
        back = panel.settings();
        QVERIFY(back.periodic.frequencyParameter.empty());
        QCOMPARE(back.periodic.period, 6.0);
        QCOMPARE(back.periodic.solver, discretise::PeriodicSolver::Shooting);
        panel.periodEdit()->clear();
        QTest::keyClicks(panel.periodEdit(), QStringLiteral("-1"));
        QVERIFY(!panel.isValid());
        QCOMPARE(panel.settings().periodic.period, 6.0);

        // Another method hides the periodic settings again.
        panel.methodCombo()->setCurrentIndex(
            panel.methodCombo()->findData(static_cast<int>(estimate::EstimationMethod::Bayes)));
        QVERIFY(panel.periodicBox()->isHidden());
    }

    void estimatorRejectsInvalidEntries()
    {
        EstimatorPanel panel;
        estimate::FitSettings s;
        s.integrator.relativeTolerance = 1e-6;
        panel.setSettings(s);
        QLineEdit* rtol = panel.relativeToleranceEdit();
        rtol->clear();
        QTest::keyClicks(rtol, QStringLiteral("-1"));
        QVERIFY(!panel.isValid());
        QVERIFY(rtol->styleSheet().contains(QStringLiteral("border")));
        QVERIFY(!rtol->toolTip().isEmpty());
        QCOMPARE(panel.settings().integrator.relativeTolerance, 1e-6);
        rtol->clear();
        QTest::keyClicks(rtol, QStringLiteral("1e-5"));
        QVERIFY(panel.isValid());
        QVERIFY(rtol->styleSheet().isEmpty());
        QCOMPARE(panel.settings().integrator.relativeTolerance, 1e-5);
    }

    void estimatorRunCancel()
    {
        EstimatorPanel panel;
        QSignalSpy run(&panel, &EstimatorPanel::runRequested);
        QSignalSpy cancel(&panel, &EstimatorPanel::cancelRequested);
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.cancelButton()->isEnabled());
        panel.runButton()->click();
        QCOMPARE(run.count(), 1);
        panel.setRunning(true);
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(panel.cancelButton()->isEnabled());
        QCOMPARE(panel.progressBar()->maximum(), 0);  // busy
        panel.cancelButton()->click();
        QCOMPARE(cancel.count(), 1);
        panel.setRunning(false);
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.cancelButton()->isEnabled());
    }

    // A data set shown with its preprocessing (MainWindow::refreshData) previews once, and ends as
    // the table set, then the preprocessing, would: the same settings, processed table and message.
    void filterTakesTableAndPreprocessingTogether()
    {
        const data::DataTable table = sineTable();
        data::Preprocessing p;
        p.lowPass = data::Preprocessing::LowPass{4, 5.0};
        p.window = std::make_pair(0.5, 1.5);
        p.decimation = 2;
        FilterPanel apart;
        apart.setTable(&table);
        apart.setPreprocessing(p);
        FilterPanel together;
        QSignalSpy changed(&together, &FilterPanel::preprocessingChanged);
        together.setTableAndPreprocessing(&table, p);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(together.currentColumn(), QStringLiteral("y"));
        QVERIFY2(together.errorText().isEmpty(), qPrintable(together.errorText()));
        QCOMPARE(data::toJson(together.preprocessing()), data::toJson(apart.preprocessing()));
        QVERIFY(together.processedTable() != nullptr && apart.processedTable() != nullptr);
        QVERIFY(together.processedTable()->columns == apart.processedTable()->columns);
        QCOMPARE(together.processedTable()->columns[0].front(), 0.5);
        QCOMPARE(together.signalPlot()->curvePointCount(QStringLiteral("processed")),
                 apart.signalPlot()->curvePointCount(QStringLiteral("processed")));
        QTRY_VERIFY(!together.spectraPending());
        QTRY_VERIFY(!apart.spectraPending());

        p.lowPass->cutoffHz = 80.0;  // above Nyquist (50 Hz): the same message either way
        apart.setPreprocessing(p);
        together.setTableAndPreprocessing(&table, p);
        QVERIFY(!together.errorText().isEmpty());
        QCOMPARE(together.errorText(), apart.errorText());
        QVERIFY(together.processedTable() == nullptr);
        QTRY_VERIFY(!together.spectraPending());
        QTRY_VERIFY(!apart.spectraPending());
    }

    void filterAppliesLowPass()
    {
        const data::DataTable table = sineTable();
        FilterPanel panel;
        panel.setTable(&table);
        QCOMPARE(panel.currentColumn(), QStringLiteral("y"));
        QTRY_VERIFY(!panel.spectraPending());
        QVERIFY(panel.spectrumPlot()->curvePointCount(QStringLiteral("raw")) > 0);

        QSignalSpy changed(&panel, &FilterPanel::preprocessingChanged);
        data::Preprocessing p;
        p.lowPass = data::Preprocessing::LowPass{4, 5.0};
        panel.setPreprocessing(p);
        QVERIFY(changed.count() >= 1);
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        QVERIFY(panel.processedTable() != nullptr);
        const data::Preprocessing back = panel.preprocessing();
        QVERIFY(back.lowPass.has_value());
        QCOMPARE(back.lowPass->order, 4);
        QCOMPARE(back.lowPass->cutoffHz, 5.0);
        QVERIFY(!back.window.has_value());
        QVERIFY(!back.noise.has_value());
        QCOMPARE(back.decimation, 1);
        QVERIFY(panel.signalPlot()->curvePointCount(QStringLiteral("processed")) > 0);
        QTRY_VERIFY(!panel.spectraPending());
        QVERIFY(panel.spectrumPlot()->curvePointCount(QStringLiteral("raw")) > 0);
        QVERIFY(panel.spectrumPlot()->curvePointCount(QStringLiteral("processed")) > 0);
        QVERIFY(panel.spectrumPlot()->hasCutoff());
        QCOMPARE(panel.spectrumPlot()->cutoff(), 5.0);

        // The 30 Hz component is gone: processed power at 30 Hz far below the raw.
        const sysid::ui::SpectrumPlot* spectrum = panel.spectrumPlot();
        QVERIFY(spectrum->valueNear(QStringLiteral("processed"), 30.0) <
                1e-3 * spectrum->valueNear(QStringLiteral("raw"), 30.0));

        // Window, noise and decimation round trip.
        data::Preprocessing full;
        full.window = std::make_pair(1.0, 8.0);
        full.decimation = 2;
        full.lowPass = data::Preprocessing::LowPass{3, 10.0};
        full.noise = data::Preprocessing::AddedNoise{5.0, data::NoiseDistribution::Gaussian, 1234567890123ULL};
        panel.setPreprocessing(full);
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        const data::Preprocessing got = panel.preprocessing();
        QVERIFY(got.window.has_value());
        QCOMPARE(got.window->first, 1.0);
        QCOMPARE(got.window->second, 8.0);
        QCOMPARE(got.decimation, 2);
        QVERIFY(got.noise.has_value());
        QCOMPARE(got.noise->percent, 5.0);
        QCOMPARE(got.noise->distribution, data::NoiseDistribution::Gaussian);
        QCOMPARE(got.noise->seed, std::uint64_t{1234567890123ULL});

        panel.setDifferentiation(data::DerivativeMethod::SavitzkyGolay, 9, 2);
        QCOMPARE(panel.differentiation().first, data::DerivativeMethod::SavitzkyGolay);
        QCOMPARE(panel.differentiation().second, 9);
        QCOMPARE(panel.differentiationOrder(), 2);
        // The differentiation is part of the preprocessing the project stores, both ways.
        QVERIFY((panel.preprocessing().differentiation ==
                 data::Preprocessing::Derivative{data::DerivativeMethod::SavitzkyGolay, 9, 2}));
        full.differentiation = {data::DerivativeMethod::SavitzkyGolay, 11, 3};
        panel.setPreprocessing(full);
        QCOMPARE(panel.differentiation().second, 11);
        QVERIFY(panel.preprocessing().differentiation == full.differentiation);
    }

    // The filter's gain over the spectra (|H|^2 = 1/2 at the cutoff), its note, its ends and the
    // window cut after filtering; the spectral peak's cutoff and starting value.
    void filterShowsGainPeakAndStartValue()
    {
        const data::DataTable table = sineTable();  // 1 Hz (amplitude 1) + 30 Hz (0.3) at 100 Hz
        FilterPanel panel;
        panel.setTable(&table);
        QTRY_VERIFY(!panel.spectraPending());
        const auto peak = panel.previewPeak();
        QVERIFY(peak);
        QVERIFY2(std::abs(peak->frequencyHz - 1.0) < 0.01, qPrintable(QString::number(peak->frequencyHz)));
        QVERIFY2(panel.peakLabel()->text().contains(QStringLiteral("ω = 2πf = 6.28 rad/s, ω² = 39.5")),
                 qPrintable(panel.peakLabel()->text()));
        QVERIFY(!panel.spectrumPlot()->hasFilterGain());

        // The offered cutoff: 5 x the 1 Hz peak.
        QCOMPARE(panel.useCutoffButton()->text(), QStringLiteral("Use cutoff 5 Hz"));
        QSignalSpy changed(&panel, &FilterPanel::preprocessingChanged);
        panel.useCutoffButton()->click();
        QCOMPARE(changed.count(), 1);
        QVERIFY(panel.preprocessing().lowPass.has_value());
        QCOMPARE(panel.preprocessing().lowPass->cutoffHz, 5.0);
        QCOMPARE(panel.preprocessing().lowPass->ends, data::FilterEnds::LeastSquares);

        const sysid::ui::SpectrumPlot* spectrum = panel.spectrumPlot();
        QVERIFY(spectrum->hasFilterGain());
        QVERIFY2(std::abs(spectrum->filterGainNear(5.0) - 0.5) < 0.03,
                 qPrintable(QString::number(spectrum->filterGainNear(5.0))));
        QVERIFY(std::abs(spectrum->filterGainNear(1.0) - 1.0) < 1e-4);
        QVERIFY(spectrum->filterGainNear(30.0) < 1e-6);
        QVERIFY(!panel.lowPassNote()->isHidden());
        QVERIFY2(panel.lowPassNote()->text().contains(QStringLiteral("ends by least squares")) &&
                     panel.lowPassNote()->text().contains(QStringLiteral("decay to 1 % within")),
                 qPrintable(panel.lowPassNote()->text()));

        // The ends and the window's place, both ways.
        panel.filterEndsCombo()->setCurrentIndex(
            panel.filterEndsCombo()->findData(static_cast<int>(data::FilterEnds::Odd)));
        QCOMPARE(panel.preprocessing().lowPass->ends, data::FilterEnds::Odd);
        QVERIFY(panel.lowPassNote()->text().contains(QStringLiteral("odd reflection")));
        data::Preprocessing after;
        after.lowPass = data::Preprocessing::LowPass{4, 5.0, data::FilterEnds::LeastSquares};
        after.window = std::make_pair(1.0, 9.0);
        after.windowAfterFilter = true;
        panel.setPreprocessing(after);
        QCOMPARE(comboValue<data::FilterEnds>(panel.filterEndsCombo()), data::FilterEnds::LeastSquares);
        QVERIFY(panel.windowAfterFilterCheck()->isChecked());
        QVERIFY(panel.preprocessing().windowAfterFilter);
        QCOMPARE(panel.processedTable()->columns[0].front(), 1.0);

        // Leave out the end transients: the window shrinks by the settling time at each end.
        const double settling = data::lowPassSettlingTime(*after.lowPass, 100.0).value();
        panel.windowAfterFilterCheck()->setChecked(false);
        QVERIFY(panel.skipTransientsButton()->isEnabled());
        panel.skipTransientsButton()->click();
        const data::Preprocessing skipped = panel.preprocessing();
        QVERIFY(skipped.window && skipped.windowAfterFilter);
        QVERIFY2(std::abs(skipped.window->first - settling) < 0.01,
                 qPrintable(QStringLiteral("%1 vs %2").arg(skipped.window->first).arg(settling)));
        QVERIFY(std::abs(skipped.window->second - (9.99 - settling)) < 0.01);

        // A starting value from the peak: Omega2 is preselected with omega^2.
        QSignalSpy start(&panel, &FilterPanel::startValueRequested);
        QVERIFY(!panel.setStartButton()->isEnabled());  // no model yet
        panel.setParameterNames({QStringLiteral("gamma"), QStringLiteral("Omega2"), QStringLiteral("alpha")});
        QCOMPARE(panel.startParameterCombo()->currentText(), QStringLiteral("Omega2"));
        QCOMPARE(panel.startFormCombo()->currentText(), QStringLiteral("ω² = 39.5"));
        QVERIFY(panel.setStartButton()->isEnabled());
        panel.setStartButton()->click();
        QCOMPARE(start.count(), 1);
        QCOMPARE(start.at(0).at(0).toString(), QStringLiteral("Omega2"));
        QCOMPARE(start.at(0).at(1).toDouble(), 39.5);
        QVERIFY(start.at(0).at(2).toString().contains(QStringLiteral("spectral peak of y")));
        panel.startParameterCombo()->setCurrentText(QStringLiteral("alpha"));
        panel.startFormCombo()->setCurrentIndex(2);
        panel.setStartButton()->click();
        QCOMPARE(start.at(1).at(0).toString(), QStringLiteral("alpha"));
        QCOMPARE(start.at(1).at(1).toDouble(), 1.0);  // f in Hz
        panel.setParameterNames({QStringLiteral("c"), QStringLiteral("wn")});
        QCOMPARE(panel.startParameterCombo()->currentText(), QStringLiteral("wn"));
        QCOMPARE(panel.startFormCombo()->currentIndex(), 1);  // omega
    }

    // The spectra are computed on a worker thread: the call that asks for them returns before
    // they are drawn, and only the latest request's spectra are drawn.
    void filterSpectraComeFromAWorkerAndTheLatestWins()
    {
        const data::DataTable table = sineTable();
        FilterPanel panel;
        panel.setTable(&table);
        QVERIFY(panel.spectraPending());
        QTRY_VERIFY(!panel.spectraPending());
        QCOMPARE(panel.spectrumPlot()->curvePointCount(QStringLiteral("identified")), -1);

        // Two identified responses in a row, 1 Hz then 30 Hz: the second one's spectrum is shown.
        const std::vector<double>& t = table.columns[0];
        std::vector<double> slow(t.size()), fast(t.size());
        for (std::size_t i = 0; i < t.size(); ++i) {
            slow[i] = std::sin(2 * std::numbers::pi * 1.0 * t[i]);
            fast[i] = std::sin(2 * std::numbers::pi * 30.0 * t[i]);
        }
        panel.setIdentifiedResponse(QStringLiteral("y"), t, slow);
        QVERIFY(panel.spectraPending());
        panel.setIdentifiedResponse(QStringLiteral("y"), t, fast);
        QTRY_VERIFY(!panel.spectraPending());
        const sysid::ui::SpectrumPlot* spectrum = panel.spectrumPlot();
        QVERIFY(spectrum->curvePointCount(QStringLiteral("identified")) > 0);
        QVERIFY(spectrum->valueNear(QStringLiteral("identified"), 30.0) >
                1e3 * spectrum->valueNear(QStringLiteral("identified"), 1.0));
        // The previewed column's peak stays the raw signal's 1 Hz.
        QVERIFY(panel.previewPeak() && std::abs(panel.previewPeak()->frequencyHz - 1.0) < 0.01);

        // A sample that is not a number: no spectrum, and the worker's message says which one.
        data::DataTable broken = table;
        broken.columns[1][10] = std::numeric_limits<double>::quiet_NaN();
        panel.setTable(&broken);
        QTRY_VERIFY(!panel.spectraPending());
        QCOMPARE(spectrum->curvePointCount(QStringLiteral("raw")), -1);
        QVERIFY2(spectrum->toolTip().startsWith(QStringLiteral("No spectrum: ")) &&
                     spectrum->toolTip().contains(QStringLiteral("sample 11 is not a finite number")),
                 qPrintable(spectrum->toolTip()));
        QVERIFY(!panel.previewPeak());

        // No table: nothing to compute, nothing pending, no curves.
        panel.setTable(nullptr);
        QVERIFY(!panel.spectraPending());
        QCOMPARE(spectrum->curvePointCount(QStringLiteral("raw")), -1);
        QVERIFY(!panel.previewPeak());
    }

    void filterInvalidCutoffShowsError()
    {
        const data::DataTable table = sineTable();
        FilterPanel panel;
        panel.setTable(&table);
        data::Preprocessing p;
        p.lowPass = data::Preprocessing::LowPass{4, 80.0};  // above the Nyquist frequency (50 Hz)
        panel.setPreprocessing(p);
        QVERIFY(!panel.errorText().isEmpty());
        QVERIFY(!panel.errorLabel()->isHidden());
        QVERIFY(panel.processedTable() == nullptr);
        QTRY_VERIFY(!panel.spectraPending());
        QVERIFY(panel.spectrumPlot()->curvePointCount(QStringLiteral("raw")) > 0);

        // Editing the cutoff back into range clears the error.
        panel.cutoffField()->setValue(5.0);
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        QVERIFY(panel.errorLabel()->isHidden());

        // No table: settings alone are still checked.
        FilterPanel empty;
        data::Preprocessing zero;
        zero.lowPass = data::Preprocessing::LowPass{4, 0.0};
        empty.setPreprocessing(zero);
        QVERIFY(!empty.errorText().isEmpty());
    }
};

QTEST_MAIN(TestUiPanels)
#include "test_ui_panels.moc"
