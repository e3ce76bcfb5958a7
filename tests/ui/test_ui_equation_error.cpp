// The equation-error methods (seed 004) in the window: the estimator panel shows their formulas
// and state weights; a multistep fit of the displacement-only example differentiates the
// velocity, offers "Refine by output error", and the refinement ends where a plain output-error
// fit does; the filter panel's spectrum gains the identified response.
#include "UiTestSupport.h"

#include "engine/job/FitJob.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/SpectrumPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"
#include "ui/settings/EquationErrorSettingsWidget.h"
#include "ui/settings/EstimatorPanel.h"
#include "ui/settings/FilterPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

void selectMethod(ui::EstimatorPanel* panel, estimate::EstimationMethod method)
{
    QComboBox* combo = panel->methodCombo();
    combo->setCurrentIndex(combo->findData(static_cast<int>(method)));
}

double valueOf(const estimate::FitResult& r, const std::string& name)
{
    for (const auto& p : r.parameters)
        if (p.name == name)
            return p.value;
    return std::nan("");
}

}  // namespace

class TestUiEquationError : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void panelShowsTheFormulasOfTheMethod()
    {
        ui::EstimatorPanel panel;
        panel.show();
        panel.setStates({"u", "u'"});
        QVERIFY(!panel.equationErrorBox()->isVisible());
        selectMethod(&panel, estimate::EstimationMethod::Multistep);
        QVERIFY(panel.equationErrorBox()->isVisible());
        QVERIFY(!panel.weightTable()->isVisible());  // output weights do not apply
        ui::EquationErrorSettingsWidget* w = panel.equationErrorWidget();
        QCOMPARE(w->formulaCombo()->count(), 3);
        QCOMPARE(w->formulaCombo()->currentData().toInt(),
                 static_cast<int>(estimate::EquationErrorFormula::NewtonCotes6));
        w->formulaCombo()->setCurrentIndex(
            w->formulaCombo()->findData(static_cast<int>(estimate::EquationErrorFormula::Simpson)));
        selectMethod(&panel, estimate::EstimationMethod::SingleStep);
        QCOMPARE(w->formulaCombo()->count(), 2);
        w->formulaCombo()->setCurrentIndex(
            w->formulaCombo()->findData(static_cast<int>(estimate::EquationErrorFormula::RungeKutta4)));
        QCOMPARE(w->weightTable()->rowCount(), 2);
        w->weightTable()->item(0, 1)->setText("0.04");
        w->simulateCheck()->setChecked(false);
        estimate::FitSettings s = panel.settings();
        QVERIFY(s.method == estimate::EstimationMethod::SingleStep);
        QVERIFY(s.equationError.oneStep == estimate::EquationErrorFormula::RungeKutta4);
        QVERIFY(s.equationError.multistep == estimate::EquationErrorFormula::Simpson);
        QCOMPARE(s.equationError.stateWeights, (std::map<std::string, double>{{"u", 0.04}}));
        QVERIFY(!s.equationError.simulateFit);
        // Invalid weights turn the panel invalid and keep the last valid value.
        w->weightTable()->item(1, 1)->setText("-2");
        QVERIFY(!panel.isValid());
        QCOMPARE(panel.settings().equationError.stateWeights.count("u'"), std::size_t{0});
        w->weightTable()->item(1, 1)->setText("");
        QVERIFY(panel.isValid());
        // The document echoing the settings back keeps them.
        panel.setSettings(s);
        QCOMPARE(w->formulaCombo()->currentData().toInt(),
                 static_cast<int>(estimate::EquationErrorFormula::RungeKutta4));
        QCOMPARE(w->weightTable()->item(0, 1)->text(), QStringLiteral("0.04"));
    }

    void multistepFitThenRefineByOutputError()
    {
        ui::MainWindow w(test::examplePath("sdof_cubic.sysid"));
        w.show();
        selectMethod(w.estimatorPanel(), estimate::EstimationMethod::Multistep);
        QVERIFY(w.document()->settings().method == estimate::EstimationMethod::Multistep);
        ui::ResultsPanel* results = w.resultsPanel();
        QVERIFY(!results->refineButton()->isVisible());
        w.runFit();
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning(), 30000);
        QVERIFY(results->hasResult());
        const estimate::FitResult first = results->result();
        QVERIFY2(first.converged(), first.termination.message.c_str());
        QCOMPARE(first.parameters.size(), std::size_t{3});  // gamma, Omega2, k3: u'(0) is an initial value
        QVERIFY2(std::abs(valueOf(first, "Omega2") - 25) < 1.5, std::to_string(valueOf(first, "Omega2")).c_str());
        QVERIFY(results->refineButton()->isVisible());
        // The identified response's spectrum is drawn next to the data's.
        QTRY_VERIFY(w.filterPanel()->spectrumPlot()->curveNames().contains(QStringLiteral("identified")));

        QTest::mouseClick(results->refineButton(), Qt::LeftButton);
        QVERIFY(w.runner()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!w.runner()->isRunning(), 60000);
        const estimate::FitResult refined = results->result();
        QVERIFY2(refined.converged(), refined.termination.message.c_str());
        QCOMPARE(refined.parameters.size(), std::size_t{4});
        QCOMPARE(refined.parameters[0].initial, valueOf(first, refined.parameters[0].name));
        QVERIFY(!results->refineButton()->isVisible());
        QVERIFY(w.document()->settings().method == estimate::EstimationMethod::Multistep);  // the user's choice stays
        // The refinement ends where output error from the project's own start does.
        job::FitJob direct = w.document()->makeFitJob();
        direct.settings.method = estimate::EstimationMethod::OutputError;
        job::NullProgressSink sink;
        const estimate::FitResult reference = direct.run(sink);
        for (const auto& p : reference.parameters)
            QVERIFY2(std::abs(valueOf(refined, p.name) - p.value) < 1e-5 * std::abs(p.value),
                     qPrintable(QString::fromStdString(p.name)));
    }
};

QTEST_MAIN(TestUiEquationError)
#include "test_ui_equation_error.moc"
