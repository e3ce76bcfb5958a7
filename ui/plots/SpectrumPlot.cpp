#include "ui/plots/SpectrumPlot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

QVector<double> toQVector(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }

}  // namespace

SpectrumPlot::SpectrumPlot(QWidget* parent)
    : PlotWidget(parent), cutoff_(std::numeric_limits<double>::quiet_NaN()) {
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

QCPGraph* SpectrumPlot::findCurve(const QString& name) const {
    QCustomPlot* plot = customPlot();
    for (int i = 0; i < plot->graphCount(); ++i) {
        if (plot->graph(i)->name() == name) {
            return plot->graph(i);
        }
    }
    return nullptr;
}

void SpectrumPlot::setCurve(const QString& name, const std::vector<double>& frequencies,
                            const std::vector<double>& magnitudes) {
    setCurve(name, toQVector(frequencies), toQVector(magnitudes));
}

void SpectrumPlot::setCurve(const QString& name, const QVector<double>& frequencies,
                            const QVector<double>& magnitudes) {
    QCustomPlot* plot = customPlot();
    QCPGraph* graph = findCurve(name);
    if (graph == nullptr) {
        graph = plot->addGraph();
        graph->setName(name);
        QPen pen(seriesColor(plot->graphCount() - 1));
        pen.setWidthF(1.5);
        graph->setPen(pen);
    }
    const qsizetype n = std::min(frequencies.size(), magnitudes.size());
    QVector<double> mags(magnitudes.begin(), magnitudes.begin() + n);
    for (double& m : mags) {
        if (!(m > 0.0)) {
            m = std::numeric_limits<double>::quiet_NaN();  // a gap, not a line to -infinity
        }
    }
    const QVector<double> keys(frequencies.begin(), frequencies.begin() + n);
    graph->setData(keys, mags, std::is_sorted(keys.cbegin(), keys.cend()));
    dataChanged();
}

void SpectrumPlot::removeCurve(const QString& name) {
    if (QCPGraph* graph = findCurve(name)) {
        customPlot()->removeGraph(graph);
        dataChanged();
    }
}

QStringList SpectrumPlot::curveNames() const {
    QStringList names;
    for (int i = 0; i < customPlot()->graphCount(); ++i) {
        names << customPlot()->graph(i)->name();
    }
    return names;
}

int SpectrumPlot::curvePointCount(const QString& name) const {
    const QCPGraph* graph = findCurve(name);
    return graph == nullptr ? -1 : graph->dataCount();
}

void SpectrumPlot::setCutoff(double hz) {
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

void SpectrumPlot::clearCutoff() {
    cutoff_ = std::numeric_limits<double>::quiet_NaN();
    cutoffLine_->setVisible(false);
    customPlot()->replot(QCustomPlot::rpQueuedReplot);
}

bool SpectrumPlot::hasCutoff() const { return cutoffLine_->visible(); }
double SpectrumPlot::cutoff() const { return cutoff_; }

void SpectrumPlot::setLogFrequency(bool logarithmic) {
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

bool SpectrumPlot::isLogFrequency() const { return customPlot()->xAxis->scaleType() == QCPAxis::stLogarithmic; }

void SpectrumPlot::clear() {
    customPlot()->clearGraphs();
    clearCutoff();
    dataChanged();
}

}  // namespace sysid::ui
