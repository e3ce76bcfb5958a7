#include "ui/plots/StiffnessPlot.h"

#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

StiffnessPlot::StiffnessPlot(QWidget* parent) : CurvePlot(parent), limit_(std::numeric_limits<double>::quiet_NaN())
{
    QCustomPlot* plot = customPlot();
    setAxisLabels(tr("t"), tr("κ = min Re λ"));
    limitLine_ = new QCPItemStraightLine(plot);
    limitLine_->setObjectName(QStringLiteral("stiffnessLimit"));
    QPen pen(Qt::darkGray);
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.5);
    limitLine_->setPen(pen);
    limitLine_->setSelectable(false);
    // A horizontal line: time in axis-rect fractions, kappa in plot coordinates.
    for (QCPItemPosition* p : {limitLine_->point1, limitLine_->point2}) {
        p->setTypeX(QCPItemPosition::ptAxisRectRatio);
        p->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    limitLine_->setVisible(false);
}

void StiffnessPlot::setLimit(double kappa)
{
    limit_ = std::isfinite(kappa) && kappa < 0 ? kappa : std::numeric_limits<double>::quiet_NaN();
    limitLine_->setVisible(!std::isnan(limit_));
    if (!std::isnan(limit_)) {
        limitLine_->point1->setCoords(0.0, limit_);
        limitLine_->point2->setCoords(1.0, limit_);
    }
    resetView();
}

double StiffnessPlot::limit() const
{
    return limit_;
}

void StiffnessPlot::clear()
{
    CurvePlot::clear();
    setLimit(std::numeric_limits<double>::quiet_NaN());
}

void StiffnessPlot::rescaleToData()
{
    PlotWidget::rescaleToData();
    QCPAxis* y = customPlot()->yAxis;
    QCPRange range = y->range();
    range.expand(0.0);
    if (!std::isnan(limit_))
        range.expand(limit_);
    y->setRange(range);
    padAxis(y);
}

}  // namespace sysid::ui
