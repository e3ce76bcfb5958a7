#pragma once

#include "ui/plots/PlotWidget.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

class QCPGraph;

namespace sysid::ui {

// Named line curves over one horizontal axis: signals over time (the import preview, the
// filter panel's raw and processed signal), spectra over frequency (SpectrumPlot).
class CurvePlot : public PlotWidget {
    Q_OBJECT
public:
    explicit CurvePlot(QWidget* parent = nullptr);

    // Adds the curve called name, or replaces its data if it exists. Extra values of the longer
    // vector are ignored.
    void setCurve(const QString& name, const std::vector<double>& x, const std::vector<double>& y);
    void setCurve(const QString& name, const QVector<double>& x, const QVector<double>& y);
    void removeCurve(const QString& name);
    QStringList curveNames() const;
    int curvePointCount(const QString& name) const;  // -1 when there is no such curve
    // y of the curve's point nearest to x (NaN without such a curve or points).
    double valueNear(const QString& name, double x) const;
    // Removes all curves.
    virtual void clear();

protected:
    // What is drawn for y: SpectrumPlot turns values its log axis cannot show into gaps.
    virtual double drawable(double y) const { return y; }

private:
    QCPGraph* findCurve(const QString& name) const;
};

}  // namespace sysid::ui
