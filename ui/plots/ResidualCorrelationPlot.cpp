#include "ui/plots/ResidualCorrelationPlot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

void integerTicks(QCPAxis* axis)
{
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    axis->setTicker(ticker);
}

}  // namespace

ResidualCorrelationPlot::ResidualCorrelationPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    auto_ = makePanel(plot->axisRect(), 0);
    auto_.stems->setName(tr("autocorrelation"));
    auto_.upper->setName(tr("99 % bounds"));
    keepOutOfLegend(auto_.lower);
    margins_ = new QCPMarginGroup(plot);
    auto_.rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    setAxisLabels(tr("lag [samples]"), tr("autocorrelation"));

    // The legend in a row of its own under the axes, its entries side by side: inside an axis rect it
    // would cover the stems, which all lie near zero.
    QCPLegend* legend = plot->legend;
    legend->setFont(font());
    plot->axisRect()->insetLayout()->take(legend);
    const int row = plot->plotLayout()->rowCount();
    plot->plotLayout()->addElement(row, 0, legend);
    plot->plotLayout()->setRowStretchFactor(row, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(2);  // three entries side by side do not fit the plots area at 1366 x 768
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setBorderPen(Qt::NoPen);
}

ResidualCorrelationPlot::Panel ResidualCorrelationPlot::makePanel(QCPAxisRect* rect, int colour)
{
    Panel panel;
    panel.rect = rect;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    integerTicks(x);
    y->ticker()->setTickCount(3);  // the panels are short: more labels overlap
    panel.stems = customPlot()->addGraph(x, y);
    panel.stems->setLineStyle(QCPGraph::lsImpulse);
    QPen pen(seriesColor(colour));
    pen.setWidthF(1.5);
    panel.stems->setPen(pen);
    panel.stems->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, seriesColor(colour), 5.0));
    QPen dashed(QColor(0x80, 0x80, 0x80));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidthF(1.2);
    panel.upper = customPlot()->addGraph(x, y);
    panel.lower = customPlot()->addGraph(x, y);
    panel.upper->setPen(dashed);
    panel.lower->setPen(dashed);
    return panel;
}

void ResidualCorrelationPlot::draw(Panel& panel, const estimate::Correlation& correlation)
{
    // The lags compared with the bound: an autocorrelation's lag 0 is 1 by definition and would
    // squash the others, which lie near zero, to a line.
    const std::size_t first = correlation.values.size() - std::min(correlation.tested, correlation.values.size());
    QVector<double> lags, values;
    for (std::size_t k = first; k < correlation.values.size() && k < correlation.lags.size(); ++k) {
        lags.push_back(correlation.lags[k]);
        values.push_back(correlation.values[k]);
    }
    panel.stems->setData(lags, values, true);
    panel.upper->data()->clear();
    panel.lower->data()->clear();
    if (lags.isEmpty() || !std::isfinite(correlation.bound))
        return;
    // Half a lag beyond the outer stems, so the bounds frame them.
    const QVector<double> ends{lags.front() - 0.5, lags.back() + 0.5};
    panel.upper->setData(ends, {correlation.bound, correlation.bound}, true);
    panel.lower->setData(ends, {-correlation.bound, -correlation.bound}, true);
}

void ResidualCorrelationPlot::rescaleToData()
{
    customPlot()->rescaleAxes();
    for (QCPAxisRect* rect : customPlot()->axisRects()) {
        padAxis(rect->axis(QCPAxis::atBottom), 0.02);
        padAxis(rect->axis(QCPAxis::atLeft), 0.12);  // the bounds clear of the frame
    }
}

void ResidualCorrelationPlot::removeInputPanels()
{
    QCustomPlot* plot = customPlot();
    for (Panel& panel : inputs_) {
        plot->removeGraph(panel.stems);
        plot->removeGraph(panel.upper);
        plot->removeGraph(panel.lower);
        plot->plotLayout()->remove(panel.rect);  // deletes it
    }
    inputs_.clear();
    plot->plotLayout()->simplify();
}

void ResidualCorrelationPlot::setAnalysis(const estimate::OutputResidualAnalysis& analysis)
{
    draw(auto_, analysis.autocorrelation);
    auto_.rect->axis(QCPAxis::atLeft)
        ->setLabel(tr("autocorrelation of %1").arg(QString::fromStdString(analysis.output)));

    removeInputPanels();
    QCPLayoutGrid* layout = customPlot()->plotLayout();
    int row = 0;
    while (row < layout->rowCount() - 1 && layout->element(row, 0) != auto_.rect)
        ++row;
    for (std::size_t i = 0; i < analysis.inputs.size(); ++i) {
        const estimate::InputCorrelation& input = analysis.inputs[i];
        auto* rect = new QCPAxisRect(customPlot());
        ++row;
        layout->insertRow(row);  // above the legend's row
        layout->addElement(row, 0, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
        Panel panel = makePanel(rect, 1 + static_cast<int>(i));
        panel.input = QString::fromStdString(input.input);
        panel.stems->setName(tr("cross-correlation with %1").arg(panel.input));
        keepOutOfLegend(panel.upper);
        keepOutOfLegend(panel.lower);
        rect->axis(QCPAxis::atLeft)->setLabel(tr("with %1").arg(panel.input));
        rect->axis(QCPAxis::atBottom)->setLabel(tr("lag [samples], %1 leading at positive lags").arg(panel.input));
        draw(panel, input.correlation);
        inputs_.push_back(panel);
    }
    dataChanged();
}

void ResidualCorrelationPlot::clear()
{
    draw(auto_, {});
    removeInputPanels();
    dataChanged();
}

int ResidualCorrelationPlot::autocorrelationCount() const
{
    return auto_.stems->dataCount();
}

double ResidualCorrelationPlot::boundOf(const Panel& panel)
{
    return panel.upper->dataCount() > 0 ? panel.upper->data()->constBegin()->value
                                        : std::numeric_limits<double>::quiet_NaN();
}

double ResidualCorrelationPlot::autocorrelationBound() const
{
    return boundOf(auto_);
}

QString ResidualCorrelationPlot::inputName(int input) const
{
    return input >= 0 && input < inputCount() ? inputs_[static_cast<std::size_t>(input)].input : QString();
}

int ResidualCorrelationPlot::crossCorrelationCount(int input) const
{
    return input >= 0 && input < inputCount() ? inputs_[static_cast<std::size_t>(input)].stems->dataCount() : 0;
}

double ResidualCorrelationPlot::crossCorrelationBound(int input) const
{
    return input >= 0 && input < inputCount() ? boundOf(inputs_[static_cast<std::size_t>(input)])
                                              : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace sysid::ui
