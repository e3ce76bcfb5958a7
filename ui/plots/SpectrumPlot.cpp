#include "ui/plots/SpectrumPlot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

SpectrumPlot::SpectrumPlot(QWidget* parent) : CurvePlot(parent), cutoff_(std::numeric_limits<double>::quiet_NaN())
{
    QCustomPlot* plot = customPlot();
    setAxisLabels(tr("f [Hz]"), tr("magnitude"));
    plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    plot->yAxis->setNumberFormat(QStringLiteral("eb"));
    plot->yAxis->setNumberPrecision(0);

    cutoffLine_ = new QCPItemStraightLine(plot);
    cutoffLine_->setObjectName(QStringLiteral("cutoffMarker"));
    QPen pen(Qt::darkGray);
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.5);
    cutoffLine_->setPen(pen);
    cutoffLine_->setSelectable(false);
    // Frequency in plot coordinates, vertical extent in axis-rect fractions: always spans the rect.
    for (QCPItemPosition* p : {cutoffLine_->point1, cutoffLine_->point2}) {
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    cutoffLine_->setVisible(false);
}

double SpectrumPlot::drawable(double magnitude) const
{
    return magnitude > 0.0 ? magnitude : std::numeric_limits<double>::quiet_NaN();  // a gap, not a line to -infinity
}

void SpectrumPlot::rescaleToData()
{
    PlotWidget::rescaleToData();
    QCPAxis* x = customPlot()->xAxis;
    // A cutoff a little above the last frequency is still what the user is placing: keep it in view.
    if (hasCutoff() && cutoff_ > x->range().upper && cutoff_ < 10.0 * std::max(x->range().upper, 1e-300))
        x->setRangeUpper(cutoff_ * 1.05);
}

void SpectrumPlot::setCutoff(double hz)
{
    if (!std::isfinite(hz) || hz <= 0.0) {
        clearCutoff();
        return;
    }
    cutoff_ = hz;
    cutoffLine_->point1->setCoords(hz, 0.0);
    cutoffLine_->point2->setCoords(hz, 1.0);
    cutoffLine_->setVisible(true);
    customPlot()->replot(QCustomPlot::rpQueuedReplot);
}

void SpectrumPlot::clearCutoff()
{
    cutoff_ = std::numeric_limits<double>::quiet_NaN();
    cutoffLine_->setVisible(false);
    customPlot()->replot(QCustomPlot::rpQueuedReplot);
}

bool SpectrumPlot::hasCutoff() const
{
    return cutoffLine_->visible();
}
double SpectrumPlot::cutoff() const
{
    return cutoff_;
}

void SpectrumPlot::setLogFrequency(bool logarithmic)
{
    QCPAxis* x = customPlot()->xAxis;
    if (logarithmic) {
        x->setScaleType(QCPAxis::stLogarithmic);
        x->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    } else {
        x->setScaleType(QCPAxis::stLinear);
        x->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    resetView();
}

bool SpectrumPlot::isLogFrequency() const
{
    return customPlot()->xAxis->scaleType() == QCPAxis::stLogarithmic;
}

void SpectrumPlot::clear()
{
    clearCutoff();
    CurvePlot::clear();
}

}  // namespace sysid::ui
