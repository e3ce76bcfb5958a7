#include "ui/plots/BranchPlot.h"

#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

QCPCurve* makeCurve(QCustomPlot* plot, const QString& name, const QPen& pen)
{
    auto* curve = new QCPCurve(plot->xAxis, plot->yAxis);
    curve->setName(name);
    curve->setPen(pen);
    return curve;
}

QCPCurve* makeMarkers(QCustomPlot* plot, const QString& name, QCPScatterStyle::ScatterShape shape, const QColor& colour)
{
    auto* curve = makeCurve(plot, name, QPen(colour));
    curve->setLineStyle(QCPCurve::lsNone);
    curve->setScatterStyle(QCPScatterStyle(shape, colour, 9.0));
    return curve;
}

}  // namespace

BranchPlot::BranchPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    QPen solid(seriesColor(0));
    solid.setWidthF(2.0);
    stable_ = makeCurve(plot, tr("stable"), solid);
    QPen dashed(seriesColor(1));
    dashed.setWidthF(1.5);
    dashed.setStyle(Qt::DashLine);
    unstable_ = makeCurve(plot, tr("unstable"), dashed);
    folds_ = makeMarkers(plot, tr("fold"), QCPScatterStyle::ssDiamond, QColor(200, 0, 0));
    doublings_ = makeMarkers(plot, tr("period doubling"), QCPScatterStyle::ssTriangle, QColor(120, 0, 160));
    setAxisLabels(tr("parameter"), tr("amplitude"));
}

void BranchPlot::setBranch(const std::vector<Point>& points, const QString& parameterName, const QString& amplitudeName)
{
    clear();
    const double gap = std::numeric_limits<double>::quiet_NaN();
    // Each curve keeps every point in branch order, with NaN where the other curve draws, so a
    // folded branch is drawn as it turns and each stability change joins the two curves.
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        const bool joinsPrevious = i > 0 && points[i - 1].stable != p.stable;
        const double key = static_cast<double>(i);
        if (joinsPrevious) {
            const Point& q = points[i - 1];
            (p.stable ? stable_ : unstable_)->addData(key - 0.5, q.parameter, q.amplitude);
        }
        (p.stable ? stable_ : unstable_)->addData(key, p.parameter, p.amplitude);
        (p.stable ? unstable_ : stable_)->addData(key, gap, gap);
        if (p.type == PointType::Fold)
            folds_->addData(key, p.parameter, p.amplitude);
        if (p.type == PointType::PeriodDoubling)
            doublings_->addData(key, p.parameter, p.amplitude);
    }
    setAxisLabels(parameterName, amplitudeName);
    dataChanged();
}

void BranchPlot::clear()
{
    for (QCPCurve* c : {stable_, unstable_, folds_, doublings_})
        c->data()->clear();
    dataChanged();
}

namespace {

int finiteCount(const QCPCurve* curve)
{
    int n = 0;
    for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
        n += std::isfinite(it->key) ? 1 : 0;
    return n;
}

}  // namespace

int BranchPlot::stableCount() const
{
    return finiteCount(stable_);
}
int BranchPlot::unstableCount() const
{
    return finiteCount(unstable_);
}
int BranchPlot::markerCount() const
{
    return folds_->dataCount() + doublings_->dataCount();
}

}  // namespace sysid::ui
