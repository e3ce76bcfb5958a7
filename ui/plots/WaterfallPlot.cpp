#include "ui/plots/WaterfallPlot.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace sysid::ui {

WaterfallPlot::WaterfallPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    setAxisLabels(tr("start, sorted by final cost"), tr("final cost"));
    graph_ = plot->addGraph();
    graph_->setName(tr("starts"));
    graph_->setLineStyle(QCPGraph::lsNone);
    graph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, seriesColor(0), 6.0));
    marked_ = plot->addGraph();
    marked_->setName(tr("chosen minimum"));
    marked_->setLineStyle(QCPGraph::lsNone);
    marked_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, seriesColor(1), 8.0));
    setLegendVisible(false);
}

void WaterfallPlot::setCosts(const std::vector<double>& costs)
{
    sorted_.clear();
    for (const double c : costs)
        if (std::isfinite(c))
            sorted_.push_back(c);
    std::sort(sorted_.begin(), sorted_.end());
    const bool logarithmic = !sorted_.empty() && sorted_.front() > 0;
    QCustomPlot* plot = customPlot();
    if (logarithmic) {
        plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        plot->yAxis->setNumberFormat(QStringLiteral("eb"));
        plot->yAxis->setNumberPrecision(0);
    } else {
        plot->yAxis->setScaleType(QCPAxis::stLinear);
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        plot->yAxis->setNumberFormat(QStringLiteral("g"));
        plot->yAxis->setNumberPrecision(6);
    }
    graph_->data()->clear();
    for (std::size_t k = 0; k < sorted_.size(); ++k)
        graph_->addData(static_cast<double>(k + 1), sorted_[k]);
    marked_->data()->clear();
    dataChanged();
}

void WaterfallPlot::setMarked(const std::vector<double>& costs)
{
    marked_->data()->clear();
    for (std::size_t k = 0; k < sorted_.size(); ++k)
        if (std::find(costs.begin(), costs.end(), sorted_[k]) != costs.end())
            marked_->addData(static_cast<double>(k + 1), sorted_[k]);
    dataChanged();
}

void WaterfallPlot::rescaleToData()
{
    customPlot()->rescaleAxes();
    padAxis(customPlot()->xAxis, 0.04);
    padAxis(customPlot()->yAxis, 0.1);
}

void WaterfallPlot::clear()
{
    setCosts({});
}

int WaterfallPlot::pointCount() const
{
    return graph_->dataCount();
}

int WaterfallPlot::markedCount() const
{
    return marked_->dataCount();
}

bool WaterfallPlot::isLogarithmic() const
{
    return customPlot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
}

}  // namespace sysid::ui
