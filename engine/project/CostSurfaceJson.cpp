#include "engine/project/CostSurfaceJson.h"

#include "engine/data/Text.h"
#include "engine/project/JsonNumbers.h"

#include <cmath>

namespace sysid::project {

namespace {

using nlohmann::json;

json axisToJson(const job::SurfaceAxis& axis, const std::vector<double>& values)
{
    return {{"parameter", axis.parameter},
            {"from", axis.from},
            {"to", axis.to},
            {"points", axis.points},
            {"values", values}};
}

// Round-trip precision, so a redrawn figure matches the computed one.
std::string seventeenDigits(double v)
{
    return std::isfinite(v) ? data::formatNumber(v, 17) : std::string();
}

}  // namespace

json costSurfaceToJson(const job::CostSurfaceResult& surface, const std::vector<job::PathPoint>& path)
{
    json out;
    out["x"] = axisToJson(surface.x, surface.xValues);
    out["y"] = axisToJson(surface.y, surface.yValues);
    json rows = json::array();
    std::size_t bestX = 0, bestY = 0;
    double best = NAN;
    for (std::size_t iy = 0; iy < surface.yValues.size(); ++iy) {
        json row = json::array();
        for (std::size_t ix = 0; ix < surface.xValues.size(); ++ix) {
            const double c = surface.at(ix, iy);
            row.push_back(finiteOrNull(c));
            if (std::isfinite(c) && !(c >= best)) {
                best = c;
                bestX = ix;
                bestY = iy;
            }
        }
        rows.push_back(std::move(row));
    }
    out["cost"] = std::move(rows);
    out["minimum"] = std::isfinite(best)
        ? json{{"cost", best}, {"x", surface.xValues[bestX]}, {"y", surface.yValues[bestY]}}
        : json(nullptr);
    out["failed_points"] = surface.failedPoints;
    out["first_failure"] = surface.firstFailure;
    out["cancelled"] = surface.cancelled;
    out["ranks"] = surface.ranks;
    out["row_ranks"] = surface.rowRanks;
    json points = json::array();
    for (const auto& p : path)
        points.push_back({{"iteration", p.iteration}, {"x", p.x}, {"y", p.y}, {"cost", finiteOrNull(p.cost)}});
    out["path"] = std::move(points);
    return out;
}

std::string costSurfaceCsv(const job::CostSurfaceResult& surface)
{
    std::string text = surface.x.parameter + "," + surface.y.parameter + ",cost\n";
    for (std::size_t iy = 0; iy < surface.yValues.size(); ++iy)
        for (std::size_t ix = 0; ix < surface.xValues.size(); ++ix)
            text += seventeenDigits(surface.xValues[ix]) + "," + seventeenDigits(surface.yValues[iy]) + "," +
                seventeenDigits(surface.at(ix, iy)) + "\n";
    return text;
}

std::string iterationPathCsv(const job::CostSurfaceResult& surface, const std::vector<job::PathPoint>& path)
{
    std::string text = "iteration," + surface.x.parameter + "," + surface.y.parameter + ",cost\n";
    for (const auto& p : path)
        text += std::to_string(p.iteration) + "," + seventeenDigits(p.x) + "," + seventeenDigits(p.y) + "," +
            seventeenDigits(p.cost) + "\n";
    return text;
}

}  // namespace sysid::project
