#pragma once

#include "engine/job/CostSurface.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sysid::project {

// A cost surface as written by `sysid contour -o FILE.json`:
//   {"x": {"parameter", "from", "to", "points", "values": [...]}, "y": {...},
//    "cost": [[cost at (x_0, y_0), (x_1, y_0), ...], ...one array per y value],
//    "minimum": {"cost", "x", "y"}, "failed_points", "first_failure", "cancelled",
//    "ranks": processes the rows were spread over, "row_ranks": [the process of each row (y value)],
//    "path": [{"iteration", "x", "y", "cost"}]}
// Costs that are not finite (a point that failed or was not reached) are null.
nlohmann::json costSurfaceToJson(const job::CostSurfaceResult& surface, const std::vector<job::PathPoint>& path = {});

// The grid as CSV: a header "X,Y,cost" with the parameter names, one line per point, x
// varying fastest; an empty cell for a cost that is not finite.
std::string costSurfaceCsv(const job::CostSurfaceResult& surface);

// The path as CSV: "iteration,X,Y,cost".
std::string iterationPathCsv(const job::CostSurfaceResult& surface, const std::vector<job::PathPoint>& path);

}  // namespace sysid::project
