// Plots in ui/plots/: data in, replots, normalisation, log axes, export to PNG/PDF/SVG.
#include "UiTestSupport.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QXmlStreamReader>
#include <QtTest>

#include <cmath>
#include <memory>
#include <qcustomplot.h>
#include <vector>

#include "ui/plots/CostPlot.h"
#include "ui/plots/ExportDialog.h"
#include "ui/plots/ParameterHistoryPlot.h"
#include "ui/plots/PhasePortraitPlot.h"
#include "ui/plots/PlotWidget.h"
#include "ui/plots/SpectrumPlot.h"
#include "ui/plots/TimeSeriesPlot.h"

using namespace sysid::ui;
using sysid::test::readFile;

namespace {

QCustomPlot* qcp(QWidget& w)
{
    return w.findChild<QCustomPlot*>(QStringLiteral("customPlot"));
}

// True when the plot, shown, replots (queued) within a second after `change` (a plot that is not
// visible draws only when it is shown: aHiddenPlotDrawsWhenShown).
template <typename F>
bool replotsAfter(QWidget& w, F change)
{
    QCustomPlot* plot = qcp(w);
    if (plot == nullptr) {
        return false;
    }
    if (!w.isVisible()) {
        w.show();
        if (!QTest::qWaitForWindowExposed(&w))
            return false;
    }
    QSignalSpy spy(plot, &QCustomPlot::afterReplot);
    change();
    return spy.count() > 0 || spy.wait(1000);
}

std::vector<double> linspace(double a, double b, int n)
{
    std::vector<double> v;
    for (int i = 0; i < n; ++i) {
        v.push_back(a + (b - a) * i / (n - 1));
    }
    return v;
}

// A plot with some data, shown so that it has a size.
std::unique_ptr<TimeSeriesPlot> samplePlot()
{
    auto plot = std::make_unique<TimeSeriesPlot>();
    plot->resize(400, 300);
    const auto t = linspace(0, 10, 50);
    std::vector<double> y;
    std::vector<double> m;
    for (double ti : t) {
        y.push_back(std::sin(ti) + 0.01 * std::cos(7 * ti));
        m.push_back(std::sin(ti));
    }
    plot->setMeasured(t, y, QStringLiteral("x"));
    plot->setModel(t, m);
    return plot;
}

}  // namespace

class TestUiPlots : public QObject {
    Q_OBJECT

private slots:
    void timeSeriesShowsMeasuredModelAndResiduals()
    {
        TimeSeriesPlot plot;
        plot.resize(500, 400);
        const std::vector<double> t{0, 1, 2, 3, 4};
        const std::vector<double> y{1, 2, 3, 4, 5};
        QVERIFY(replotsAfter(plot, [&] { plot.setMeasured(t, y, QStringLiteral("theta")); }));
        QCOMPARE(plot.measuredCount(), 5);
        QCOMPARE(plot.outputName(), QStringLiteral("theta"));
        QCOMPARE(plot.yAxisLabel(), QStringLiteral("theta"));
        QCOMPARE(plot.xAxisLabel(), QStringLiteral("t"));
        QCOMPARE(plot.residualCount(), 0);

        // The model trace on a finer grid containing the data times: residuals at those times.
        const std::vector<double> tm{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4};
        const std::vector<double> ym{0.5, 0, 1.5, 0, 3.25, 0, 4, 0, 6};
        QVERIFY(replotsAfter(plot, [&] { plot.setModel(tm, ym); }));
        QCOMPARE(plot.modelCount(), 9);
        QCOMPARE(plot.residualCount(), 5);

        QCustomPlot* p = qcp(plot);
        QCOMPARE(p->axisRectCount(), 2);
        const QCPAxisRect* residualRect = p->axisRect(1);
        QCPGraph* residual = nullptr;
        for (int i = 0; i < p->graphCount(); ++i) {
            if (p->graph(i)->keyAxis()->axisRect() == residualRect) {
                residual = p->graph(i);
            }
        }
        QVERIFY(residual != nullptr);
        const std::vector<double> expected{0.5, 0.5, -0.25, 0, -1};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(residual->data()->at(i)->value, expected[static_cast<std::size_t>(i)]);
        }
        QCOMPARE(residualRect->axis(QCPAxis::atBottom)->label(), QStringLiteral("t"));

