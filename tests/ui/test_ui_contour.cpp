// The "Cost contour" and "Field" tabs, offscreen. Known answers: the contour of x' = a + b t on
// clean data from a = 1, b = 2 is zero at (1, 2) and elsewhere proportional to the closed-form
// least-squares quadratic; the last fit's history is drawn as the path in the plane of two
// estimated parameters and not for a fixed one; the plots export. The field heat map shows the
// data columns of a PDE model's node outputs and the residual against the fit's traces.
#include "UiTestSupport.h"

#include "engine/job/FitJob.h"
#include "ui/main/MainWindow.h"
#include "ui/plots/ContourPlot.h"
#include "ui/plots/FieldPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ContourPanel.h"
#include "ui/results/FieldPanel.h"
#include "ui/run/ContourRunner.h"
#include "ui/settings/NumberField.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

double t(int k)
{
    return 0.05 * k;
}

// Clean data x = t + t^2 (a = 1, b = 2) on 0..2; c is fixed and does not act.
QString writeLinearProject(const QTemporaryDir& dir)
{
    if (!test::writeLinearCleanData(dir.filePath("clean.csv")))
        return {};
    const QByteArray project =
        "{\"version\": 1, \"model\": {\"source\": \"linear.model\", \"text\": [\"param a = 0.5\", \"param b = 0.5\", "
        "\"param c = 1 fixed\", \"state x = 0\", \"x' = a + b*t + 0*c\", \"output x\"]}, \"data\": [{\"path\": "
        "\"clean.csv\"}]}\n";
    const QString path = dir.filePath("linear.sysid");
    return test::writeFile(path, project) ? path : QString();
}

// sum (t + t^2 - a t - b t^2/2)^2: the cost up to the weight.
double squares(double a, double b)
{
    double sum = 0;
    for (int k = 0; k <= 40; ++k) {
        const double r = t(k) + t(k) * t(k) - a * t(k) - b * t(k) * t(k) / 2;
        sum += r * r;
    }
    return sum;
}

}  // namespace

