// Iso-cost lines of a cost surface (engine/job/CostContours): on a paraboloid every traced point
// lies on its level's circle (to the grid's interpolation error), levels are spaced in log(cost)
// when every cost is positive, cells with a NaN corner are skipped, and a flat surface has none.

#include "engine/job/CostContours.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace sysid;

namespace {

// cost = offset + x^2 + y^2 on [-1, 1]^2 with n points per axis.
job::CostSurfaceResult paraboloid(std::size_t n, double offset)
{
    job::CostSurfaceResult s;
    s.x = {"a", -1.0, 1.0, n};
    s.y = {"b", -1.0, 1.0, n};
    for (std::size_t i = 0; i < n; ++i) {
        s.xValues.push_back(s.x.value(i));
        s.yValues.push_back(s.y.value(i));
    }
    for (std::size_t iy = 0; iy < n; ++iy)
        for (std::size_t ix = 0; ix < n; ++ix)
            s.cost.push_back(offset + s.xValues[ix] * s.xValues[ix] + s.yValues[iy] * s.yValues[iy]);
    return s;
}

}  // namespace

class TestCostContours : public QObject {
    Q_OBJECT

private slots:
    void pointsLieOnTheirLevel()
    {
        const job::CostSurfaceResult s = paraboloid(81, -0.5);  // negative costs: a linear scale
        QVERIFY(!job::logarithmicCostScale(s));
        const auto lines = job::isoCostLines(s, 4);
        QCOMPARE(lines.size(), std::size_t{4});
        // Levels evenly between -0.5 and 1.5, ends excluded.
        for (std::size_t k = 0; k < 4; ++k)
            QVERIFY(std::abs(lines[k].level - (-0.5 + 2.0 * double(k + 1) / 5.0)) < 1e-12);
        for (const auto& line : lines) {
            QVERIFY(!line.x.empty());
            QCOMPARE(line.x.size() % 3, std::size_t{0});
            double worst = 0;
            for (std::size_t i = 0; i < line.x.size(); ++i) {
                if (i % 3 == 2) {  // the gap after each piece
                    QVERIFY(std::isnan(line.x[i]) && std::isnan(line.y[i]));
                    continue;
                }
                const double r2 = line.x[i] * line.x[i] + line.y[i] * line.y[i];
                const double expected = line.level + 0.5;
                worst = std::max(worst, std::abs(r2 - expected));
            }
            // Linear interpolation of a quadratic along an edge of width h = 0.025 errs by at most h^2/4.
            QVERIFY2(worst < 0.025 * 0.025 / 4 + 1e-12, qPrintable(QString::number(worst)));
        }
        // The innermost level (cost -0.1, r = 0.632) is a closed circle: pieces all round.
        double minAngle = 10, maxAngle = -10;
        for (std::size_t i = 0; i < lines[0].x.size(); ++i)
            if (!std::isnan(lines[0].x[i])) {
                minAngle = std::min(minAngle, std::atan2(lines[0].y[i], lines[0].x[i]));
                maxAngle = std::max(maxAngle, std::atan2(lines[0].y[i], lines[0].x[i]));
            }
        QVERIFY(minAngle < -3.1 && maxAngle > 3.1);
    }

    void positiveCostsGetLogarithmicLevels()
    {
        const job::CostSurfaceResult s = paraboloid(41, 0.01);
        QVERIFY(job::logarithmicCostScale(s));
        const auto lines = job::isoCostLines(s, 3);
        QCOMPARE(lines.size(), std::size_t{3});
        const double low = std::log(0.01), high = std::log(2.01);
        for (std::size_t k = 0; k < 3; ++k)
            QVERIFY(std::abs(std::log(lines[k].level) - (low + (high - low) * double(k + 1) / 4.0)) < 1e-9);
    }

    void cellsWithNaNAreSkipped()
    {
        job::CostSurfaceResult s = paraboloid(21, 0.0);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (std::size_t iy = 0; iy < 21; ++iy)
            for (std::size_t ix = 11; ix < 21; ++ix)
                s.cost[iy * 21 + ix] = nan;  // the model could not be integrated at x > 0
        const auto lines = job::isoCostLines(s, 5);
        QVERIFY(!lines.empty());
        bool any = false;
        for (const auto& line : lines)
            for (double x : line.x)
                if (!std::isnan(x)) {
                    QVERIFY(x <= 0.0 + 1e-12);
                    any = true;
                }
        QVERIFY(any);
    }

    void flatOrEmptySurfacesHaveNoLines()
    {
        job::CostSurfaceResult flat = paraboloid(5, 0.0);
        for (double& c : flat.cost)
            c = 2.0;
        QVERIFY(job::isoCostLines(flat, 5).empty());
        QVERIFY(job::isoCostLines(job::CostSurfaceResult{}, 5).empty());
        QVERIFY(job::isoCostLines(paraboloid(5, 0.0), 0).empty());
    }
};

QTEST_GUILESS_MAIN(TestCostContours)
#include "test_cost_contours.moc"
