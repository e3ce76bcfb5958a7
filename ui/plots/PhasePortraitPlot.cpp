#include "ui/plots/PhasePortraitPlot.h"

#include <algorithm>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

void setCurveData(QCPCurve* curve, const QVector<double>& xs, const QVector<double>& ys)
{
    const qsizetype n = std::min(xs.size(), ys.size());
    curve->setData(xs.size() == n ? xs : xs.first(n), ys.size() == n ? ys : ys.first(n));
}

QVector<double> toQVector(const std::vector<double>& v)
{
    return QVector<double>(v.begin(), v.end());
}

}  // namespace

PhasePortraitPlot::PhasePortraitPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    measured_ = new QCPCurve(plot->xAxis, plot->yAxis);
    measured_->setName(tr("measured"));
    QPen measuredPen(seriesColor(0));
    measuredPen.setWidthF(0.5);
    measured_->setPen(measuredPen);
    measured_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));

    model_ = new QCPCurve(plot->xAxis, plot->yAxis);
    model_->setName(tr("model"));
    QPen modelPen(seriesColor(1));
    modelPen.setWidthF(2.0);
    model_->setPen(modelPen);

    setAxisNames(QStringLiteral("x"), QStringLiteral("y"));
}

void PhasePortraitPlot::setMeasured(const std::vector<double>& xs, const std::vector<double>& ys)
{
    setMeasured(toQVector(xs), toQVector(ys));
}

void PhasePortraitPlot::setMeasured(const QVector<double>& xs, const QVector<double>& ys)
{
    setCurveData(measured_, xs, ys);
    dataChanged();
}

void PhasePortraitPlot::setModel(const std::vector<double>& xs, const std::vector<double>& ys)
{
    setModel(toQVector(xs), toQVector(ys));
}

void PhasePortraitPlot::setModel(const QVector<double>& xs, const QVector<double>& ys)
{
    setCurveData(model_, xs, ys);
    dataChanged();
}

void PhasePortraitPlot::setAxisNames(const QString& x, const QString& y)
{
    setAxisLabels(x, y);
}

void PhasePortraitPlot::setModelOutOfDate(bool outOfDate)
{
    if (outOfDate == modelOutOfDate_)
        return;
    modelOutOfDate_ = outOfDate;
    QPen pen(outOfDate ? QColor(0x80, 0x80, 0x80) : seriesColor(1));
    pen.setWidthF(2.0);
    if (outOfDate)
        pen.setStyle(Qt::DashLine);
    model_->setPen(pen);
    model_->setName(outOfDate ? tr("model (out of date)") : tr("model"));
    requestReplot();
}

void PhasePortraitPlot::clear()
{
    measured_->data()->clear();
    model_->data()->clear();
    dataChanged();
}

int PhasePortraitPlot::measuredCount() const
{
    return measured_->dataCount();
}
int PhasePortraitPlot::modelCount() const
{
    return model_->dataCount();
}

}  // namespace sysid::ui
