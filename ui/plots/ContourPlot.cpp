#include "ui/plots/ContourPlot.h"

#include "engine/job/CostContours.h"

#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

constexpr std::size_t kIsoLines = 12;

// matplotlib's viridis at 0, 0.1, ..., 1.
QCPColorGradient viridis()
{
    static const char* const stops[] = {"#440154", "#482475", "#414487", "#355F8D", "#2A788E", "#21918C",
                                        "#22A884", "#44BF70", "#7AD151", "#BDDF26", "#FDE725"};
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (int i = 0; i <= 10; ++i)
        gradient.setColorStopAt(i / 10.0, QColor(QString::fromLatin1(stops[i])));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

}  // namespace

ContourPlot::ContourPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    map_ = new QCPColorMap(plot->xAxis, plot->yAxis);
    map_->setName(tr("cost"));
    map_->setInterpolate(true);
    keepOutOfLegend(map_);
    scale_ = new QCPColorScale(plot);
    plot->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->axis()->setLabel(tr("cost"));
    map_->setColorScale(scale_);
    map_->setGradient(viridis());
    auto* group = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);

    contours_ = new QCPCurve(plot->xAxis, plot->yAxis);
    contours_->setName(tr("iso-cost lines"));
    contours_->setPen(QPen(QColor(0, 0, 0, 120), 0.8));
    contours_->setSelectable(QCP::stNone);
    keepOutOfLegend(contours_);

    path_ = new QCPCurve(plot->xAxis, plot->yAxis);
    path_->setName(tr("iteration path"));
    QPen pen(Qt::black);
    pen.setWidthF(1.5);
    path_->setPen(pen);
    path_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), Qt::white, 6.0));
    setLegendVisible(false);
    scale_->axis()->setTickLabels(false);  // no cost scale before a surface
}

void ContourPlot::setSurface(const job::CostSurfaceResult& surface)
{
    const int nx = static_cast<int>(surface.xValues.size());
    const int ny = static_cast<int>(surface.yValues.size());
    if (nx < 2 || ny < 2) {
        clear();
        return;
    }
    map_->data()->setSize(nx, ny);
    map_->data()->setRange(QCPRange(surface.xValues.front(), surface.xValues.back()),
                           QCPRange(surface.yValues.front(), surface.yValues.back()));
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (int iy = 0; iy < ny; ++iy)
        for (int ix = 0; ix < nx; ++ix) {
            const double c = surface.at(static_cast<std::size_t>(ix), static_cast<std::size_t>(iy));
            map_->data()->setCell(ix, iy, c);
            if (std::isfinite(c)) {
                low = std::min(low, c);
                high = std::max(high, c);
            }
        }
    // A cost spanning decades shows its valley only on a logarithmic scale.
    const bool logarithmic = job::logarithmicCostScale(surface);
    scale_->setDataScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logarithmic)
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>::create());
    if (std::isfinite(low) && high > low)
        map_->setDataRange(QCPRange(low, high));
    else if (std::isfinite(low))
        map_->setDataRange(QCPRange(low - 0.5, low + 0.5));
    QVector<double> t, xs, ys;
    levels_ = 0;
    for (const job::IsoCostLine& line : job::isoCostLines(surface, kIsoLines)) {
        levels_ += line.x.empty() ? 0 : 1;
        for (std::size_t i = 0; i < line.x.size(); ++i) {
            t.push_back(static_cast<double>(t.size()));
            xs.push_back(line.x[i]);
            ys.push_back(line.y[i]);
        }
    }
    contours_->setData(t, xs, ys, true);
    setAxisLabels(QString::fromStdString(surface.x.parameter), QString::fromStdString(surface.y.parameter));
    scale_->axis()->setTickLabels(true);
    hasSurface_ = true;
    dataChanged();
}

void ContourPlot::setPath(const std::vector<job::PathPoint>& path)
{
    QVector<double> xs, ys;
    for (const auto& p : path) {
        xs.push_back(p.x);
        ys.push_back(p.y);
    }
    path_->setData(xs, ys);
    dataChanged();
}

void ContourPlot::clear()
{
    map_->data()->clear();
    contours_->data()->clear();
    path_->data()->clear();
    hasSurface_ = false;
    levels_ = 0;
    // Nothing of an earlier surface stays: no parameter names, no cost scale.
    setAxisLabels(QString(), QString());
    scale_->axis()->setTickLabels(false);
    dataChanged();
}

double ContourPlot::cellValue(int ix, int iy) const
{
    if (!hasSurface_ || ix < 0 || iy < 0 || ix >= map_->data()->keySize() || iy >= map_->data()->valueSize())
        return std::numeric_limits<double>::quiet_NaN();
    return map_->data()->cell(ix, iy);
}

int ContourPlot::pathPointCount() const
{
    return path_->dataCount();
}

bool ContourPlot::isLogarithmic() const
{
    return scale_->dataScaleType() == QCPAxis::stLogarithmic;
}

int ContourPlot::contourPointCount() const
{
    return contours_->dataCount();
}

QColor ContourPlot::colourAt(double position) const
{
    QRgb colour = 0;
    map_->gradient().colorize(&position, QCPRange(0.0, 1.0), &colour, 1);
    return QColor::fromRgba(colour);
}

bool ContourPlot::isInterpolated() const
{
    return map_->interpolate();
}

void ContourPlot::rescaleToData()
{
    // The colour scale's axis keeps the data range the map set; only the plot axes follow the data.
    QCustomPlot* plot = customPlot();
    plot->rescaleAxes();
    padAxis(plot->xAxis);
    padAxis(plot->yAxis);
}

}  // namespace sysid::ui
