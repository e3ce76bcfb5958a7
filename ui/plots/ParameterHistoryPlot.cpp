#include "ui/plots/ParameterHistoryPlot.h"

#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

ParameterHistoryPlot::ParameterHistoryPlot(QWidget* parent) : PlotWidget(parent)
{
    setAxisLabels(tr("iteration"), tr("value"));
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    customPlot()->xAxis->setTicker(ticker);
}

void ParameterHistoryPlot::setParameterNames(const QStringList& names)
{
    names_ = names;
    iterations_.clear();
    history_.clear();
    QCustomPlot* plot = customPlot();
    plot->clearGraphs();
    for (int i = 0; i < names_.size(); ++i) {
        QCPGraph* graph = plot->addGraph();
        graph->setName(names_[i]);
        QPen pen(seriesColor(i));
        pen.setWidthF(1.5);
        graph->setPen(pen);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4.0));
    }
    dataChanged();
}

void ParameterHistoryPlot::addIteration(int iteration, const std::vector<double>& values)
{
    if (names_.isEmpty() && !values.empty()) {
        QStringList names;
        for (std::size_t i = 0; i < values.size(); ++i) {
            names << QStringLiteral("p%1").arg(i + 1);
        }
        setParameterNames(names);
    }
    std::vector<double> row(static_cast<std::size_t>(names_.size()), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < row.size() && i < values.size(); ++i) {
        row[i] = values[i];
    }
    iterations_.push_back(iteration);
    history_.push_back(row);
    QCustomPlot* plot = customPlot();
    for (std::size_t i = 0; i < row.size(); ++i) {
        plot->graph(static_cast<int>(i))->addData(iteration, shown(i, row[i]));
    }
    dataChanged();
}

void ParameterHistoryPlot::setNormalized(bool normalized)
{
    if (normalized == normalized_) {
        return;
    }
    normalized_ = normalized;
    setAxisLabels(xAxisLabel(), normalized_ ? tr("value / initial value") : tr("value"));
    rebuild();
    resetView();
}

void ParameterHistoryPlot::clear()
{
    iterations_.clear();
    history_.clear();
    rebuild();
}

QVector<double> ParameterHistoryPlot::shownValues(int parameter) const
{
    QVector<double> out;
    if (parameter < 0 || parameter >= names_.size()) {
        return out;
    }
    out.reserve(static_cast<qsizetype>(history_.size()));
    for (const auto& row : history_) {
        out.push_back(shown(static_cast<std::size_t>(parameter), row[static_cast<std::size_t>(parameter)]));
    }
    return out;
}

double ParameterHistoryPlot::shown(std::size_t parameter, double value) const
{
    if (!normalized_ || history_.empty()) {
        return value;
    }
    const double initial = history_.front()[parameter];
    if (initial == 0.0 || !std::isfinite(initial)) {
        return value;
    }
    return value / initial;
}

void ParameterHistoryPlot::rebuild()
{
    QCustomPlot* plot = customPlot();
    for (int p = 0; p < names_.size() && p < plot->graphCount(); ++p) {
        QVector<double> keys;
        keys.reserve(static_cast<qsizetype>(iterations_.size()));
        for (int it : iterations_) {
            keys.push_back(it);
        }
        plot->graph(p)->setData(keys, shownValues(p));
    }
    dataChanged();
}

}  // namespace sysid::ui
