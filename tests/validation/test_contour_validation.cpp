// Issue 7: seed 003's cost contour over (a, b) for example 4 (n = 5 nodes, alpha(x) = a x + b,
// true a = -0.1, b = 0.22), the picture of its Figures 4.3-4.6. Known answers: on noise-free
// data the grid's smallest cost (points where the model blows up aside) is at the true point and is zero to integration
// accuracy; the output-error fit started at the seed's (0, 0.1) has a path that starts there, lowers the cost at every
// step and ends at the true point; each path cost lies on the surface where the path passes a grid point (its start).
// Prints the path (the seed's iteration table).

#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/CostSurface.h"
#include "engine/job/FitJob.h"
#include "engine/job/ModelText.h"

#include <QtTest>

#include "../engine/Seed003Models.h"

#include <cmath>

using namespace sysid;

namespace {

const std::string kExample4Linear = sysid::test::seed003::example4Linear + "output s\n";

job::FitJob seedJob()
{
    const auto source = job::compileModelText(kExample4Linear, "<seed 003 example 4>", {});
    eval::CompiledModel model(source);
    std::vector<double> truth = source->parameterValues;
    truth[0] = -0.1;
    truth[1] = 0.22;
    model.setParameters(truth);
    integrate::SimulationRequest request;
    for (int i = 0; i <= 60; ++i)
        request.times.push_back(0.05 * i);
    integrate::IntegratorSettings tight;
    tight.relativeTolerance = 1e-11;
    tight.absoluteTolerance = 1e-13;
    const auto tr = integrate::simulate(model, request, tight);

    job::FitJob fit;
    fit.modelText = kExample4Linear;
    fit.modelSource = "<seed 003 example 4>";
    job::ExperimentData data;
    data.table.source = "example4.csv";
    data.table.columnNames = {"t"};
    data.table.columns = {tr.times};
    for (std::size_t j = 0; j < source->outputNames.size(); ++j) {
        data.table.columnNames.push_back(source->outputNames[j]);
        const Eigen::VectorXd column = tr.outputs.col(static_cast<Eigen::Index>(j));
        data.table.columns.emplace_back(column.data(), column.data() + column.size());
        fit.settings.outputWeights[source->outputNames[j]] = 1.0;  // noise-free data: no noise estimate
    }
    fit.experiments.push_back(data);
    fit.settings.integrator = tight;
    return fit;
}

}  // namespace

class TestContourValidation : public QObject {
    Q_OBJECT

private slots:
    void seed003Example4Contour()
    {
        job::CostSurface surface;
        surface.fit = seedJob();
        surface.x = {"a", -0.3, 0.1, 13};  // step 1/30: a = -0.1 is point 6
        surface.y = {"b", 0.1, 0.34, 13};  // step 0.02: b = 0.22 is point 6
        const job::CostSurfaceResult r = surface.run();
        // Where alpha = a x + b < 0 at a node (at x = 1, a + b < 0) the heat equation runs backward
        // and may blow up: such points are left out, with the reason; no other point may fail.
        qInfo("%zu point(s) failed, first: %s", r.failedPoints, r.firstFailure.c_str());
        double largest = 0;
        std::size_t bestX = 6, bestY = 6;
        for (std::size_t iy = 0; iy < 13; ++iy)
            for (std::size_t ix = 0; ix < 13; ++ix) {
                if (std::isnan(r.at(ix, iy))) {
                    QVERIFY(r.xValues[ix] + r.yValues[iy] < 0);
                    continue;
                }
                largest = std::max(largest, r.at(ix, iy));
                if (r.at(ix, iy) < r.at(bestX, bestY)) {
                    bestX = ix;
                    bestY = iy;
                }
            }
        qInfo("grid minimum %.3e at a = %.4f, b = %.4f; largest cost %.3e", r.at(bestX, bestY), r.xValues[bestX],
              r.yValues[bestY], largest);
        QCOMPARE(bestX, std::size_t{6});
        QCOMPARE(bestY, std::size_t{6});
        QVERIFY(r.at(6, 6) < 1e-12 * largest);

        job::FitJob fit = seedJob();
        job::NullProgressSink sink;
        const estimate::FitResult result = fit.run(sink);
        QVERIFY2(result.converged(), result.termination.message.c_str());
        const auto path = job::iterationPath(result, "a", "b");
        QVERIFY(path.size() >= 2);
        for (const auto& p : path)
            qInfo("iteration %2zu: a = %+.6f, b = %.6f, cost %.6e", p.iteration, p.x, p.y, p.cost);
        QCOMPARE(path.front().x, 0.0);
        QCOMPARE(path.front().y, 0.1);
        // The start (0, 0.1) is grid point (9, 0): the fit's cost there is the surface's.
        QVERIFY(std::abs(path.front().cost - r.at(9, 0)) <= 1e-8 * r.at(9, 0));
        for (std::size_t k = 1; k < path.size(); ++k)
            QVERIFY(path[k].cost <= path[k - 1].cost);
        QVERIFY(std::abs(path.back().x + 0.1) < 1e-6);
        QVERIFY(std::abs(path.back().y - 0.22) < 1e-6);
    }
};

QTEST_GUILESS_MAIN(TestContourValidation)
#include "test_contour_validation.moc"
