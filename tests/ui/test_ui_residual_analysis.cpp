// The residual analysis page: the plot draws one stem per tested lag of the autocorrelation and of each
// input's cross-correlation with their 99 % bounds, one axis rect per correlation; after a fit of
// the mass-spring-damper example the page shows the fit's analysis of s and its verdict, says when
// the project changed since, and another project clears it.
#include "UiTestSupport.h"

#include "engine/estimate/ResidualAnalysis.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/ResidualCorrelationPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResidualAnalysisPanel.h"
#include "ui/run/FitRunner.h"

#include <QComboBox>
#include <QLabel>
#include <QTabWidget>
#include <QtTest>

#include <Eigen/Dense>

#include <random>
#include <qcustomplot.h>

using namespace sysid;
using sysid::test::examplePath;

namespace {

QCustomPlot* qcp(QWidget& w)
{
    return w.findChild<QCustomPlot*>(QStringLiteral("customPlot"));
}

// Residuals and two inputs of fixed-seed white noise, 400 samples.
estimate::OutputResidualAnalysis noiseAnalysis(int inputs)
{
    std::mt19937 generator(17);
    std::normal_distribution<double> normal;
    Eigen::VectorXd e(400);
    Eigen::MatrixXd u(400, inputs);
    for (Eigen::Index t = 0; t < 400; ++t) {
        e(t) = normal(generator);
        for (Eigen::Index i = 0; i < inputs; ++i)
            u(t, i) = normal(generator);
    }
    std::vector<std::string> names{"u", "v"};
    names.resize(static_cast<std::size_t>(inputs));
    return estimate::analyseResiduals("y", {{e, u}}, names);
}

bool fit(ui::MainWindow& w)
{
    w.runFit();
    return QTest::qWaitFor([&] { return !w.runner()->isRunning(); }, 60000) && w.document()->result().has_value();
}

}  // namespace

class TestUiResidualAnalysis : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void plotDrawsEachCorrelationWithItsBounds()
    {
        ui::ResidualCorrelationPlot plot;
        const auto two = noiseAnalysis(2);
        plot.setAnalysis(two);
        QCOMPARE(plot.autocorrelationCount(), 25);  // lags 1..25: lag 0 is 1 by definition
        QCOMPARE(plot.autocorrelationBound(), two.autocorrelation.bound);
        QCOMPARE(plot.inputCount(), 2);
        QCOMPARE(qcp(plot)->axisRectCount(), 3);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(plot.inputName(i), QString::fromStdString(two.inputs[static_cast<std::size_t>(i)].input));
            QCOMPARE(plot.crossCorrelationCount(i), 51);
            QCOMPARE(plot.crossCorrelationBound(i), two.inputs[static_cast<std::size_t>(i)].correlation.bound);
        }
        const QStringList legend = plot.legendEntries();
        QVERIFY2(legend.contains(QStringLiteral("99 % bounds")) && legend.count(QStringLiteral("99 % bounds")) == 1,
                 qPrintable(legend.join(", ")));
        QVERIFY(legend.contains(QStringLiteral("cross-correlation with v")));

        // Another output with one input: the second input's rect is gone.
        plot.setAnalysis(noiseAnalysis(1));
        QCOMPARE(plot.inputCount(), 1);
        QCOMPARE(qcp(plot)->axisRectCount(), 2);
        QCOMPARE(plot.crossCorrelationCount(0), 51);

        // A notice above the plot does not disturb the rebuilt rects.
        plot.setNotice(QStringLiteral("Out of date"));
        plot.setAnalysis(two);
        QCOMPARE(qcp(plot)->axisRectCount(), 3);
        plot.setNotice(QString());
        plot.setAnalysis(noiseAnalysis(1));
        QCOMPARE(qcp(plot)->axisRectCount(), 2);

        plot.clear();
        QCOMPARE(plot.autocorrelationCount(), 0);
        QVERIFY(std::isnan(plot.autocorrelationBound()));
        QCOMPARE(plot.inputCount(), 0);
        QCOMPARE(qcp(plot)->axisRectCount(), 1);
    }

    void fitShowsTheResidualAnalysisOfItsOutputs()
    {
        ui::MainWindow w(examplePath(QStringLiteral("mass_spring_damper.sysid")));
        auto* tabs = qobject_cast<QTabWidget*>(w.centralWidget());
        QVERIFY(tabs);
        ui::ResidualAnalysisPanel* panel = w.residualAnalysisPanel();
        QCOMPARE(tabs->tabText(tabs->indexOf(panel)), QStringLiteral("Residual analysis"));
        QCOMPARE(tabs->indexOf(panel), 1);  // next to the Outputs page
        QCOMPARE(panel->plot()->autocorrelationCount(), 0);
        QVERIFY(panel->verdictLabel()->text().startsWith(QStringLiteral("No residual analysis")));

        QVERIFY(fit(w));
        const estimate::FitResult& result = *w.document()->result();
        QCOMPARE(result.residualAnalysis.outputs.size(), std::size_t{1});
        const estimate::OutputResidualAnalysis& s = result.residualAnalysis.outputs[0];
        QCOMPARE(panel->outputCombo()->count(), 1);
        QCOMPARE(panel->outputCombo()->currentText(), QStringLiteral("s"));
        QVERIFY2(panel->verdictLabel()->text().startsWith(QStringLiteral("Residuals of s are white (")),
                 qPrintable(panel->verdictLabel()->text()));
        QVERIFY(panel->verdictLabel()->text().contains(QStringLiteral("uncorrelated with u")));
        QCOMPARE(panel->plot()->autocorrelationCount(), 25);
        QCOMPARE(panel->plot()->autocorrelationBound(), s.autocorrelation.bound);
        QCOMPARE(panel->plot()->inputCount(), 1);
        QCOMPARE(panel->plot()->inputName(0), QStringLiteral("u"));
        QCOMPARE(panel->plot()->crossCorrelationCount(0), 51);
        QCOMPARE(panel->plot()->crossCorrelationBound(0), s.inputs[0].correlation.bound);
        QVERIFY(panel->plot()->notice().isEmpty());

        // Another equation: the analysis is of a fit of another model.
        QString text = w.document()->modelText();
        text.replace(QStringLiteral("s'' = (u - b*s' - k*s)/m"), QStringLiteral("s'' = (u - b*s' - k*s - 0.1*s^3)/m"));
        w.document()->setModelText(text);
        QVERIFY2(panel->plot()->notice().startsWith(QStringLiteral("Out of date")),
                 qPrintable(panel->plot()->notice()));

        // Another project: nothing of this fit is left.
        QVERIFY(w.openPath(examplePath(QStringLiteral("sdof_cubic.sysid"))));
        QCOMPARE(panel->plot()->autocorrelationCount(), 0);
        QCOMPARE(panel->plot()->inputCount(), 0);
        QCOMPARE(panel->outputCombo()->count(), 0);
        QVERIFY(panel->plot()->notice().isEmpty());
    }
};

QTEST_MAIN(TestUiResidualAnalysis)
#include "test_ui_residual_analysis.moc"
