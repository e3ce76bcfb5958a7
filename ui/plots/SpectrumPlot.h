#pragma once

#include "ui/plots/CurvePlot.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

class QCPItemStraightLine;

namespace sysid::ui {

// Magnitude spectra against frequency on a logarithmic magnitude axis: several named curves
// (e.g. "raw", "processed", "model") and an optional vertical marker at a filter's cutoff, kept
// in view when the data stop just below it. Magnitudes that are not positive cannot be drawn
// on a log axis and leave a gap.
class SpectrumPlot : public CurvePlot {
    Q_OBJECT
public:
    explicit SpectrumPlot(QWidget* parent = nullptr);

    // Shows the cutoff marker at hz; a value that is not positive and finite hides it.
    void setCutoff(double hz);
    void clearCutoff();
    bool hasCutoff() const;
    double cutoff() const;  // NaN without a marker
    // Logarithmic frequency axis (default: linear).
    void setLogFrequency(bool logarithmic);
    bool isLogFrequency() const;
    // Removes all curves and the marker.
    void clear() override;

protected:
    double drawable(double magnitude) const override;
    void rescaleToData() override;

private:
    QCPItemStraightLine* cutoffLine_ = nullptr;
    double cutoff_;
};

}  // namespace sysid::ui
