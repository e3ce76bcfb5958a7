#include "ui/plots/TimeSeriesPlot.h"

#include "engine/model/UnitLabel.h"

#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

QVector<double> toQVector(const std::vector<double>& v)
{
    return QVector<double>(v.begin(), v.end());
}

void setGraphData(QCPGraph* graph, const QVector<double>& keys, const QVector<double>& values)
{
    const qsizetype n = std::min(keys.size(), values.size());
    const QVector<double> k = keys.size() == n ? keys : keys.first(n);
    const QVector<double> v = values.size() == n ? values : values.first(n);
    graph->setData(k, v, std::is_sorted(k.cbegin(), k.cend()));
}

}  // namespace

TimeSeriesPlot::TimeSeriesPlot(QWidget* parent) : PlotWidget(parent)
{
    QCustomPlot* plot = customPlot();
    QCPAxisRect* mainRect = plot->axisRect();

    residualRect_ = new QCPAxisRect(plot);
    plot->plotLayout()->addElement(1, 0, residualRect_);
    plot->plotLayout()->setRowStretchFactor(0, 3.0);
    plot->plotLayout()->setRowStretchFactor(1, 1.0);
    plot->plotLayout()->setRowSpacing(0);
    auto* margins = new QCPMarginGroup(plot);
    mainRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    residualRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    residualRect_->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    residualRect_->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    // The time axis is shown once, under the residuals.
    mainRect->axis(QCPAxis::atBottom)->setTickLabels(false);

    QCPAxis* timeTop = mainRect->axis(QCPAxis::atBottom);
    QCPAxis* timeBottom = residualRect_->axis(QCPAxis::atBottom);
    connect(timeTop, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), timeBottom,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(timeBottom, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), timeTop,
            qOverload<const QCPRange&>(&QCPAxis::setRange));

    raw_ = plot->addGraph(timeTop, mainRect->axis(QCPAxis::atLeft));
    raw_->setPen(QPen(QColor(0x9E, 0x9E, 0x9E, 150), 1.0));
    measured_ = plot->addGraph(timeTop, mainRect->axis(QCPAxis::atLeft));
    measured_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3.0));
    model_ = plot->addGraph(timeTop, mainRect->axis(QCPAxis::atLeft));
    residual_ = plot->addGraph(timeBottom, residualRect_->axis(QCPAxis::atLeft));
    residual_->setName(tr("residual"));
    keepOutOfLegend(residual_);
    residual_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 2.5));
    residualRect_->axis(QCPAxis::atLeft)->setLabel(tr("residual"));

    plot->legend->setFont(font());
    setAxisLabels(QStringLiteral("t"), QString());
    updateStyle();
}

void TimeSeriesPlot::updateStyle()
{
    const QString name = outputName_.isEmpty() ? QString() : outputName_ + QLatin1Char(' ');
    const bool preprocessed = !raw_->data()->isEmpty();
    raw_->setName(tr("%1raw").arg(name));
    measured_->setName(preprocessed ? tr("%1measured, preprocessed").arg(name) : tr("%1measured").arg(name));
    model_->setName(modelOutOfDate_             ? tr("%1model (out of date)").arg(name)
                        : modelAtCurrentValues_ ? tr("%1model at current values").arg(name)
                                                : tr("%1model").arg(name));

    QPen measuredPen(seriesColor(0));
    measuredPen.setWidthF(0.5);
    measured_->setPen(measuredPen);
    const QColor grey(0x80, 0x80, 0x80);
    QPen modelPen(modelOutOfDate_ ? grey : seriesColor(1));
    modelPen.setWidthF(2.0);
    if (modelOutOfDate_)
        modelPen.setStyle(Qt::DashLine);
    model_->setPen(modelPen);
    const QColor residualColour = modelOutOfDate_ ? grey : seriesColor(2);
    QPen residualPen(residualColour);
    residualPen.setWidthF(0.5);
    residual_->setPen(residualPen);
    residual_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, residualColour, 2.5));
}

void TimeSeriesPlot::setOutputName(const QString& name)
{
    outputName_ = name;
    updateValueLabels();
    updateStyle();
    requestReplot();
}

void TimeSeriesPlot::setOutputUnit(const QString& unit)
{
    outputUnit_ = unit;
    updateValueLabels();
    requestReplot();
}

void TimeSeriesPlot::updateValueLabels()
{
    const std::string unit = outputUnit_.toStdString();
    setAxisLabels(xAxisLabel(), QString::fromStdString(model::withUnit(outputName_.toStdString(), unit)));
    residualRect_->axis(QCPAxis::atLeft)
        ->setLabel(QString::fromStdString(model::withUnit(tr("residual").toStdString(), unit)));
}

void TimeSeriesPlot::setRaw(const std::vector<double>& times, const std::vector<double>& values)
{
    setGraphData(raw_, toQVector(times), toQVector(values));
    updateStyle();
    dataChanged();
}

