#pragma once

#include "ui/plots/PlotWidget.h"

class QCPGraph;

namespace sysid::ui {

// The cost of a fit per iteration on a logarithmic axis. Costs that are not positive and finite
// cannot be drawn on it and leave a gap.
class CostPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit CostPlot(QWidget* parent = nullptr);

    void addIteration(int iteration, double cost);
    void clear();

    int iterationCount() const;
    bool isLogarithmic() const;

private:
    QCPGraph* graph_ = nullptr;
};

}  // namespace sysid::ui
