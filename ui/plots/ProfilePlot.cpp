#include "ui/plots/ProfilePlot.h"

#include <QVector>

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QCPGraph* addGraph(QCustomPlot* plot, const QString& name, const QPen& pen)
{
    QCPGraph* graph = plot->addGraph();
    graph->setName(name);
    graph->setPen(pen);
    return graph;
}

// Vertical segments from 0 to `top` at each value, drawn as one graph with gaps between them.
void setSegments(QCPGraph* graph, const std::vector<double>& values, double top)
{
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    QVector<double> keys, heights;
    for (std::size_t k = 0; k < sorted.size(); ++k) {
        if (k > 0) {
            keys << (sorted[k - 1] + sorted[k]) / 2;
            heights << kNaN;
        }
        keys << sorted[k] << sorted[k];
        heights << 0.0 << top;
    }
    graph->setData(keys, heights, true);
}

}  // namespace

ProfilePlot::ProfilePlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    QPen profilePen(seriesColor(0));
    profilePen.setWidthF(1.5);
    profile_ = addGraph(plot, tr("profile"), profilePen);
    profile_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5.0));
    QPen quadraticPen(Qt::darkGray);
    quadraticPen.setStyle(Qt::DashLine);
    quadratic_ = addGraph(plot, tr("quadratic (covariance)"), quadraticPen);
    QPen intervalPen(seriesColor(0));
    intervalPen.setWidthF(2.0);
    interval_ = addGraph(plot, tr("profile interval"), intervalPen);
    QPen waldPen(seriesColor(1));
    waldPen.setWidthF(1.5);
    waldPen.setStyle(Qt::DotLine);
    waldEnds_ = addGraph(plot, tr("Wald interval"), waldPen);

    thresholdLine_ = new QCPItemStraightLine(plot);
    QPen thresholdPen(QColor(200, 40, 40));
    thresholdPen.setStyle(Qt::DashLine);
    thresholdLine_->setPen(thresholdPen);
    thresholdLine_->setSelectable(false);
    for (QCPItemPosition* p : {thresholdLine_->point1, thresholdLine_->point2}) {
        p->setTypeX(QCPItemPosition::ptAxisRectRatio);
        p->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    thresholdLine_->setVisible(false);
    setAxisLabels(tr("value"), tr("Δ(−2 log L)"));
    plot->xAxis->ticker()->setTickCount(4);  // the values' long labels side by side in a small plot
}

void ProfilePlot::start(const QString& name, double threshold)
{
    name_ = name;
    threshold_ = threshold;
    low_.reset();
    high_.reset();
    wald_ = {kNaN, kNaN};
    for (QCPGraph* graph : {profile_, quadratic_, interval_, waldEnds_})
        graph->data()->clear();
    thresholdLine_->point1->setCoords(0.0, threshold);
    thresholdLine_->point2->setCoords(1.0, threshold);
    thresholdLine_->setVisible(std::isfinite(threshold));
    setAxisLabels(name, tr("Δ(−2 log L)"));
    resetView();
}

void ProfilePlot::addPoint(double value, double rise)
{
    if (!std::isfinite(value) || !std::isfinite(rise))
        return;
    profile_->addData(value, rise);
    dataChanged();
}

void ProfilePlot::setProfile(const job::ParameterProfile& profile, const job::ProfileResult& result)
{
    start(QString::fromStdString(profile.name), result.threshold);
    QVector<double> values, rises;
    for (const job::ProfilePoint& point : profile.points(result.optimum))
        if (std::isfinite(point.objective)) {
            values << point.value;
            rises << point.objective - result.objectiveAtOptimum;
        }
    profile_->setData(values, rises, true);
    low_ = profile.low;
    high_ = profile.high;
    wald_ = profile.waldInterval;
    std::vector<double> ends;
    for (const auto& end : {low_, high_})
        if (end)
            ends.push_back(*end);
    setSegments(interval_, ends, threshold_);
    if (std::isfinite(wald_[0]) && std::isfinite(wald_[1]) && !values.isEmpty()) {
        setSegments(waldEnds_, {wald_[0], wald_[1]}, threshold_);
        // The quadratic over the profile's values, widened to the Wald interval.
        const double from = std::min(values.front(), wald_[0]), to = std::max(values.back(), wald_[1]);
        // Cut where it leaves the profile's height, so a steep parabola does not squash the profile.
        const double top = 1.5 * std::max(threshold_, *std::max_element(rises.begin(), rises.end()));
        QVector<double> x, y;
        constexpr int kSamples = 101;
        for (int k = 0; k < kSamples; ++k) {
            const double v = from + (to - from) * k / (kSamples - 1);
            const double q = std::pow((v - profile.estimate) / profile.sd, 2);
            x << v;
            y << (q <= top ? q : kNaN);
        }
        quadratic_->setData(x, y, true);
    }
    QString label = name_;
    if (!profile.unit.empty())
        label += QStringLiteral(" [%1]").arg(QString::fromStdString(profile.unit));
    setAxisLabels(label + QStringLiteral(" — ") + QString::fromStdString(job::verdictName(profile.verdict)),
                  tr("Δ(−2 log L)"));
    resetView();
}

void ProfilePlot::rescaleToData()
{
    PlotWidget::rescaleToData();
    // The threshold and zero always in view: where the profile stands against them is the point.
    QCPAxis* y = customPlot()->yAxis;
    QCPRange range = y->range();
    range.expand(0.0);
    if (std::isfinite(threshold_))
        range.expand(1.2 * threshold_);
    y->setRange(range);
    padAxis(y);
}

int ProfilePlot::pointCount() const
{
    return profile_->dataCount();
}

}  // namespace sysid::ui
