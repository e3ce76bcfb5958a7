#pragma once

#include "engine/job/CostSurface.h"
#include "ui/plots/PlotWidget.h"

#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPCurve;

namespace sysid::ui {

// The cost over two parameters as colour bands (a colour map with a stepped gradient, so equal
// colours are the regions between iso-cost levels, as in seed 003's Figures 4.3-4.6), on a
// logarithmic colour scale when every cost is positive, with a fit's iteration path drawn on
// top as a line with markers. Points where the cost is not finite are transparent.
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
    int levelCount() const;

protected:
    void rescaleToData() override;

private:
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPCurve* path_ = nullptr;
    bool hasSurface_ = false;
};

}  // namespace sysid::ui
