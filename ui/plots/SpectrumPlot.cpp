#include "ui/plots/SpectrumPlot.h"

#include <QAction>

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

    // A filter's roll-off at a cutoff far below the Nyquist frequency is readable on a log axis.
    logFrequency_ = new QAction(tr("Logarithmic frequency axis"), this);
    logFrequency_->setObjectName(QStringLiteral("logFrequencyAction"));
    logFrequency_->setCheckable(true);
    connect(logFrequency_, &QAction::toggled, this, &SpectrumPlot::setLogFrequency);
    addContextAction(logFrequency_);
}

double SpectrumPlot::drawable(double magnitude) const
{
    return magnitude > 0.0 ? magnitude : std::numeric_limits<double>::quiet_NaN();  // a gap, not a line to -infinity
}

void SpectrumPlot::rescaleToData()
{
    PlotWidget::rescaleToData();
    if (gain_)
        customPlot()->yAxis2->setRange(0.0, 1.05);
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
    requestReplot();
}

void SpectrumPlot::clearCutoff()
{
    cutoff_ = std::numeric_limits<double>::quiet_NaN();
    cutoffLine_->setVisible(false);
    requestReplot();
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
    if (logFrequency_->isChecked() != logarithmic) {
        logFrequency_->setChecked(logarithmic);  // comes back here through toggled
        return;
    }
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

QString SpectrumPlot::filterGainName()
{
    return tr("filter gain |H|²");
}

void SpectrumPlot::setFilterGain(const std::vector<double>& frequencyHz, const std::vector<double>& gain)
{
    if (frequencyHz.empty() || gain.empty()) {
        clearFilterGain();
        return;
    }
    QCustomPlot* plot = customPlot();
    if (!gain_) {
        gain_ = new QCPCurve(plot->xAxis, plot->yAxis2);
        gain_->setObjectName(QStringLiteral("filterGain"));
        gain_->setName(filterGainName());
        QPen pen(QColor(0x40, 0x40, 0x40));
        pen.setStyle(Qt::DashDotLine);
        pen.setWidthF(1.5);
        gain_->setPen(pen);
        plot->yAxis2->setVisible(true);
        plot->yAxis2->setLabel(filterGainName());
    }
    const auto n = static_cast<qsizetype>(std::min(frequencyHz.size(), gain.size()));
    gain_->setData(QVector<double>(frequencyHz.begin(), frequencyHz.begin() + n),
                   QVector<double>(gain.begin(), gain.begin() + n));
    dataChanged();
}

void SpectrumPlot::clearFilterGain()
{
    if (!gain_)
        return;
    customPlot()->removePlottable(gain_);
    gain_ = nullptr;
    customPlot()->yAxis2->setVisible(false);
    dataChanged();
}

bool SpectrumPlot::hasFilterGain() const
{
    return gain_ != nullptr;
}

double SpectrumPlot::filterGainNear(double hz) const
{
    double best = std::numeric_limits<double>::quiet_NaN();
    double distance = std::numeric_limits<double>::infinity();
    if (!gain_)
        return best;
    for (auto it = gain_->data()->constBegin(); it != gain_->data()->constEnd(); ++it)
        if (std::abs(it->key - hz) < distance) {
            distance = std::abs(it->key - hz);
            best = it->value;
        }
    return best;
}

void SpectrumPlot::clear()
{
    clearCutoff();
    clearFilterGain();
    CurvePlot::clear();
}

}  // namespace sysid::ui
