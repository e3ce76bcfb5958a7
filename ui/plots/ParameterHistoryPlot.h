#pragma once

#include "ui/plots/PlotWidget.h"

#include <QStringList>
#include <QVector>

#include <vector>

namespace sysid::ui {

// One curve per parameter over the iterations of a fit, either absolute or normalised to the
// parameter's value at the first iteration (value / initial value, so all curves start at 1).
// A parameter whose initial value is 0 is drawn absolute in the normalised view.
class ParameterHistoryPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit ParameterHistoryPlot(QWidget* parent = nullptr);

    // Starts a new history with one curve per name.
    void setParameterNames(const QStringList& names);
    QStringList parameterNames() const { return names_; }

    // Values in the order of parameterNames(); extra values are ignored, missing ones leave a gap.
    // Without names, curves are named p1, p2, … on the first call.
    void addIteration(int iteration, const std::vector<double>& values);

    void setNormalized(bool normalized);
    bool isNormalized() const { return normalized_; }

    // Forgets the history and the initial values; keeps the names.
    void clear();

    int iterationCount() const { return static_cast<int>(iterations_.size()); }
    // The values drawn for one parameter, in iteration order (normalised when isNormalized()).
    QVector<double> shownValues(int parameter) const;

private:
    double shown(std::size_t parameter, double value) const;
    void rebuild();

    QStringList names_;
    std::vector<int> iterations_;
    std::vector<std::vector<double>> history_;  // per iteration, per parameter (NaN = missing)
    bool normalized_ = false;
};

}  // namespace sysid::ui