class TestUiContour : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    void contourPlotShowsSurfaceAndPathAndExports()
    {
        job::CostSurfaceResult s;
        s.x = {"a", 0, 1, 3};
        s.y = {"b", 0, 2, 2};
        s.xValues = {0, 0.5, 1};
        s.yValues = {0, 2};
        s.cost = {1, 2, 3, 4, 5, std::nan("")};
        ui::ContourPlot plot;
        plot.resize(600, 400);
        QVERIFY(!plot.hasSurface());
        plot.setSurface(s);
        QVERIFY(plot.hasSurface());
        QCOMPARE(plot.cellValue(1, 0), 2.0);
        QCOMPARE(plot.cellValue(0, 1), 4.0);
        QVERIFY(std::isnan(plot.cellValue(2, 1)));
        QVERIFY(std::isnan(plot.cellValue(3, 0)));
        QVERIFY(plot.isLogarithmic());
        QVERIFY(plot.levelCount() > 2);  // iso-cost lines over the shading
        QCOMPARE(plot.xAxisLabel(), QString("a"));
        s.cost[0] = 0;  // a zero cost cannot be drawn on a log scale
        plot.setSurface(s);
        QVERIFY(!plot.isLogarithmic());
        plot.setPath({{0, 0.2, 0.3, 5}, {1, 0.6, 1.1, 2}, {2, 0.9, 1.9, 1}});
        QCOMPARE(plot.pathPointCount(), 3);
        QTemporaryDir dir;
        const QString file = dir.filePath("contour.png");
        QString error;
        QVERIFY2(plot.exportTo(file, 800, 600, &error), qPrintable(error));
        QVERIFY(QFileInfo(file).size() > 1000);
        plot.clear();
        QVERIFY(!plot.hasSurface());
        QCOMPARE(plot.pathPointCount(), 0);
    }

    void panelComputesTheQuadraticAndDrawsTheFitsPath()
    {
        QTemporaryDir dir;
        const QString path = writeLinearProject(dir);
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(path, &error), qPrintable(error));
        ui::ContourPanel panel(&document);
        QCOMPARE(panel.xCombo()->count(), 3);
        QCOMPARE(panel.xCombo()->currentText(), QString("a"));
        QCOMPARE(panel.yCombo()->currentText(), QString("b"));
        QCOMPARE(panel.xFromSpin()->value(), 0.25);  // the start 0.5 +- half of it
        QCOMPARE(panel.xToSpin()->value(), 0.75);
        panel.xFromSpin()->setValue(0.0);
        panel.xToSpin()->setValue(2.0);
        panel.yFromSpin()->setValue(1.0);
        panel.yToSpin()->setValue(3.0);
        panel.gridSpin()->setValue(5);

        QSignalSpy finished(&panel, &ui::ContourPanel::surfaceFinished);
        panel.runButton()->click();
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(finished.wait(30000));
        QVERIFY(panel.runButton()->isEnabled());
        const auto result = panel.result();
        QVERIFY(result);
        QVERIFY2(panel.statusLabel()->text().contains("smallest cost"), qPrintable(panel.statusLabel()->text()));
        // Grid: a = 0, 0.5, 1, 1.5, 2; b = 1, 1.5, 2, 2.5, 3. (1, 2) is the true point.
        const double atTruth = result->at(2, 2);
        const double reference = result->at(0, 0);
        QVERIFY(atTruth < 1e-9 * reference);
        for (std::size_t iy = 0; iy < 5; ++iy)
            for (std::size_t ix = 0; ix < 5; ++ix) {
                if (ix == 2 && iy == 2)
                    continue;
                const double ratio = result->at(ix, iy) / reference;
                const double expected = squares(result->xValues[ix], result->yValues[iy]) / squares(0, 1);
                QVERIFY2(std::abs(ratio - expected) < 1e-6 * expected,
                         qPrintable(QString("%1 vs %2").arg(ratio).arg(expected)));
            }
        QCOMPARE(panel.plot()->cellValue(1, 3), result->at(1, 3));
        QCOMPARE(panel.plot()->pathPointCount(), 0);

        job::FitJob fit = document.makeFitJob();
        job::NullProgressSink sink;
        const estimate::FitResult fitted = fit.run(sink);
        document.setResult(fitted);
        QCOMPARE(panel.plot()->pathPointCount(), static_cast<int>(fitted.history.size()));
        panel.yCombo()->setCurrentText("c");  // c was not estimated: no path in (a, c)
        QCOMPARE(panel.plot()->pathPointCount(), 0);
        QCOMPARE(panel.yFromSpin()->value(), 0.5);

        panel.yCombo()->setCurrentText("a");
        panel.runButton()->click();
        QVERIFY(finished.wait(30000));
        QVERIFY2(panel.statusLabel()->text().contains("both name a"), qPrintable(panel.statusLabel()->text()));
    }

    void cancelEndsTheRunWithTheRowsDone()
    {
        QTemporaryDir dir;
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(writeLinearProject(dir), &error), qPrintable(error));
        ui::ContourPanel panel(&document);
        panel.gridSpin()->setValue(401);  // 160 801 points: far longer than the cancel takes
        QSignalSpy finished(&panel, &ui::ContourPanel::surfaceFinished);
        panel.runButton()->click();
        QVERIFY(panel.cancelButton()->isEnabled());
        QElapsedTimer clock;
        clock.start();
        panel.cancelButton()->click();
        QVERIFY(finished.wait(5000));
        QVERIFY(clock.elapsed() < 2000);
        QVERIFY(panel.result() && panel.result()->cancelled);
        QVERIFY2(panel.statusLabel()->text().startsWith("cancelled"), qPrintable(panel.statusLabel()->text()));
        QVERIFY(panel.runButton()->isEnabled() && !panel.cancelButton()->isEnabled());
    }

    void fieldHeatMapShowsMeasuredModelAndResidual()
    {
        QTemporaryDir dir;
        QByteArray csv = "t,s[1],s[2],s[3]\n";
        for (int k = 0; k <= 10; ++k)
            csv += QByteArray::number(0.1 * k) + "," + QByteArray::number(1 + 0.1 * k) + "," +
                QByteArray::number(2 + 0.1 * k) + "," + QByteArray::number(3 + 0.1 * k) + "\n";
        QVERIFY(test::writeFile(dir.filePath("rod.csv"), csv));
        const QByteArray project =
            "{\"version\": 1, \"model\": {\"source\": \"rod.model\", \"text\": [\"field s on x in [0, 0.8] nodes 3\", "
            "\"param alpha(x) = 0.2 [0.001, 1]\", \"s_t = alpha(x) * s_xx\", \"s(0, t) = 0 ; s(0.8, t) = 0\", "
            "\"s(x, 0) = 1\", \"output s\"]}, \"data\": [{\"path\": \"rod.csv\"}]}\n";
        QVERIFY(test::writeFile(dir.filePath("rod.sysid"), project));
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(dir.filePath("rod.sysid"), &error), qPrintable(error));
        ui::FieldPanel panel(&document);
        QCOMPARE(panel.fieldCombo()->count(), 1);
        QCOMPARE(panel.fieldCombo()->currentText(), QString("s"));
        QVERIFY(panel.plot()->hasField());
        QVERIFY2(panel.statusLabel()->text().startsWith("3 of 3 nodes measured"),
                 qPrintable(panel.statusLabel()->text()));
        QCOMPARE(panel.plot()->shownValue(4, 1), 2.4);  // sample 4, node 2 (x = 0.4)

        std::vector<double> times;
        Eigen::MatrixXd outputs(11, 3);
        for (int k = 0; k <= 10; ++k) {
            times.push_back(0.1 * k);
            for (int j = 0; j < 3; ++j)
                outputs(k, j) = (j + 1) + 0.1 * k - 0.01 * (j + 1);
        }
        panel.setModelOutputs(times, outputs);
        panel.viewCombo()->setCurrentIndex(1);
        QCOMPARE(panel.plot()->view(), ui::FieldPlot::View::Model);
        QCOMPARE(panel.plot()->shownValue(4, 2), outputs(4, 2));
        panel.viewCombo()->setCurrentIndex(2);
        QVERIFY(std::abs(panel.plot()->shownValue(7, 2) - 0.03) < 1e-12);
        QVERIFY(std::abs(panel.plot()->shownValue(0, 0) - 0.01) < 1e-12);
        QString exportError;
        QVERIFY2(panel.plot()->exportTo(dir.filePath("field.svg"), 600, 400, &exportError), qPrintable(exportError));

        document.setModelText("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n");
        QCOMPARE(panel.fieldCombo()->count(), 0);
        QVERIFY(!panel.plot()->hasField());
        QVERIFY(panel.statusLabel()->text().contains("no one- or two-dimensional field"));
        QVERIFY(panel.cutCombo()->isHidden());
    }

    // A 2-D field s(x, y, t) (nodes s[i,j], y fastest) is shown as a cut: y = y_j gives the x
    // nodes at that y, x = x_i the y nodes at that x. The data: s[i,j] = 10 i + j + t.
    void fieldPanelCutsATwoDimensionalField()
    {
        QTemporaryDir dir;
        QByteArray csv = "t";
        for (int i = 1; i <= 3; ++i)
            for (int j = 1; j <= 2; ++j)
                csv += ",\"s[" + QByteArray::number(i) + "," + QByteArray::number(j) + "]\"";  // quoted: a comma
        csv += "\n";
        for (int k = 0; k <= 4; ++k) {
            csv += QByteArray::number(0.1 * k);
            for (int i = 1; i <= 3; ++i)
                for (int j = 1; j <= 2; ++j)
                    csv += "," + QByteArray::number(10 * i + j + 0.1 * k);
            csv += "\n";
        }
        QVERIFY(test::writeFile(dir.filePath("plate.csv"), csv));
        const QByteArray project =
            "{\"version\": 1, \"model\": {\"source\": \"plate.model\", \"text\": [\"field s on x in [0, 0.8] nodes 3, "
            "y in [0, 0.6] nodes 2\", \"param r = 0.1 [0.01, 1]\", \"s_t = r * (s_xx + s_yy)\", "
            "\"s(0, y, t) = 0 ; s(0.8, y, t) = 0 ; s(x, 0, t) = 0 ; s(x, 0.6, t) = 0\", \"s(x, y, 0) = 1\", "
            "\"output s\"]}, \"data\": [{\"path\": \"plate.csv\"}]}\n";
        QVERIFY(test::writeFile(dir.filePath("plate.sysid"), project));
        ui::ProjectDocument document;
        QString error;
        QVERIFY2(document.load(dir.filePath("plate.sysid"), &error), qPrintable(error));
        ui::FieldPanel panel(&document);
        QCOMPARE(panel.fieldCombo()->count(), 1);
        QVERIFY(!panel.cutCombo()->isHidden());
        QCOMPARE(panel.cutCombo()->count(), 5);  // y = 0.2, 0.4; x = 0.2, 0.4, 0.6
        QCOMPARE(panel.cutCombo()->itemText(0), QString("y = 0.2"));
        QCOMPARE(panel.cutCombo()->itemText(2), QString("x = 0.2"));
        QCOMPARE(panel.cutCombo()->currentIndex(), 1);  // the middle of y: y = 0.4
        QVERIFY2(panel.statusLabel()->text().startsWith("3 of 3 nodes measured"),
                 qPrintable(panel.statusLabel()->text()));
        QCOMPARE(panel.plot()->positionAxis(), QString("x"));
        QCOMPARE(panel.plot()->shownValue(3, 1), 22 + 0.3);  // s[2,2] at t = 0.3
        panel.cutCombo()->setCurrentIndex(4);  // x = 0.6: s[3,1], s[3,2] along y
        QCOMPARE(panel.plot()->positionAxis(), QString("y"));
        QVERIFY2(panel.statusLabel()->text().startsWith("2 of 2 nodes measured"),
                 qPrintable(panel.statusLabel()->text()));
        QCOMPARE(panel.plot()->shownValue(2, 0), 31 + 0.2);
        QCOMPARE(panel.plot()->shownValue(2, 1), 32 + 0.2);
    }

    void mainWindowHasTheTabs()
    {
        ui::MainWindow window;
        auto* tabs = qobject_cast<QTabWidget*>(window.centralWidget());
        QVERIFY(tabs);
        QStringList titles;
        for (int i = 0; i < tabs->count(); ++i)
            titles << tabs->tabText(i);
        QVERIFY2(titles.contains("Cost contour") && titles.contains("Field"), qPrintable(titles.join(", ")));
        QVERIFY(window.contourPanel() && window.fieldPanel());
    }
};

QTEST_MAIN(TestUiContour)
#include "test_ui_contour.moc"
