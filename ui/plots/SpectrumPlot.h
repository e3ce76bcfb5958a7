#pragma once

#include "ui/plots/CurvePlot.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

class QAction;
class QCPCurve;
class QCPItemStraightLine;

namespace sysid::ui {

// Magnitude spectra against frequency on a logarithmic magnitude axis: several named curves
// (e.g. "raw", "processed", "model"), an optional vertical marker at a filter's cutoff, kept
// in view when the data stop just below it, and optionally the filter's gain |H(f)|^2 on a
// linear axis from 0 to 1 at the right, over the spectra. Magnitudes that are not positive
// cannot be drawn on a log axis and leave a gap.
class SpectrumPlot : public CurvePlot {
    Q_OBJECT
public:
    explicit SpectrumPlot(QWidget* parent = nullptr);

    // Shows the cutoff marker at hz; a value that is not positive and finite hides it.
    void setCutoff(double hz);
    void clearCutoff();
    bool hasCutoff() const;
    double cutoff() const;  // NaN without a marker
    // Shows the filter's gain (0..1) at the given frequencies on the right axis; empty vectors hide it.
    void setFilterGain(const std::vector<double>& frequencyHz, const std::vector<double>& gain);
    void clearFilterGain();
    bool hasFilterGain() const;
    // The gain at the point nearest to hz (NaN without a gain curve).
    double filterGainNear(double hz) const;
    static QString filterGainName();
    // Logarithmic frequency axis (default: linear; also in the context menu).
    void setLogFrequency(bool logarithmic);
    bool isLogFrequency() const;
    // Removes all curves, the gain and the marker.
    void clear() override;

protected:
    double drawable(double magnitude) const override;
    void rescaleToData() override;

private:
    QCPItemStraightLine* cutoffLine_ = nullptr;
    QCPCurve* gain_ = nullptr;
    QAction* logFrequency_ = nullptr;  // a curve, not a graph: it is not one of CurvePlot's named curves
    double cutoff_;
};

}  // namespace sysid::ui
