#pragma once

#include "engine/job/CostSurface.h"
#include "ui/plots/PlotWidget.h"

#include <QColor>

#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPCurve;

namespace sysid::ui {

// The cost over two parameters as a smoothly shaded colour map in viridis (perceptually uniform,
// readable in grey and by the colour-blind; van der Walt & Smith 2015) with iso-cost lines on
// top, on a logarithmic colour scale when every cost is positive, and a fit's iteration path
// drawn over it as a line with markers. Points where the cost is not finite are transparent.
class ContourPlot : public PlotWidget {
    Q_OBJECT

public:
    explicit ContourPlot(QWidget* parent = nullptr);

    void setSurface(const job::CostSurfaceResult& surface);
    void setPath(const std::vector<job::PathPoint>& path);
    void clear();

    bool hasSurface() const { return hasSurface_; }
    // The colour map's value at grid cell (ix, iy); NaN outside the grid.
    double cellValue(int ix, int iy) const;
    int pathPointCount() const;
    bool isLogarithmic() const;
    // Iso-cost lines drawn (levels) and the points of their pieces.
    int levelCount() const { return levels_; }
    int contourPointCount() const;
    // The colour of the map at a position 0..1 along its scale.
    QColor colourAt(double position) const;
    bool isInterpolated() const;

protected:
    void rescaleToData() override;

private:
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPCurve* contours_ = nullptr;
    QCPCurve* path_ = nullptr;
    bool hasSurface_ = false;
    int levels_ = 0;
};

}  // namespace sysid::ui
