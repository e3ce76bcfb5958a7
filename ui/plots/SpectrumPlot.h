#pragma once

#include "ui/plots/PlotWidget.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

class QCPGraph;
class QCPItemStraightLine;

namespace sysid::ui {

// Magnitude spectra against frequency on a logarithmic magnitude axis: several named curves
// (e.g. "raw", "processed", "model") and an optional vertical marker at a filter's cutoff.
// Magnitudes that are not positive cannot be drawn on a log axis and leave a gap.
class SpectrumPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit SpectrumPlot(QWidget* parent = nullptr);

    // Adds the curve called name, or replaces its data if it exists.
    void setCurve(const QString& name, const std::vector<double>& frequencies, const std::vector<double>& magnitudes);
    void setCurve(const QString& name, const QVector<double>& frequencies, const QVector<double>& magnitudes);
    void removeCurve(const QString& name);
    QStringList curveNames() const;
    int curvePointCount(const QString& name) const;  // -1 when there is no such curve

    // Shows the cutoff marker at hz; a value that is not positive and finite hides it.
    void setCutoff(double hz);
    void clearCutoff();
    bool hasCutoff() const;
    double cutoff() const;  // NaN without a marker

    // Logarithmic frequency axis (default: linear).
    void setLogFrequency(bool logarithmic);
    bool isLogFrequency() const;

    // Removes all curves and the marker.
    void clear();

private:
    QCPGraph* findCurve(const QString& name) const;

    QCPItemStraightLine* cutoffLine_ = nullptr;
    double cutoff_;
};

}  // namespace sysid::ui
