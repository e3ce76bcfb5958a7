#pragma once

#include "engine/job/CostSurface.h"

#include <cstddef>
#include <vector>

namespace sysid::job {

// One iso-cost line of a cost surface: straight pieces in parameter coordinates, each two
// points (x[2i], y[2i]) - (x[2i+1], y[2i+1]) followed by a NaN point, so a plot draws them as
// one curve with gaps.
struct IsoCostLine {
    double level = 0.0;
    std::vector<double> x, y;
};

// True when every finite cost is positive: the levels (and a colour scale) are then spaced in
// log(cost), where a valley spanning decades shows.
bool logarithmicCostScale(const CostSurfaceResult& surface);

// `count` iso-cost lines at levels spaced evenly between the smallest and largest finite cost
// (in log(cost) when logarithmicCostScale), the ends excluded. Cells with a NaN corner are
// left out. Empty when the surface has fewer than two distinct finite costs.
std::vector<IsoCostLine> isoCostLines(const CostSurfaceResult& surface, std::size_t count);

}  // namespace sysid::job