void TimeSeriesPlot::setModelAtCurrentValues(bool current)
{
    if (current == modelAtCurrentValues_)
        return;
    modelAtCurrentValues_ = current;
    updateStyle();
    requestReplot();
}

void TimeSeriesPlot::setModelOutOfDate(bool outOfDate)
{
    if (outOfDate == modelOutOfDate_)
        return;
    modelOutOfDate_ = outOfDate;
    updateStyle();
    requestReplot();
}

void TimeSeriesPlot::setAxisLabels(const QString& x, const QString& y)
{
    PlotWidget::setAxisLabels(x, y);
    customPlot()->xAxis->setLabel(QString());
    residualRect_->axis(QCPAxis::atBottom)->setLabel(x);
}

void TimeSeriesPlot::setMeasured(const std::vector<double>& times, const std::vector<double>& values,
                                 const QString& name)
{
    setMeasured(toQVector(times), toQVector(values), name);
}

void TimeSeriesPlot::setMeasured(const QVector<double>& times, const QVector<double>& values, const QString& name)
{
    outputName_ = name;
    updateValueLabels();
    setGraphData(measured_, times, values);
    updateStyle();
    updateResiduals();
    dataChanged();
}

void TimeSeriesPlot::setModel(const std::vector<double>& times, const std::vector<double>& values)
{
    setModel(toQVector(times), toQVector(values));
}

void TimeSeriesPlot::setModel(const QVector<double>& times, const QVector<double>& values)
{
    setGraphData(model_, times, values);
    updateResiduals();
    dataChanged();
}

void TimeSeriesPlot::setResiduals(const std::vector<double>& times, const std::vector<double>& values)
{
    setGraphData(residual_, toQVector(times), toQVector(values));
    dataChanged();
}

void TimeSeriesPlot::clearModel()
{
    model_->data()->clear();
    residual_->data()->clear();
    dataChanged();
}

void TimeSeriesPlot::clear()
{
    raw_->data()->clear();
    measured_->data()->clear();
    modelOutOfDate_ = false;
    updateStyle();
    clearModel();
}

int TimeSeriesPlot::measuredCount() const
{
    return measured_->dataCount();
}
int TimeSeriesPlot::modelCount() const
{
    return model_->dataCount();
}
int TimeSeriesPlot::residualCount() const
{
    return residual_->dataCount();
}
int TimeSeriesPlot::rawCount() const
{
    return raw_->dataCount();
}

std::vector<double> TimeSeriesPlot::residualValues() const
{
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(residual_->dataCount()));
    for (auto it = residual_->data()->constBegin(); it != residual_->data()->constEnd(); ++it)
        values.push_back(it->value);
    return values;
}

std::vector<double> TimeSeriesPlot::modelTimes() const
{
    std::vector<double> times;
    for (auto it = model_->data()->constBegin(); it != model_->data()->constEnd(); ++it)
        times.push_back(it->key);
    return times;
}

std::vector<double> TimeSeriesPlot::modelValues() const
{
    std::vector<double> values;
    for (auto it = model_->data()->constBegin(); it != model_->data()->constEnd(); ++it)
        values.push_back(it->value);
    return values;
}

void TimeSeriesPlot::updateResiduals()
{
    // Pairs each measured sample with the model sample at the same time (both sorted by time);
    // samples the model trace does not have get no residual. No interpolation: that is numerics.
    QVector<double> keys;
    QVector<double> values;
    const QSharedPointer<QCPGraphDataContainer> m = measured_->data();
    const QSharedPointer<QCPGraphDataContainer> y = model_->data();
    keys.reserve(m->size());
    values.reserve(m->size());
    auto mi = m->constBegin();
    auto yi = y->constBegin();
    while (mi != m->constEnd() && yi != y->constEnd()) {
        const double tolerance = 1e-9 * std::max({1.0, std::abs(mi->key), std::abs(yi->key)});
        if (std::abs(mi->key - yi->key) <= tolerance) {
            keys.push_back(mi->key);
            values.push_back(mi->value - yi->value);
            ++mi;
            ++yi;
        } else if (mi->key < yi->key) {
            ++mi;
        } else {
            ++yi;
        }
    }
    residual_->setData(keys, values, true);
}

void TimeSeriesPlot::rescaleToData()
{
    QCustomPlot* plot = customPlot();
    PlotWidget::rescaleToData();
    // The time axes are linked: show the union of what both parts need.
    QCPAxis* timeTop = plot->axisRect()->axis(QCPAxis::atBottom);
    bool found = false;
    QCPRange range;
    for (QCPGraph* g : {raw_, measured_, model_, residual_}) {
        bool ok = false;
        const QCPRange r = g->getKeyRange(ok);
        if (ok) {
            range = found ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper)) : r;
            found = true;
        }
    }
    if (found) {
        timeTop->setRange(range);  // tight in time; the linked axis below follows
    }
}

}  // namespace sysid::ui
