#include "engine/job/CostContours.h"

#include <array>
#include <cmath>
#include <limits>

namespace sysid::job {

namespace {

constexpr double kGap = std::numeric_limits<double>::quiet_NaN();

struct Corner {
    double x, y, value;
};

// Where the level crosses the edge a-b (linear interpolation of the values along it).
void crossing(const Corner& a, const Corner& b, double level, double& x, double& y)
{
    const double f = (level - a.value) / (b.value - a.value);
    x = a.x + f * (b.x - a.x);
    y = a.y + f * (b.y - a.y);
}

void addPiece(IsoCostLine& line, const Corner& a1, const Corner& b1, const Corner& a2, const Corner& b2)
{
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    crossing(a1, b1, line.level, x1, y1);
    crossing(a2, b2, line.level, x2, y2);
    line.x.insert(line.x.end(), {x1, x2, kGap});
    line.y.insert(line.y.end(), {y1, y2, kGap});
}

// Marching squares (Lorensen & Cline 1987, in two dimensions) on one cell, corners counter-clockwise
// from (ix, iy); a saddle is split by the value at the cell's centre (the mean of its corners).
void traceCell(IsoCostLine& line, const std::array<Corner, 4>& c)
{
    int index = 0;
    for (int k = 0; k < 4; ++k)
        if (c[static_cast<std::size_t>(k)].value >= line.level)
            index |= 1 << k;
    if (index == 0 || index == 15)
        return;
    // Edges: 0 = c0-c1 (bottom), 1 = c1-c2 (right), 2 = c2-c3 (top), 3 = c3-c0 (left).
    const auto edge = [&](int e) -> std::pair<const Corner&, const Corner&> {
        return {c[static_cast<std::size_t>(e)], c[static_cast<std::size_t>((e + 1) % 4)]};
    };
    const auto piece = [&](int e1, int e2) {
        const auto [a1, b1] = edge(e1);
        const auto [a2, b2] = edge(e2);
        addPiece(line, a1, b1, a2, b2);
    };
    const bool centreAbove = (c[0].value + c[1].value + c[2].value + c[3].value) / 4.0 >= line.level;
    switch (index) {
    case 1:
    case 14: piece(3, 0); break;
    case 2:
    case 13: piece(0, 1); break;
    case 3:
    case 12: piece(3, 1); break;
    case 4:
    case 11: piece(1, 2); break;
    case 6:
    case 9: piece(0, 2); break;
    case 7:
    case 8: piece(2, 3); break;
    case 5:  // c0 and c2 above
        if (centreAbove) {
            piece(0, 1);
            piece(2, 3);
        } else {
            piece(3, 0);
            piece(1, 2);
        }
        break;
    case 10:  // c1 and c3 above
        if (centreAbove) {
            piece(3, 0);
            piece(1, 2);
        } else {
            piece(0, 1);
            piece(2, 3);
        }
        break;
    default: break;
    }
}

}  // namespace

bool logarithmicCostScale(const CostSurfaceResult& surface)
{
    bool any = false;
    for (double c : surface.cost)
        if (std::isfinite(c)) {
            if (c <= 0)
                return false;
            any = true;
        }
    return any;
}

std::vector<IsoCostLine> isoCostLines(const CostSurfaceResult& surface, std::size_t count)
{
    const std::size_t nx = surface.xValues.size(), ny = surface.yValues.size();
    if (nx < 2 || ny < 2 || surface.cost.size() != nx * ny || count == 0)
        return {};
    const bool logarithmic = logarithmicCostScale(surface);
    const auto scaled = [&](double c) { return std::isfinite(c) ? (logarithmic ? std::log(c) : c) : kGap; };
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (double c : surface.cost)
        if (std::isfinite(c)) {
            low = std::min(low, scaled(c));
            high = std::max(high, scaled(c));
        }
    if (!(high > low))
        return {};

    std::vector<IsoCostLine> lines;
    for (std::size_t k = 1; k <= count; ++k) {
        IsoCostLine line;
        line.level = low + (high - low) * static_cast<double>(k) / static_cast<double>(count + 1);
        for (std::size_t iy = 0; iy + 1 < ny; ++iy)
            for (std::size_t ix = 0; ix + 1 < nx; ++ix) {
                const std::array<Corner, 4> cell{
                    Corner{surface.xValues[ix], surface.yValues[iy], scaled(surface.at(ix, iy))},
                    Corner{surface.xValues[ix + 1], surface.yValues[iy], scaled(surface.at(ix + 1, iy))},
                    Corner{surface.xValues[ix + 1], surface.yValues[iy + 1], scaled(surface.at(ix + 1, iy + 1))},
                    Corner{surface.xValues[ix], surface.yValues[iy + 1], scaled(surface.at(ix, iy + 1))}};
                if (std::isfinite(cell[0].value) && std::isfinite(cell[1].value) && std::isfinite(cell[2].value) &&
                    std::isfinite(cell[3].value))
                    traceCell(line, cell);
            }
        if (logarithmic)
            line.level = std::exp(line.level);
        lines.push_back(std::move(line));
    }
    return lines;
}

}  // namespace sysid::job
