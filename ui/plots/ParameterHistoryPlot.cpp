#include "ui/plots/ParameterHistoryPlot.h"

#include <QAction>
#include <QActionGroup>

#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

namespace {

QString axisLabel(ParameterHistoryPlot::Scaling scaling)
{
    switch (scaling) {
    case ParameterHistoryPlot::Scaling::RelativeToLatest: return ParameterHistoryPlot::tr("value / latest value");
    case ParameterHistoryPlot::Scaling::RelativeToStart: return ParameterHistoryPlot::tr("value / starting value");
    case ParameterHistoryPlot::Scaling::Absolute: break;
    }
    return ParameterHistoryPlot::tr("value");
}

}  // namespace

ParameterHistoryPlot::ParameterHistoryPlot(QWidget* parent) : PlotWidget(parent)
{
    setAxisLabels(tr("iteration"), axisLabel(scaling_));
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    customPlot()->xAxis->setTicker(ticker);

    scalingGroup_ = new QActionGroup(this);
    const std::pair<Scaling, QString> choices[] = {{Scaling::RelativeToLatest, tr("Relative to the latest values")},
                                                   {Scaling::RelativeToStart, tr("Relative to the starting values")},
                                                   {Scaling::Absolute, tr("Absolute values")}};
    for (const auto& [scaling, text] : choices) {
        auto* action = new QAction(text, scalingGroup_);
        action->setCheckable(true);
        action->setChecked(scaling == scaling_);
        connect(action, &QAction::triggered, this, [this, s = scaling] { setScaling(s); });
        addContextAction(action);
    }
}

QList<QAction*> ParameterHistoryPlot::scalingActions() const
{
    return scalingGroup_->actions();
}

void ParameterHistoryPlot::setParameterNames(const QStringList& names)
{
    names_ = names;
    units_.clear();
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
    if (scaling_ == Scaling::RelativeToLatest) {
        rebuild();  // the reference moved
        return;
    }
    QCustomPlot* plot = customPlot();
    for (std::size_t i = 0; i < row.size(); ++i) {
        const double d = divisor(static_cast<int>(i));
        plot->graph(static_cast<int>(i))->addData(iteration, row[i] / d);
    }
    dataChanged();
}

void ParameterHistoryPlot::setScaling(Scaling scaling)
{
    const auto actions = scalingGroup_->actions();
    actions.at(static_cast<int>(scaling))->setChecked(true);
    if (scaling == scaling_) {
        return;
    }
    scaling_ = scaling;
    setAxisLabels(xAxisLabel(), axisLabel(scaling_));
    rebuild();
    resetView();
}

void ParameterHistoryPlot::clear()
{
    iterations_.clear();
    history_.clear();
    rebuild();
}

double ParameterHistoryPlot::divisor(int parameter) const
{
    if (scaling_ == Scaling::Absolute || history_.empty() || parameter < 0 || parameter >= names_.size()) {
        return 1.0;
    }
    const auto p = static_cast<std::size_t>(parameter);
    double reference = std::numeric_limits<double>::quiet_NaN();
    if (scaling_ == Scaling::RelativeToStart) {
        reference = history_.front()[p];
    } else {
        for (auto row = history_.rbegin(); row != history_.rend() && !std::isfinite(reference); ++row) {
            reference = (*row)[p];  // the latest value there is
        }
    }
    return reference != 0.0 && std::isfinite(reference) ? reference : 1.0;
}

QVector<double> ParameterHistoryPlot::shownValues(int parameter) const
{
    QVector<double> out;
    if (parameter < 0 || parameter >= names_.size()) {
        return out;
    }
    const double d = divisor(parameter);
    out.reserve(static_cast<qsizetype>(history_.size()));
    for (const auto& row : history_) {
        out.push_back(row[static_cast<std::size_t>(parameter)] / d);
    }
    return out;
}

void ParameterHistoryPlot::rebuild()
{
    QCustomPlot* plot = customPlot();
    QVector<double> keys;
    keys.reserve(static_cast<qsizetype>(iterations_.size()));
    for (int it : iterations_) {
        keys.push_back(it);
    }
    for (int p = 0; p < names_.size() && p < plot->graphCount(); ++p) {
        plot->graph(p)->setData(keys, shownValues(p));
        plot->graph(p)->setName(legendName(p));
    }
    dataChanged();
}

void ParameterHistoryPlot::setParameterUnits(const QStringList& units)
{
    units_ = units;
    rebuild();
}

QString ParameterHistoryPlot::legendName(int parameter) const
{
    const QString name = names_.value(parameter);
    const QString unit = units_.value(parameter);
    const double d = divisor(parameter);
    // The legend says what a curve was divided by, so its values can be read back.
    if (scaling_ == Scaling::Absolute || d == 1.0)
        return unit.isEmpty() ? name : QStringLiteral("%1 [%2]").arg(name, unit);
    const QString by = QString::number(d, 'g', 4);
    return unit.isEmpty() ? QStringLiteral("%1 ÷ %2").arg(name, by) : QStringLiteral("%1 ÷ %2 %3").arg(name, by, unit);
}

}  // namespace sysid::ui
