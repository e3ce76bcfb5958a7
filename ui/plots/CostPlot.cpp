#include "ui/plots/CostPlot.h"

#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

CostPlot::CostPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    setAxisLabels(tr("iteration"), tr("cost"));
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    plot->yAxis->setNumberFormat(QStringLiteral("eb"));
    plot->yAxis->setNumberPrecision(0);
    auto xTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    xTicker->setTickStep(1.0);
    xTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(xTicker);

    graph_ = plot->addGraph();
    graph_->setName(tr("cost"));
    QPen pen(seriesColor(0));
    pen.setWidthF(1.5);
    graph_->setPen(pen);
    graph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4.0));
    setLegendVisible(false);
}

void CostPlot::addIteration(int iteration, double cost)
{
    const bool drawable = std::isfinite(cost) && cost > 0.0;
    graph_->addData(iteration, drawable ? cost : std::numeric_limits<double>::quiet_NaN());
    dataChanged();
}

void CostPlot::clear()
{
    graph_->data()->clear();
    dataChanged();
}

int CostPlot::iterationCount() const
{
    return graph_->dataCount();
}

bool CostPlot::isLogarithmic() const
{
    return customPlot()->yAxis->scaleType() == QCPAxis::stLogarithmic &&
        !customPlot()->yAxis->ticker().dynamicCast<QCPAxisTickerLog>().isNull();
}

}  // namespace sysid::ui
