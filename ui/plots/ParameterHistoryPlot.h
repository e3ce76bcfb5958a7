#pragma once

#include "ui/plots/PlotWidget.h"

#include <QStringList>
#include <QVector>

#include <vector>

class QActionGroup;

namespace sysid::ui {

// One curve per parameter over the iterations of a fit. Parameters of very different size share
// the axis readably because each is divided by a reference value of its own: by default its
// latest value (the estimate, once the fit has finished: every curve ends at 1, and how far a
// curve is from 1 is how far that iterate was from the estimate, relatively); or its starting
// value; or none (absolute values). The legend gives each curve's divisor. A parameter whose
// reference is 0 (or not finite) is drawn absolute. The context menu switches the scaling.
class ParameterHistoryPlot : public PlotWidget {
    Q_OBJECT

public:
    enum class Scaling { RelativeToLatest, RelativeToStart, Absolute };

    explicit ParameterHistoryPlot(QWidget* parent = nullptr);

    // Starts a new history with one curve per name.
    void setParameterNames(const QStringList& names);
    QStringList parameterNames() const { return names_; }
    // The units of the parameters in the order of parameterNames() (empty strings: none), shown in
    // the legend: "M [kg]", or with the divisor "M ÷ 80 kg".
    void setParameterUnits(const QStringList& units);
    // What the legend says for a parameter.
    QString legendName(int parameter) const;

    // Values in the order of parameterNames(); extra values are ignored, missing ones leave a gap.
    // Without names, curves are named p1, p2, … on the first call.
    void addIteration(int iteration, const std::vector<double>& values);

    void setScaling(Scaling scaling);
    Scaling scaling() const { return scaling_; }
    // The context menu's choices, in the order of Scaling.
    QList<QAction*> scalingActions() const;

    // Forgets the history and the reference values; keeps the names.
    void clear();

    int iterationCount() const { return static_cast<int>(iterations_.size()); }
    // The values drawn for one parameter, in iteration order (scaled as scaling() says).
    QVector<double> shownValues(int parameter) const;
    // What parameter's values are divided by (1 when drawn absolute).
    double divisor(int parameter) const;

private:
    void rebuild();

    QStringList names_;
    QStringList units_;
    std::vector<int> iterations_;
    std::vector<std::vector<double>> history_;  // per iteration, per parameter (NaN = missing)
    Scaling scaling_ = Scaling::RelativeToLatest;
    QActionGroup* scalingGroup_ = nullptr;
};

}  // namespace sysid::ui
