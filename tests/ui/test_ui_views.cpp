// Nothing misleads (issue 16): every view is cleared when another project is opened; results,
// plots and run messages from before a change of model, data or settings say they are out of
// date; the outputs plot shows the data the fit fitted, so its residuals have the RMS the fit
// reports; a selected curve keeps its colour and never reaches an export; legends list only the
// series there are; the cost contour is viridis with iso-cost lines.
#include "UiTestSupport.h"

#include "ui/main/MainWindow.h"
#include "ui/plots/BranchPlot.h"
#include "ui/plots/ContourPlot.h"
#include "ui/plots/CostPlot.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/TimeSeriesPlot.h"
#include "ui/project/ProjectDocument.h"
#include "ui/results/ResultsPanel.h"
#include "ui/run/FitRunner.h"

#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <qcustomplot.h>

using namespace sysid;
using sysid::test::examplePath;

namespace {

QCustomPlot* qcp(QWidget& w)
{
    return w.findChild<QCustomPlot*>(QStringLiteral("customPlot"));
}

ui::PhasePortraitPlot* phasePlot(ui::MainWindow& w)
{
    auto* tabs = w.findChild<QTabWidget*>();
    for (int i = 0; tabs && i < tabs->count(); ++i)
        if (tabs->tabText(i) == QStringLiteral("Phase portrait"))
            return qobject_cast<ui::PhasePortraitPlot*>(tabs->widget(i));
    return nullptr;
}

bool fit(ui::MainWindow& w)
{
    w.runFit();
    return QTest::qWaitFor([&] { return !w.runner()->isRunning(); }, 60000) && w.document()->result().has_value();
}

double rms(const std::vector<double>& values)
{
    double sum = 0;
    for (double v : values)
        sum += v * v;
    return std::sqrt(sum / static_cast<double>(values.size()));
}

// The plot as a PNG of a fixed size.
QImage exported(ui::PlotWidget& plot, const QString& path)
{
    QString error;
    if (!plot.exportTo(path, 600, 400, &error))
        qWarning("%s", qPrintable(error));
    return QImage(path);
}

}  // namespace

class TestUiViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::useTestSettings(); }

    // New (and New from template, which is the same with another text) and Open leave nothing of
    // the previous project on screen.
    void newAndOpenClearEveryView()
    {
        ui::MainWindow w(examplePath(QStringLiteral("sdof_cubic.sysid")));
        QVERIFY(fit(w));
        ui::TimeSeriesPlot* output = w.outputPlot(0);
        QVERIFY(output->measuredCount() > 0);
        QVERIFY(output->modelCount() > 0);
        QVERIFY(w.parameterPlot()->iterationCount() > 0);
        QVERIFY(w.costPlot()->iterationCount() > 0);
        QVERIFY(phasePlot(w)->modelCount() > 0);

        // New: a model with one output, like the one before, and no data.
        w.document()->newFromModel(QStringLiteral("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n"),
                                   QStringLiteral("decay.model"));
        output = w.outputPlot(0);
        QVERIFY(output);
        QCOMPARE(output->measuredCount(), 0);
        QCOMPARE(output->modelCount(), 0);
        QCOMPARE(output->residualCount(), 0);
        QCOMPARE(output->outputName(), QStringLiteral("y"));
        QCOMPARE(phasePlot(w)->measuredCount(), 0);
        QCOMPARE(phasePlot(w)->modelCount(), 0);
        QCOMPARE(w.parameterPlot()->iterationCount(), 0);
        QCOMPARE(w.costPlot()->iterationCount(), 0);
        QVERIFY(!w.resultsPanel()->hasResult());
        QVERIFY(w.statusBar()->currentMessage().isEmpty());

        // Open: the other project's data, and no model until it is fitted.
        QVERIFY(w.openPath(examplePath(QStringLiteral("mass_spring_damper.sysid"))));
        output = w.outputPlot(0);
        QVERIFY(output->measuredCount() > 0);
        QCOMPARE(output->modelCount(), 0);
        QVERIFY(!output->isModelOutOfDate());
        QVERIFY(output->notice().isEmpty());
    }

    // After an import the old model response is not relabelled as the new record's: it is gone.
    void importDropsTheModelOfTheOtherRecord()
    {
        ui::MainWindow w(examplePath(QStringLiteral("sdof_cubic.sysid")));
        QVERIFY(fit(w));
        QVERIFY(w.outputPlot(0)->modelCount() > 0);
        project::Project::DataSet set = w.document()->dataSet(0);
        set.name = "a second record";
        w.document()->addDataSet(set, *w.document()->table(0));
        QCOMPARE(w.document()->currentDataSet(), 1);
        QCOMPARE(w.outputPlot(0)->modelCount(), 0);
        QVERIFY(!w.outputPlot(0)->legendEntries().join(QLatin1Char(' ')).contains(QStringLiteral("model")));
        QVERIFY(w.outputPlot(0)->measuredCount() > 0);
        // The fit's result now covers other data than the project has.
        QVERIFY2(w.resultsPanel()->isOutOfDate(), qPrintable(w.document()->resultOutOfDate()));
        QVERIFY(w.document()->resultOutOfDate().contains(QStringLiteral("the data")));
    }

    void changesAfterAFitMarkItOutOfDate()
    {
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("project.sysid"));
        ui::MainWindow w(examplePath(QStringLiteral("sdof_cubic.sysid")));
        QVERIFY(w.saveTo(copy));
        QVERIFY(fit(w));
        QVERIFY(!w.resultsPanel()->isOutOfDate());
        QVERIFY(!w.outputPlot(0)->isModelOutOfDate());
        QVERIFY(!w.statusBar()->currentMessage().isEmpty());  // "fit finished: …"

        // Another starting value poses the same problem: still current.
        QVERIFY2(w.document()->resultOutOfDate().isEmpty(), qPrintable(w.document()->resultOutOfDate()));
        QString text = w.document()->modelText();
        text.replace(QStringLiteral("param gamma = 0.35"), QStringLiteral("param gamma = 0.4"));
        w.document()->setModelText(text);
        QVERIFY2(w.document()->resultOutOfDate().isEmpty(), qPrintable(w.document()->resultOutOfDate()));
        const QRegularExpression initial(QStringLiteral("u\\(0\\) = 0, [0-9.]+ estimate"));
        QVERIFY(text.contains(initial));
        text.replace(initial, QStringLiteral("u(0) = 0, 4.25 estimate"));
        text.prepend(QStringLiteral("# another comment\n"));
        w.document()->setModelText(text);
        QVERIFY2(w.document()->resultOutOfDate().isEmpty(), qPrintable(w.document()->resultOutOfDate()));
        QVERIFY(!w.resultsPanel()->isOutOfDate());

        // Another equation does not.
        text.replace(QStringLiteral("- k3*u^3"), QStringLiteral("- k3*u^3 - 0.1*u^2"));
        w.document()->setModelText(text);
        QVERIFY(w.resultsPanel()->isOutOfDate());
        QVERIFY(w.resultsPanel()->outOfDateBanner()->isVisibleTo(w.resultsPanel()));
        QVERIFY2(
            w.resultsPanel()->outOfDateBanner()->text().contains(QStringLiteral("the model changed since this fit")),
            qPrintable(w.resultsPanel()->outOfDateBanner()->text()));
        QVERIFY(w.outputPlot(0)->isModelOutOfDate());
        QVERIFY(w.outputPlot(0)->notice().startsWith(QStringLiteral("Out of date")));
        QVERIFY(w.outputPlot(0)->legendEntries().contains(QStringLiteral("u model (out of date)")));
        QVERIFY(!w.parameterPlot()->notice().isEmpty());
        QVERIFY(!w.costPlot()->notice().isEmpty());
        QVERIFY(!phasePlot(w)->notice().isEmpty());
        QVERIFY(phasePlot(w)->isModelOutOfDate());
        QVERIFY(w.statusBar()->currentMessage().isEmpty());  // the fit's message described the old model

        // Saved out of date, it is out of date when opened again.
        QVERIFY(w.saveTo(copy));
        {
            ui::MainWindow reopened(copy);
            QVERIFY(reopened.document()->result().has_value());
            QVERIFY(reopened.resultsPanel()->isOutOfDate());
            QVERIFY(reopened.parameterPlot()->iterationCount() > 0);  // the stored result's history
            QVERIFY(!reopened.parameterPlot()->notice().isEmpty());
        }

        // A settings change is named too; a new fit is current again.
        estimate::FitSettings settings = w.document()->settings();
        settings.maxIterations += 1;
        w.document()->setSettings(settings);
        QVERIFY(w.document()->resultOutOfDate().contains(QStringLiteral("the model and the estimator settings")));
        QVERIFY(fit(w));
        QVERIFY(!w.resultsPanel()->isOutOfDate());
        QVERIFY(!w.outputPlot(0)->isModelOutOfDate());
        QVERIFY(w.outputPlot(0)->notice().isEmpty());
        QVERIFY(w.parameterPlot()->notice().isEmpty());
        QVERIFY(w.document()->resultOutOfDate().isEmpty());
        w.document()->newFromModel(QStringLiteral("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n"),
                                   QStringLiteral("decay.model"));  // nothing left to save
    }

    // The outputs plot shows what the fit fitted (windowed, low-pass filtered, decimated), so the
    // RMS of its residuals is the residual RMS the fit reports; the raw record is drawn faintly behind.
    void plottedResidualsAreTheFitsResiduals()
    {
        ui::MainWindow w(examplePath(QStringLiteral("sdof_cubic.sysid")));
        data::Preprocessing p;
        p.window = std::make_pair(0.2, 4.8);
        p.lowPass = data::Preprocessing::LowPass{4, 8.0};
        p.decimation = 2;
        w.document()->setPreprocessing(p);
        const data::DataTable* raw = w.document()->table(0);
        const data::DataTable* fitted = w.document()->fittedTable(0);
        QVERIFY(raw && fitted);
        ui::TimeSeriesPlot* output = w.outputPlot(0);
        QCOMPARE(output->measuredCount(), static_cast<int>(fitted->rowCount()));
        QCOMPARE(output->rawCount(), static_cast<int>(raw->rowCount()));
        QVERIFY(output->legendEntries().contains(QStringLiteral("u measured, preprocessed")));
        QVERIFY(output->legendEntries().contains(QStringLiteral("u raw")));

        QVERIFY(fit(w));
        const estimate::FitResult& result = *w.document()->result();
        QCOMPARE(output->residualCount(), static_cast<int>(fitted->rowCount()));
        const double plotted = rms(output->residualValues());
        const double reported = result.residualRms.at(0);
        QVERIFY2(
            std::abs(plotted - reported) <= 1e-12 * reported,
            qPrintable(QStringLiteral("plotted %1, reported %2").arg(plotted, 0, 'g', 17).arg(reported, 0, 'g', 17)));
        // Against the raw record (what the plot showed before) the residuals would be larger.
        QVERIFY(phasePlot(w)->measuredCount() == static_cast<int>(fitted->rowCount()));
    }

    // A fit that ends after another project was opened does not put its result into it.
    void aFitOfThePreviousProjectIsDiscarded()
    {
        ui::MainWindow w(examplePath(QStringLiteral("sdof_cubic.sysid")));
        w.runFit();
        QVERIFY(w.runner()->isRunning());
        w.document()->newFromModel(QStringLiteral("param a = 1\nstate y = 1\ny' = -a*y\noutput y\n"),
                                   QStringLiteral("decay.model"));
        QVERIFY(QTest::qWaitFor([&] { return !w.runner()->isRunning(); }, 10000));
        QTest::qWait(50);
        QVERIFY(!w.document()->result().has_value());
        QCOMPARE(w.outputPlot(0)->modelCount(), 0);
        QCOMPARE(w.parameterPlot()->iterationCount(), 0);
    }

    // A click selects a curve: it keeps its colour (drawn thicker), and exports never show it.
    void selectionKeepsColourAndStaysOutOfExports()
    {
        ui::TimeSeriesPlot plot;
        plot.resize(600, 400);
        std::vector<double> t, y, m;
        for (int i = 0; i <= 200; ++i) {
            t.push_back(0.05 * i);
            y.push_back(std::sin(0.05 * i) + 0.05 * std::cos(3.0 * i));
            m.push_back(std::sin(0.05 * i));
        }
        plot.setMeasured(t, y, QStringLiteral("x"));
        plot.setModel(t, m);
        QTemporaryDir dir;
        const QImage plain = exported(plot, dir.filePath(QStringLiteral("plain.png")));
        QVERIFY(!plain.isNull());

        QCustomPlot* p = qcp(plot);
        QCPGraph* model = nullptr;
        for (int i = 0; i < p->graphCount(); ++i)
            if (p->graph(i)->name() == QStringLiteral("x model"))
                model = p->graph(i);
        QVERIFY(model);
        // Click on the model curve, as a user would.
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        p->replot();
        const QPoint onCurve(static_cast<int>(model->keyAxis()->coordToPixel(t[100])),
                             static_cast<int>(model->valueAxis()->coordToPixel(m[100])));
        QTest::mouseClick(p, Qt::LeftButton, Qt::NoModifier, onCurve);
        QVERIFY(model->selected());
        p->replot();
        QCOMPARE(model->selectionDecorator()->pen().color().rgb(), model->pen().color().rgb());  // its own colour
        QVERIFY(model->selectionDecorator()->pen().widthF() > model->pen().widthF());
        QVERIFY(model->visible());

        const QImage selected = exported(plot, dir.filePath(QStringLiteral("selected.png")));
        QCOMPARE(selected, plain);
        QVERIFY(model->selected());  // the user's selection is still there after the export
        // The same for the vector formats: the same bytes with and without the selection.
        const QString svgSelected = dir.filePath(QStringLiteral("selected.svg"));
        QVERIFY(plot.exportTo(svgSelected, 600, 400));
        p->deselectAll();
        const QString svgPlain = dir.filePath(QStringLiteral("plain.svg"));
        QVERIFY(plot.exportTo(svgPlain, 600, 400));
        QCOMPARE(test::readFile(svgSelected), test::readFile(svgPlain));
    }

    void legendsListOnlySeriesThatExist()
    {
        ui::TimeSeriesPlot plot;
        QVERIFY(plot.legendEntries().isEmpty());
        plot.setMeasured(std::vector<double>{0, 1, 2}, std::vector<double>{1, 2, 3}, QStringLiteral("x"));
        QCOMPARE(plot.legendEntries(), QStringList{QStringLiteral("x measured")});
        plot.setModel(std::vector<double>{0, 1, 2}, std::vector<double>{1, 2, 2});
        QCOMPARE(plot.legendEntries(), (QStringList{QStringLiteral("x measured"), QStringLiteral("x model")}));
        plot.clearModel();
        QCOMPARE(plot.legendEntries(), QStringList{QStringLiteral("x measured")});

        ui::BranchPlot branch;
        branch.setBranch({{1.0, 0.5, true, ui::BranchPlot::PointType::Regular},
                          {1.1, 0.6, true, ui::BranchPlot::PointType::Regular}},
                         QStringLiteral("w"), QStringLiteral("amplitude"));
        QCOMPARE(branch.legendEntries(), QStringList{QStringLiteral("stable")});  // no unstable part, no fold
    }

    void contourIsViridisWithIsoLines()
    {
        job::CostSurfaceResult s;
        s.x = {"a", -1, 1, 21};
        s.y = {"b", -1, 1, 21};
        for (std::size_t i = 0; i < 21; ++i) {
            s.xValues.push_back(s.x.value(i));
            s.yValues.push_back(s.y.value(i));
        }
        for (std::size_t iy = 0; iy < 21; ++iy)
            for (std::size_t ix = 0; ix < 21; ++ix)
                s.cost.push_back(0.01 + s.xValues[ix] * s.xValues[ix] + 4 * s.yValues[iy] * s.yValues[iy]);
        ui::ContourPlot plot;
        plot.resize(500, 400);
        plot.setSurface(s);
        QCOMPARE(plot.colourAt(0.0), QColor(QStringLiteral("#440154")));
        QCOMPARE(plot.colourAt(1.0), QColor(QStringLiteral("#FDE725")));
        QVERIFY(plot.isInterpolated());
        QVERIFY(plot.levelCount() >= 10);
        QVERIFY(plot.contourPointCount() > 100);
        QVERIFY(plot.legendEntries().isEmpty());  // the contour hides its legend
    }
};

QTEST_MAIN(TestUiViews)
#include "test_ui_views.moc"