        // The time axes are linked.
        p->axisRect(0)->axis(QCPAxis::atBottom)->setRange(1, 2);
        QCOMPARE(residualRect->axis(QCPAxis::atBottom)->range().lower, 1.0);
        QCOMPARE(residualRect->axis(QCPAxis::atBottom)->range().upper, 2.0);

        // Live updates of the model: each call is cheap and replots.
        for (int k = 0; k < 3; ++k) {
            QVERIFY(replotsAfter(plot, [&] { plot.setModel(t, y); }));
        }
        QCOMPARE(plot.residualCount(), 5);
        QCOMPARE(residual->data()->at(2)->value, 0.0);
    }

    void resetViewRescalesAndFollowsData()
    {
        auto plot = samplePlot();
        QCustomPlot* p = qcp(*plot);
        p->xAxis->setRange(100, 200);
        plot->resetView();
        QVERIFY(plot->followsData());
        QVERIFY(p->xAxis->range().lower <= 0.0 + 1e-9);
        QVERIFY(p->xAxis->range().upper >= 10.0 - 1e-9);
        QCOMPARE(plot->resetViewAction()->text(), QStringLiteral("Reset view"));
        p->xAxis->setRange(100, 200);
        plot->resetViewAction()->trigger();
        QVERIFY(p->xAxis->range().upper < 100);
    }

    void wheelZoomStopsFollowingData()
    {
        auto plot = samplePlot();
        plot->show();
        QVERIFY(QTest::qWaitForWindowExposed(plot.get()));
        QCustomPlot* p = qcp(*plot);
        QVERIFY(plot->followsData());
        const QCPRange before = p->xAxis->range();
        const QPointF centre(p->axisRect()->center());
        QWheelEvent wheel(centre, p->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(p, &wheel);
        QVERIFY(!plot->followsData());
        const QCPRange zoomed = p->xAxis->range();
        QVERIFY(zoomed.size() < before.size());
        // New data no longer moves the view the user chose.
        plot->setModel(std::vector<double>{0, 100}, std::vector<double>{0, 1});
        QCOMPARE(p->xAxis->range().lower, zoomed.lower);
        QCOMPARE(p->xAxis->range().upper, zoomed.upper);
        plot->resetView();
        QVERIFY(plot->followsData());
        QVERIFY(p->xAxis->range().upper >= 100.0);
    }

    void contextMenuHasResetLegendAndExport()
    {
        auto plot = samplePlot();
        std::unique_ptr<QMenu> menu(plot->createContextMenu());
        QStringList texts;
        for (QAction* a : menu->actions()) {
            if (!a->isSeparator()) {
                texts << a->text();
            }
        }
        QCOMPARE(texts,
                 (QStringList{QStringLiteral("Reset view"), QStringLiteral("Show legend"), QStringLiteral("Export…")}));
        QVERIFY(plot->isLegendVisible());
        plot->legendAction()->trigger();
        QVERIFY(!plot->isLegendVisible());
        QVERIFY(!qcp(*plot)->legend->visible());
        plot->setLegendVisible(true);
        QVERIFY(plot->legendAction()->isChecked());
        const auto interactions = qcp(*plot)->interactions();
        QVERIFY(interactions.testFlag(QCP::iRangeDrag));
        QVERIFY(interactions.testFlag(QCP::iRangeZoom));
        QVERIFY(interactions.testFlag(QCP::iSelectPlottables));
    }

    void parameterHistoryAbsoluteAndNormalized()
    {
        ParameterHistoryPlot plot;
        plot.resize(400, 300);
        QVERIFY(replotsAfter(plot, [&] {
            plot.setParameterNames({QStringLiteral("c"), QStringLiteral("k3"), QStringLiteral("z")});
        }));
        QCOMPARE(qcp(plot)->graphCount(), 3);
        QCOMPARE(qcp(plot)->graph(1)->name(), QStringLiteral("k3"));
        QVERIFY(replotsAfter(plot, [&] { plot.addIteration(0, {2.0, -4.0, 0.0}); }));
        plot.addIteration(1, {3.0, -2.0, 1.0});
        plot.addIteration(2, {1.0, -8.0, 2.0});
        QCOMPARE(plot.iterationCount(), 3);
        // By default each parameter is divided by its latest value (the estimate once the fit ends).
        QVERIFY(plot.scaling() == ParameterHistoryPlot::Scaling::RelativeToLatest);
        QCOMPARE(plot.shownValues(1), (QVector<double>{0.5, 0.25, 1.0}));
        QCOMPARE(plot.shownValues(2), (QVector<double>{0.0, 0.5, 1.0}));
        QCOMPARE(plot.yAxisLabel(), QStringLiteral("value / latest value"));
        plot.setScaling(ParameterHistoryPlot::Scaling::Absolute);
        QCOMPARE(plot.shownValues(0), (QVector<double>{2.0, 3.0, 1.0}));

        QVERIFY(replotsAfter(plot, [&] { plot.setScaling(ParameterHistoryPlot::Scaling::RelativeToStart); }));
        QVERIFY(plot.scaling() == ParameterHistoryPlot::Scaling::RelativeToStart);
        QCOMPARE(plot.shownValues(0), (QVector<double>{1.0, 1.5, 0.5}));
        QCOMPARE(plot.shownValues(1), (QVector<double>{1.0, 0.5, 2.0}));
        QCOMPARE(plot.shownValues(2), (QVector<double>{0.0, 1.0, 2.0}));  // initial 0: absolute
        QCPGraph* g = qcp(plot)->graph(0);
        QCOMPARE(g->dataCount(), 3);
        QCOMPARE(g->data()->at(1)->key, 1.0);
        QCOMPARE(g->data()->at(1)->value, 1.5);
        // New iterations are normalised by the first values too.
        plot.addIteration(3, {4.0, -1.0, 3.0});
        QCOMPARE(g->data()->at(3)->value, 2.0);
        QCOMPARE(qcp(plot)->graph(1)->data()->at(3)->value, 0.25);

        plot.setScaling(ParameterHistoryPlot::Scaling::Absolute);
        QCOMPARE(g->data()->at(1)->value, 3.0);
        QCOMPARE(plot.yAxisLabel(), QStringLiteral("value"));

        plot.clear();
        QCOMPARE(plot.iterationCount(), 0);
        QCOMPARE(g->dataCount(), 0);
        QCOMPARE(plot.parameterNames().size(), 3);
        // After clear the next iteration is the new reference.
        plot.setScaling(ParameterHistoryPlot::Scaling::RelativeToStart);
        plot.addIteration(5, {10.0, 1.0, 1.0});
        plot.addIteration(6, {5.0, 1.0, 1.0});
        QCOMPARE(plot.shownValues(0), (QVector<double>{1.0, 0.5}));
    }

    // Issue 16: parameters of very different size are readable on one axis, each divided by its
    // latest value, the divisor named in the legend; the context menu switches the scaling.
    void parameterHistoryScalesEachParameter()
    {
        ParameterHistoryPlot plot;
        plot.resize(400, 300);
        plot.setParameterNames({QStringLiteral("mass"), QStringLiteral("damping")});
        plot.addIteration(0, {80.0, 0.002});
        plot.addIteration(1, {120.0, 0.004});
        plot.addIteration(2, {100.0, 0.005});
        for (int p = 0; p < 2; ++p)
            for (double v : plot.shownValues(p))
                QVERIFY2(v > 0.3 && v <= 1.2, qPrintable(QString::number(v)));
        QCOMPARE(plot.shownValues(0).back(), 1.0);
        QCOMPARE(plot.divisor(1), 0.005);
        QCOMPARE(plot.legendEntries(), (QStringList{QStringLiteral("mass ÷ 100"), QStringLiteral("damping ÷ 0.005")}));

        std::unique_ptr<QMenu> menu(plot.createContextMenu());
        QStringList texts;
        for (QAction* a : menu->actions())
            if (!a->isSeparator())
                texts << a->text();
        QVERIFY(texts.contains(QStringLiteral("Absolute values")));
        plot.scalingActions().at(2)->trigger();
        QVERIFY(plot.scaling() == ParameterHistoryPlot::Scaling::Absolute);
        QCOMPARE(plot.shownValues(1).back(), 0.005);
        QCOMPARE(plot.legendEntries(), (QStringList{QStringLiteral("mass"), QStringLiteral("damping")}));
        QVERIFY(plot.scalingActions().at(2)->isChecked());
    }

    void parameterHistoryWithoutNames()
    {
        ParameterHistoryPlot plot;
        plot.addIteration(0, {1.0, 2.0});
        QCOMPARE(plot.parameterNames(), (QStringList{QStringLiteral("p1"), QStringLiteral("p2")}));
        plot.addIteration(1, {3.0});  // missing value: a gap
        QVERIFY(std::isnan(plot.shownValues(1).at(1)));
    }

    void costPlotIsLogarithmic()
    {
        CostPlot plot;
        plot.resize(400, 300);
        QCustomPlot* p = qcp(plot);
        QCOMPARE(p->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(!p->yAxis->ticker().dynamicCast<QCPAxisTickerLog>().isNull());
        QVERIFY(plot.isLogarithmic());
        QVERIFY(replotsAfter(plot, [&] { plot.addIteration(0, 1e3); }));
        plot.addIteration(1, 10.0);
        plot.addIteration(2, 0.0);  // not drawable on a log axis: gap
        plot.addIteration(3, 1e-4);
        QCOMPARE(plot.iterationCount(), 4);
        QVERIFY(std::isnan(p->graph(0)->data()->at(2)->value));
        plot.resetView();
        QVERIFY(p->yAxis->range().lower > 0.0);
        QVERIFY(p->yAxis->range().lower <= 1e-4);
        QVERIFY(p->yAxis->range().upper >= 1e3);
        plot.clear();
        QCOMPARE(plot.iterationCount(), 0);
    }

    // A plot that is not visible (a tab behind another) does not draw when its data change; it draws
    // when it is shown. A fit's progress updates every plot of the window, and drawing a hidden one
    // cost the window's thread 0.2 s of a 1.5 s fit over a million samples.
    void aHiddenPlotDrawsWhenShown()
    {
        TimeSeriesPlot plot;
        plot.resize(400, 300);
        QTest::qWait(20);  // QCustomPlot queues a replot of its own when it is made
        QSignalSpy drawn(qcp(plot), &QCustomPlot::afterReplot);
        const std::vector<double> t = linspace(0, 1, 50);
        plot.setMeasured(t, t, QStringLiteral("y"));
        plot.setModel(t, t);
        QTest::qWait(50);
        QCOMPARE(drawn.count(), 0);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        QTRY_VERIFY(drawn.count() >= 1);
        QCOMPARE(plot.modelCount(), 50);
        plot.hide();
        QTest::qWait(20);
        const int beforeHidden = drawn.count();
        plot.setModel(t, linspace(1, 2, 50));
        QTest::qWait(50);
        QCOMPARE(drawn.count(), beforeHidden);
        plot.show();
        QTRY_VERIFY(drawn.count() > beforeHidden);
    }

    void phasePortraitDrawsCurves()
    {
        PhasePortraitPlot plot;
        plot.resize(400, 400);
        std::vector<double> xs;
        std::vector<double> ys;
        for (int i = 0; i <= 100; ++i) {  // a closed orbit: x is not monotonic
            xs.push_back(std::cos(0.0628 * i));
            ys.push_back(std::sin(0.0628 * i));
        }
        QVERIFY(replotsAfter(plot, [&] { plot.setMeasured(xs, ys); }));
        QVERIFY(replotsAfter(plot, [&] { plot.setModel(xs, ys); }));
        QCOMPARE(plot.measuredCount(), 101);
        QCOMPARE(plot.modelCount(), 101);
        plot.setAxisNames(QStringLiteral("x"), QStringLiteral("x'"));
        QCOMPARE(qcp(plot)->xAxis->label(), QStringLiteral("x"));
        QCOMPARE(qcp(plot)->yAxis->label(), QStringLiteral("x'"));
        auto* curve = qobject_cast<QCPCurve*>(qcp(plot)->plottable(0));
        QVERIFY(curve != nullptr);
        QCOMPARE(curve->data()->at(50)->key, xs[50]);  // kept in sample order
        plot.clear();
        QCOMPARE(plot.measuredCount(), 0);
    }

    void spectrumCurvesAndCutoff()
    {
        SpectrumPlot plot;
        plot.resize(400, 300);
        QCustomPlot* p = qcp(plot);
        QCOMPARE(p->yAxis->scaleType(), QCPAxis::stLogarithmic);
        const auto f = linspace(0, 50, 101);
        std::vector<double> raw;
        std::vector<double> processed;
        for (double fi : f) {
            raw.push_back(1.0 / (1.0 + fi));
            processed.push_back(fi < 10 ? 1.0 / (1.0 + fi) : 1e-3);
        }
        QVERIFY(replotsAfter(plot, [&] { plot.setCurve(QStringLiteral("raw"), f, raw); }));
        plot.setCurve(QStringLiteral("processed"), f, processed);
        plot.setCurve(QStringLiteral("model"), f, raw);
        QCOMPARE(plot.curveNames(),
                 (QStringList{QStringLiteral("raw"), QStringLiteral("processed"), QStringLiteral("model")}));
        plot.setCurve(QStringLiteral("raw"), std::vector<double>{1, 2}, std::vector<double>{1, 0});
        QCOMPARE(plot.curvePointCount(QStringLiteral("raw")), 2);
        QCOMPARE(p->graphCount(), 3);
        plot.removeCurve(QStringLiteral("model"));
        QCOMPARE(plot.curvePointCount(QStringLiteral("model")), -1);

        QVERIFY(!plot.hasCutoff());
        QVERIFY(replotsAfter(plot, [&] { plot.setCutoff(10.0); }));
        QVERIFY(plot.hasCutoff());
        QCOMPARE(plot.cutoff(), 10.0);
        auto* line = p->findChild<QCPItemStraightLine*>(QStringLiteral("cutoffMarker"));
        QVERIFY(line != nullptr);
        QVERIFY(line->visible());
        QCOMPARE(line->point1->coords().x(), 10.0);
        QCOMPARE(line->point2->coords().x(), 10.0);
        plot.setCutoff(std::nan(""));
        QVERIFY(!plot.hasCutoff());
        plot.setLogFrequency(true);
        QVERIFY(plot.isLogFrequency());
        auto* logAction = plot.findChild<QAction*>(QStringLiteral("logFrequencyAction"));
        QVERIFY(logAction != nullptr && logAction->isChecked());
        logAction->trigger();  // the context menu's switch
        QVERIFY(!plot.isLogFrequency());

        // The filter's gain on the right axis, not one of the named curves, in the legend.
        QVERIFY(!plot.hasFilterGain());
        const std::vector<double> gain{1.0, 0.5, 0.0};
        plot.setFilterGain({0.0, 10.0, 50.0}, gain);
        QVERIFY(plot.hasFilterGain());
        QCOMPARE(plot.filterGainNear(11.0), 0.5);
        QVERIFY(p->yAxis2->visible());
        QCOMPARE(p->yAxis2->range().lower, 0.0);
        QCOMPARE(p->yAxis2->range().upper, 1.05);
        QCOMPARE(plot.curveNames(), (QStringList{QStringLiteral("raw"), QStringLiteral("processed")}));
        QVERIFY(plot.legendEntries().contains(SpectrumPlot::filterGainName()));
        plot.clearFilterGain();
        QVERIFY(!plot.hasFilterGain() && !p->yAxis2->visible());
        QVERIFY(std::isnan(plot.filterGainNear(11.0)));
        plot.setFilterGain({0.0, 10.0}, {1.0, 0.5});
        plot.clear();
        QVERIFY(plot.curveNames().isEmpty());
        QVERIFY(!plot.hasFilterGain());
    }

    void exportsPng()
    {
        auto plot = samplePlot();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("plot.png"));
        QString error;
        QVERIFY2(plot->exportTo(path, 640, 360, &error), qPrintable(error));
        const QByteArray bytes = readFile(path);
        QVERIFY(bytes.startsWith(QByteArray("\x89PNG\r\n\x1a\n", 8)));
        QImage image;
        QVERIFY(image.load(path));
        QCOMPARE(image.size(), QSize(640, 360));
        // Upper-case extension works too.
        QVERIFY(plot->exportTo(dir.filePath(QStringLiteral("PLOT2.PNG")), 100, 80, &error));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("PLOT2.PNG"))).size(), QSize(100, 80));
    }

    void exportsPdf()
    {
        auto plot = samplePlot();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plot.pdf"));
        QString error;
        QVERIFY2(plot->exportTo(path, 640, 360, &error), qPrintable(error));
        QVERIFY(readFile(path).startsWith("%PDF"));
    }

    void exportsSvg()
    {
        auto plot = samplePlot();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plot.svg"));
        QString error;
        QVERIFY2(plot->exportTo(path, 640, 360, &error), qPrintable(error));
        const QByteArray bytes = readFile(path);
        QVERIFY(bytes.contains("<svg"));
        QXmlStreamReader xml(bytes);
        QString root;
        QString viewBox;
        int elements = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                if (elements++ == 0) {
                    root = xml.name().toString();
                    viewBox = xml.attributes().value(QStringLiteral("viewBox")).toString();
                }
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, QStringLiteral("svg"));
        QVERIFY2(viewBox.contains(QStringLiteral("640")), qPrintable(viewBox));
        QVERIFY(elements > 10);
        // Something was drawn: more than an empty document.
        QVERIFY(bytes.size() > 2000);
    }

    void exportRejectsUnknownExtensionAndUnwritablePath()
    {
        auto plot = samplePlot();
        QTemporaryDir dir;
        QString error;
        QVERIFY(!plot->exportTo(dir.filePath(QStringLiteral("plot.bmpx")), 100, 100, &error));
        QVERIFY(error.contains(QStringLiteral("bmpx")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("plot.bmpx"))));
        error.clear();
        QVERIFY(!plot->exportTo(dir.filePath(QStringLiteral("plot")), 100, 100, &error));
        QVERIFY(!error.isEmpty());
        for (const char* ext : {"png", "pdf", "svg"}) {
            error.clear();
            const QString path = dir.filePath(QStringLiteral("missing/dir/plot.") + QLatin1String(ext));
            QVERIFY(!plot->exportTo(path, 100, 100, &error));
            QVERIFY2(error.contains(path), qPrintable(error));
        }
        QVERIFY(!plot->exportTo(QStringLiteral("plot.txt"), 100, 100, nullptr));  // no crash without error
    }

    void exportDialogGivesPathAndSize()
    {
        ExportDialog dialog(300, 200);
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        dialog.setPath(QStringLiteral("/tmp/a.SVG"));
        QVERIFY(ok->isEnabled());
        dialog.setPath(QStringLiteral("/tmp/a.txt"));
        QVERIFY(!ok->isEnabled());
        dialog.findChild<QLineEdit*>(QStringLiteral("exportPath"))->setText(QStringLiteral("/tmp/b.pdf"));
        dialog.findChild<QSpinBox*>(QStringLiteral("exportWidth"))->setValue(1234);
        QCOMPARE(dialog.path(), QStringLiteral("/tmp/b.pdf"));
        QCOMPARE(dialog.imageWidth(), 1234);
        QCOMPARE(dialog.imageHeight(), 200);
        QCOMPARE(ExportDialog::formatOf(QStringLiteral("x.Png")), QStringLiteral("png"));
        QCOMPARE(ExportDialog::formatOf(QStringLiteral("x.jpg")), QString());
    }

    void exportActionRunsDialogAndExports()
    {
        auto plot = samplePlot();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("via-menu.png"));
        QTimer::singleShot(0, [&] {
            auto* dialog = plot->findChild<ExportDialog*>();
            QVERIFY(dialog != nullptr);
            dialog->setPath(path);
            dialog->setImageSize(321, 123);
            dialog->accept();
        });
        plot->exportAction()->trigger();
        QCOMPARE(QImage(path).size(), QSize(321, 123));
    }
};

QTEST_MAIN(TestUiPlots)
#include "test_ui_plots.moc"
