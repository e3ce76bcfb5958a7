#pragma once

#include "ui/plots/PlotWidget.h"

#include <vector>

class QCPGraph;

namespace sysid::ui {

// The waterfall of a multistart: the final cost of every start, sorted from the lowest, against
// its rank; starts that end at the same minimum form a step. The starts of one minimum can be
// marked. The cost axis is logarithmic when every cost is positive.
class WaterfallPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit WaterfallPlot(QWidget* parent = nullptr);

    // The final costs in any order (NaN: the start failed and is left out).
    void setCosts(const std::vector<double>& costs);
    // Marks the sorted starts whose cost is in `costs` (empty: none).
    void setMarked(const std::vector<double>& costs);
    void clear();

    int pointCount() const;
    int markedCount() const;
    bool isLogarithmic() const;

protected:
    // A wider margin than the default on the cost axis, so the markers at its ends are whole.
    void rescaleToData() override;

private:
    QCPGraph* graph_ = nullptr;
    QCPGraph* marked_ = nullptr;
    std::vector<double> sorted_;
};

}  // namespace sysid::ui
