#pragma once

#include "ui/plots/PlotWidget.h"

#include <QString>

#include <vector>

class QCPCurve;

namespace sysid::ui {

// A branch of periodic solutions against a parameter (a frequency-response curve): amplitude
// along the branch in branch order (so it may turn back at folds), stable parts solid, unstable
// parts dashed, folds and period doublings marked.
class BranchPlot : public PlotWidget {
    Q_OBJECT
public:
    enum class PointType { Regular, Fold, PeriodDoubling };
    struct Point {
        double parameter = 0.0;
        double amplitude = 0.0;
        bool stable = true;
        PointType type = PointType::Regular;
    };

    explicit BranchPlot(QWidget* parent = nullptr);
    void setBranch(const std::vector<Point>& points, const QString& parameterName, const QString& amplitudeName);
    void clear();
    // Points drawn on the stable and unstable curves (a point where stability changes is on both),
    // and markers drawn.
    int stableCount() const;
    int unstableCount() const;
    int markerCount() const;

private:
    QCPCurve* stable_ = nullptr;
    QCPCurve* unstable_ = nullptr;
    QCPCurve* folds_ = nullptr;
    QCPCurve* doublings_ = nullptr;
};

}  // namespace sysid::ui
