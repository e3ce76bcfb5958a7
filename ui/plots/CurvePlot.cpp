#include "ui/plots/CurvePlot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace sysid::ui {

CurvePlot::CurvePlot(QWidget* parent) : PlotWidget(parent) {}

QCPGraph* CurvePlot::findCurve(const QString& name) const
{
    QCustomPlot* plot = customPlot();
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->name() == name)
            return plot->graph(i);
    return nullptr;
}

void CurvePlot::setCurve(const QString& name, const std::vector<double>& x, const std::vector<double>& y)
{
    setCurve(name, QVector<double>(x.begin(), x.end()), QVector<double>(y.begin(), y.end()));
}

void CurvePlot::setCurve(const QString& name, const QVector<double>& x, const QVector<double>& y)
{
    QCustomPlot* plot = customPlot();
    QCPGraph* graph = findCurve(name);
    if (graph == nullptr) {
        graph = plot->addGraph();
        graph->setName(name);
        QPen pen(seriesColor(plot->graphCount() - 1));
        pen.setWidthF(1.5);
        graph->setPen(pen);
    }
    const qsizetype n = std::min(x.size(), y.size());
    QVector<double> values(y.begin(), y.begin() + n);
    for (double& v : values)
        v = drawable(v);
    const QVector<double> keys(x.begin(), x.begin() + n);
    graph->setData(keys, values, std::is_sorted(keys.cbegin(), keys.cend()));
    dataChanged();
}

void CurvePlot::removeCurve(const QString& name)
{
    if (QCPGraph* graph = findCurve(name)) {
        customPlot()->removeGraph(graph);
        dataChanged();
    }
}

QStringList CurvePlot::curveNames() const
{
    QStringList names;
    for (int i = 0; i < customPlot()->graphCount(); ++i)
        names << customPlot()->graph(i)->name();
    return names;
}

int CurvePlot::curvePointCount(const QString& name) const
{
    const QCPGraph* graph = findCurve(name);
    return graph == nullptr ? -1 : graph->dataCount();
}

double CurvePlot::valueNear(const QString& name, double x) const
{
    const QCPGraph* graph = findCurve(name);
    double best = std::numeric_limits<double>::quiet_NaN();
    double distance = std::numeric_limits<double>::infinity();
    if (graph == nullptr)
        return best;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        if (std::abs(it->key - x) < distance) {
            distance = std::abs(it->key - x);
            best = it->value;
        }
    return best;
}

void CurvePlot::clear()
{
    customPlot()->clearGraphs();
    dataChanged();
}

}  // namespace sysid::ui
