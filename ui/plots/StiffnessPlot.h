#pragma once

#include "ui/plots/CurvePlot.h"

class QCPItemStraightLine;

namespace sysid::ui {

// kappa(t) = min Re(lambda) of a boundary value problem's local Jacobian (Rutten 1993, §5.3):
// named curves over time, with zero always in view (kappa is a rate: how far below zero it goes
// is what matters) and a dashed line at the limit -2/dt of the run's shooting interval dt.
class StiffnessPlot : public CurvePlot {
    Q_OBJECT
public:
    explicit StiffnessPlot(QWidget* parent = nullptr);

    // Shows the limit kappa = -2/dt; a value that is not negative and finite hides it.
    void setLimit(double kappa);
    double limit() const;  // NaN without a line
    void clear() override;  // the curves and the line

protected:
    void rescaleToData() override;

private:
    QCPItemStraightLine* limitLine_ = nullptr;
    double limit_;
};

}  // namespace sysid::ui
