#include "ui/plots/FieldPlot.h"

#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

FieldPlot::FieldPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    map_ = new QCPColorMap(plot->xAxis, plot->yAxis);
    map_->setInterpolate(false);
    scale_ = new QCPColorScale(plot);
    plot->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    map_->setColorScale(scale_);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map_->setGradient(gradient);
    auto* group = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    setAxisLabels(tr("t"), tr("x"));
    setLegendVisible(false);
}

void FieldPlot::setField(const QString& name, const QString& axis, const std::vector<double>& positions,
                         const std::vector<double>& times, const Eigen::MatrixXd& measured,
                         const Eigen::MatrixXd& model)
{
    name_ = name;
    axis_ = axis;
    positions_ = positions;
    times_ = times;
    measured_ = measured;
    model_ = model;
    redraw();
}

void FieldPlot::setModel(const Eigen::MatrixXd& model)
{
    model_ = model;
    redraw();
}

void FieldPlot::setView(View view)
{
    view_ = view;
    redraw();
}

void FieldPlot::clear()
{
    positions_.clear();
    times_.clear();
    measured_.resize(0, 0);
    model_.resize(0, 0);
    redraw();
}

double FieldPlot::shownValue(int sample, int node) const
{
    const bool inMeasured = sample >= 0 && node >= 0 && sample < measured_.rows() && node < measured_.cols();
    const bool inModel = sample >= 0 && node >= 0 && sample < model_.rows() && node < model_.cols();
    switch (view_) {
    case View::Measured: return inMeasured ? measured_(sample, node) : kNaN;
    case View::Model: return inModel ? model_(sample, node) : kNaN;
    case View::Residual: return inMeasured && inModel ? measured_(sample, node) - model_(sample, node) : kNaN;
    }
    return kNaN;
}

void FieldPlot::redraw()
{
    const int samples = static_cast<int>(times_.size());
    const int nodes = static_cast<int>(positions_.size());
    if (samples == 0 || nodes == 0) {
        map_->data()->clear();
        dataChanged();
        return;
    }
    map_->data()->setSize(samples, nodes);
    map_->data()->setRange(QCPRange(times_.front(), times_.back()), QCPRange(positions_.front(), positions_.back()));
    for (int s = 0; s < samples; ++s)
        for (int k = 0; k < nodes; ++k)
            map_->data()->setCell(s, k, shownValue(s, k));
    map_->rescaleDataRange(true);
    // The residual's colours are only readable with zero in the middle of the scale.
    if (view_ == View::Residual) {
        const QCPRange r = map_->dataRange();
        const double m = std::max(std::abs(r.lower), std::abs(r.upper));
        if (m > 0)
            map_->setDataRange(QCPRange(-m, m));
        map_->setGradient([] {
            QCPColorGradient g(QCPColorGradient::gpPolar);
            g.setNanHandling(QCPColorGradient::nhTransparent);
            return g;
        }());
    } else {
        QCPColorGradient g(QCPColorGradient::gpThermal);
        g.setNanHandling(QCPColorGradient::nhTransparent);
        map_->setGradient(g);
    }
    static const char* const kViewNames[] = {"measured", "model", "residual"};
    scale_->axis()->setLabel(name_ + " (" + tr(kViewNames[static_cast<int>(view_)]) + ")");
    setAxisLabels(tr("t"), axis_);
    dataChanged();
}

}  // namespace sysid::ui
