// Cost surfaces over two parameters (engine/job/CostSurface). Known answers: for a model linear
// in its parameters the output-error cost is an exact quadratic in them, computed here in closed
// form; a grid point's cost equals estimate::fit's cost at that point (its iteration 0); the
// result does not depend on the thread count; a stop or a blowing-up model leaves NaN behind
// with the reason, and bad axes are refused with a message naming them. With a Bayes fit's prior
// the surface adds the prior term, so its minimum is the Bayes estimate (a 2 x 2 linear solve here).
// With maximum likelihood it is -ln L with the noise variance estimated at each point.

#include "engine/data/DataTable.h"
#include "engine/job/CostSurface.h"
#include "engine/job/FitJob.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

using namespace sysid;

namespace {

// x' = a + b*t, x(0) = 0: x(t) = a t + b t^2/2, linear in (a, b); dopri5 integrates it exactly.
const std::string kLinearModel = "param a = 0.5\n"
                                 "param b = 0.5\n"
                                 "param c = 3 fixed\n"
                                 "state x = 0\n"
                                 "x' = a + b*t\n"
                                 "output x\n";
constexpr double kWeight = 2.5;

std::vector<double> times()
{
    std::vector<double> t;
    for (int k = 0; k <= 20; ++k)
        t.push_back(0.1 * k);
    return t;
}

// Data from a = 1, b = 2 with a fixed, deterministic disturbance, so the minimum cost is not zero.
std::vector<double> measured()
{
    std::vector<double> y;
    int k = 0;
    for (const double s : times())
        y.push_back(s + s * s + 0.01 * ((k++ % 3) - 1.0));
    return y;
}

// 1/2 w sum (y - a t - b t^2/2)^2.
double closedFormCost(double a, double b)
{
    const auto t = times();
    const auto y = measured();
    double sum = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
        const double r = y[k] - a * t[k] - b * t[k] * t[k] / 2;
        sum += r * r;
    }
    return 0.5 * kWeight * sum;
}

job::FitJob linearJob()
{
    job::FitJob fit;
    fit.modelText = kLinearModel;
    fit.modelSource = "linear.model";
    fit.settings.outputWeights["x"] = kWeight;
    fit.settings.integrator.relativeTolerance = 1e-10;
    fit.settings.integrator.absoluteTolerance = 1e-12;
    job::ExperimentData experiment;
    experiment.table.source = "linear.csv";
    experiment.table.columnNames = {"t", "x"};
    experiment.table.columns = {times(), measured()};
    experiment.table.timeColumn = 0;
    fit.experiments.push_back(experiment);
    return fit;
}

job::CostSurface linearSurface()
{
    job::CostSurface surface;
    surface.fit = linearJob();
    surface.x = {"a", 0.0, 2.0, 9};
    surface.y = {"b", 1.0, 3.0, 7};
    return surface;
}

// The Bayes estimate of (a, b) with the prior a ~ N(mean, sd^2): the minimum of closedFormCost(a, b)
// + 1/2 ((a - mean)/sd)^2, from its normal equations (the residual is linear in a and b).
std::pair<double, double> closedFormBayes(double mean, double sd)
{
    const auto t = times();
    const auto y = measured();
    double t2 = 0, t3 = 0, t4 = 0, yt = 0, yt2 = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
        t2 += t[k] * t[k];
        t3 += t[k] * t[k] * t[k];
        t4 += t[k] * t[k] * t[k] * t[k];
        yt += y[k] * t[k];
        yt2 += y[k] * t[k] * t[k];
    }
    const double m11 = kWeight * t2 + 1 / (sd * sd), m12 = kWeight * t3 / 2, m22 = kWeight * t4 / 4;
    const double r1 = kWeight * yt + mean / (sd * sd), r2 = kWeight * yt2 / 2;
    const double det = m11 * m22 - m12 * m12;
    return {(r1 * m22 - m12 * r2) / det, (m11 * r2 - m12 * r1) / det};
}

std::pair<std::size_t, std::size_t> argMinimum(const job::CostSurfaceResult& r)
{
    std::pair<std::size_t, std::size_t> best{0, 0};
    for (std::size_t iy = 0; iy < r.yValues.size(); ++iy)
        for (std::size_t ix = 0; ix < r.xValues.size(); ++ix)
            if (r.at(ix, iy) < r.at(best.first, best.second))
                best = {ix, iy};
    return best;
}

void expectError(const job::CostSurface& surface, job::JobError::Kind kind, const QString& part)
{
    try {
        surface.run();
        QFAIL("no error for a bad cost surface");
    } catch (const job::JobError& e) {
        QCOMPARE(e.kind(), kind);
        QVERIFY2(QString::fromStdString(e.what()).contains(part), e.what());
    }
}

}  // namespace

class TestCostSurface : public QObject {
    Q_OBJECT

private slots:
    void quadraticSurfaceMatchesClosedForm()
    {
        const job::CostSurfaceResult r = linearSurface().run();
        QCOMPARE(r.xValues.size(), std::size_t{9});
        QCOMPARE(r.yValues.size(), std::size_t{7});
        QCOMPARE(r.xValues.front(), 0.0);
        QCOMPARE(r.xValues.back(), 2.0);
        QCOMPARE(r.yValues[3], 2.0);
        QVERIFY(!r.cancelled);
        QCOMPARE(r.failedPoints, std::size_t{0});
        for (std::size_t iy = 0; iy < 7; ++iy)
            for (std::size_t ix = 0; ix < 9; ++ix) {
                const double expected = closedFormCost(r.xValues[ix], r.yValues[iy]);
                QVERIFY2(std::abs(r.at(ix, iy) - expected) <= 1e-8 * expected,
                         qPrintable(QString("(%1, %2): %3 vs %4").arg(ix).arg(iy).arg(r.at(ix, iy)).arg(expected)));
            }
        // The quadratic's second difference along a is constant: w sum t^2 * h^2.
        double sumT2 = 0;
        for (const double s : times())
            sumT2 += s * s;
        const double h = 0.25;
        const double second = r.at(0, 2) - 2 * r.at(1, 2) + r.at(2, 2);
        QVERIFY(std::abs(second - kWeight * sumT2 * h * h) < 1e-8 * second);
    }

    void gridPointEqualsFitCost()
    {
        job::CostSurface surface = linearSurface();
        const job::CostSurfaceResult r = surface.run();
        // A fit started at grid point (ix, iy) reports the cost there as its iteration 0.
        job::FitJob fit = linearJob();
        fit.parameterValues = {{"a", r.xValues[2]}, {"b", r.yValues[5]}};
        job::NullProgressSink sink;
        const estimate::FitResult result = fit.run(sink);
        QVERIFY(!result.history.empty());
        QVERIFY(std::abs(result.history.front().cost - r.at(2, 5)) <= 1e-9 * r.at(2, 5));
        // No grid point lies below the fit's minimum, which is the closed-form least-squares cost.
        QVERIFY(result.converged());
        QVERIFY(r.minimum() >= result.cost * (1 - 1e-9));
        const double a = result.parameters[0].value, b = result.parameters[1].value;
        QVERIFY(std::abs(result.cost - closedFormCost(a, b)) <= 1e-8 * result.cost);
    }

    // Maximum likelihood: the surface is -ln L with the noise variance estimated at each point,
    // n/2 (ln(2 pi M/n) + 1) with M the sum of squares (the weight is ignored), and a fit started at a grid point
    // reports that as its iteration 0, so its path lies on the surface.
    void maximumLikelihoodSurfaceIsMinusLogLikelihood()
    {
        job::CostSurface surface = linearSurface();
        surface.fit.settings.method = estimate::EstimationMethod::MaximumLikelihood;
        const job::CostSurfaceResult r = surface.run();
        const double n = static_cast<double>(times().size());
        for (std::size_t ix = 0; ix < r.xValues.size(); ix += 4)
            for (std::size_t iy = 0; iy < r.yValues.size(); iy += 3) {
                const double m = 2 * closedFormCost(r.xValues[ix], r.yValues[iy]) / kWeight;
                const double expected = 0.5 * n * (std::log(2 * std::numbers::pi * m / n) + 1);
                QVERIFY2(std::abs(r.at(ix, iy) - expected) <= 1e-9 * std::abs(expected),
                         qPrintable(QStringLiteral("%1 vs %2").arg(r.at(ix, iy)).arg(expected)));
            }
        job::FitJob fit = surface.fit;
        fit.parameterValues = {{"a", r.xValues[2]}, {"b", r.yValues[5]}};
        job::NullProgressSink sink;
        const estimate::FitResult result = fit.run(sink);
        QVERIFY(std::abs(result.history.front().cost - r.at(2, 5)) <= 1e-9 * std::abs(r.at(2, 5)));
    }

    void priorMovesTheMinimumToTheBayesFit()
    {
        // The data alone put a near 1; a strong prior a ~ N(0.5, 0.02^2) pulls it to about 0.5.
        const double mean = 0.5, sd = 0.02;
        const auto [aBayes, bBayes] = closedFormBayes(mean, sd);
        QVERIFY(std::abs(aBayes - mean) < 0.05);
        job::FitJob fit = linearJob();
        fit.settings.method = estimate::EstimationMethod::Bayes;
        fit.settings.priors["a"] = {mean, sd};
        job::NullProgressSink sink;
        const estimate::FitResult result = fit.run(sink);
        QVERIFY(result.converged());
        QVERIFY(std::abs(result.parameters[0].value - aBayes) < 1e-6);
        QVERIFY(std::abs(result.parameters[1].value - bBayes) < 1e-6);

        // A grid centred on the Bayes estimate, wide enough to hold the data-only minimum (1, 2).
        job::CostSurface surface;
        surface.fit = fit;
        surface.x = {"a", aBayes - 0.6, aBayes + 0.6, 13};
        surface.y = {"b", bBayes - 1.2, bBayes + 1.2, 13};
        const job::CostSurfaceResult r = surface.run();
        for (std::size_t iy = 0; iy < 13; ++iy)
            for (std::size_t ix = 0; ix < 13; ++ix) {
                const double a = r.xValues[ix], b = r.yValues[iy];
                const double expected = closedFormCost(a, b) + 0.5 * (a - mean) * (a - mean) / (sd * sd);
                QVERIFY2(std::abs(r.at(ix, iy) - expected) <= 1e-8 * expected,
                         qPrintable(QString("(%1, %2): %3 vs %4").arg(ix).arg(iy).arg(r.at(ix, iy)).arg(expected)));
            }
        QCOMPARE(argMinimum(r), (std::pair<std::size_t, std::size_t>{6, 6}));
        QVERIFY(std::abs(r.at(6, 6) - result.cost) <= 1e-8 * result.cost);

        // Without the prior (output error) the same grid has its minimum elsewhere, near a = 1.
        surface.fit.settings.method = estimate::EstimationMethod::OutputError;
        const job::CostSurfaceResult plain = surface.run();
        const auto [ix, iy] = argMinimum(plain);
        QVERIFY(ix != 6);
        QVERIFY(std::abs(plain.xValues[ix] - 1.0) <= 0.1);
        QVERIFY(std::abs(plain.at(6, 6) - closedFormCost(r.xValues[6], r.yValues[6])) <= 1e-8 * plain.at(6, 6));
    }

    void iterationPathFollowsTheHistory()
    {
        job::FitJob fit = linearJob();
        fit.parameterValues = {{"a", 0.2}, {"b", 2.8}};
        job::NullProgressSink sink;
        const estimate::FitResult result = fit.run(sink);
        const auto path = job::iterationPath(result, "b", "a");  // axes in either order
        QCOMPARE(path.size(), result.history.size());
        QCOMPARE(path.front().x, 2.8);
        QCOMPARE(path.front().y, 0.2);
        QCOMPARE(path.back().x, result.parameters[1].value);
        QCOMPARE(path.back().y, result.parameters[0].value);
        QCOMPARE(path.back().cost, result.history.back().cost);
        try {
            job::iterationPath(result, "a", "c");
            QFAIL("no error for a parameter the fit did not estimate");
        } catch (const job::JobError& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("iteration path: the fit did not estimate 'c' (it estimated: a, b)"));
        }
    }

    void heldParameterComesFromTheFit()
    {
        // c does not enter the output: sweeping (a, c) leaves the cost of b = 0.5 (the model's value)
        // or of the fit's starting value of b.
        job::CostSurface surface = linearSurface();
        surface.y = {"c", -1.0, 1.0, 3};
        surface.fit.parameterValues["b"] = 1.5;
        const job::CostSurfaceResult r = surface.run();
        for (std::size_t ix = 0; ix < 9; ++ix)
            for (std::size_t iy = 0; iy < 3; ++iy)
                QVERIFY(std::abs(r.at(ix, iy) - closedFormCost(r.xValues[ix], 1.5)) <= 1e-8 * r.at(ix, iy));
    }

    void independentOfThreadCount()
    {
        job::CostSurface one = linearSurface();
        one.threads = 1;
        job::CostSurface three = linearSurface();
        three.threads = 3;
        std::atomic<std::size_t> calls{0};
        std::size_t lastDone = 0;
        const auto a = one.run();
        const auto b = three.run([&](std::size_t done, std::size_t total) {
            ++calls;
            QCOMPARE(total, std::size_t{63});
            QVERIFY(done > lastDone);
            lastDone = done;
        });
        QCOMPARE(calls.load(), std::size_t{7});  // one call per row
        QCOMPARE(lastDone, std::size_t{63});
        QCOMPARE(a.cost, b.cost);
    }

    void stopLeavesNaN()
    {
        std::stop_source source;
        source.request_stop();
        const auto r = linearSurface().run({}, source.get_token());
        QVERIFY(r.cancelled);
        for (const double c : r.cost)
            QVERIFY(std::isnan(c));
        QVERIFY(std::isnan(r.minimum()));
    }

    void stopMidwayKeepsFinishedRows()
    {
        job::CostSurface surface = linearSurface();
        surface.threads = 1;
        std::stop_source source;
        const auto r = surface.run([&](std::size_t, std::size_t) { source.request_stop(); }, source.get_token());
        QVERIFY(r.cancelled);
        for (std::size_t ix = 0; ix < 9; ++ix) {
            QVERIFY(std::isfinite(r.at(ix, 0)));  // the row that finished before the stop
            QVERIFY(std::isnan(r.at(ix, 6)));
        }
        QCOMPARE(r.minimum(), *std::min_element(r.cost.begin(), r.cost.begin() + 9));
    }

    void blowUpIsReportedNotThrown()
    {
        // x' = a x^2, x(0) = 1: x = 1 / (1 - a t) blows up at t = 1/a, inside [0, 2] for a >= 0.5.
        job::CostSurface surface = linearSurface();
        surface.fit.modelText = "param a = 0\nparam b = 1\nstate x = 1\nx' = a*x^2 + 0*b\noutput x\n";
        surface.fit.settings.integrator.maxSteps = 20000;
        surface.x = {"a", -1.0, 0.6, 5};  // -1, -0.6, -0.2, 0.2, 0.6
        surface.y = {"b", 0.0, 1.0, 2};
        const auto r = surface.run();
        QCOMPARE(r.failedPoints, std::size_t{2});  // a = 0.6 in both rows
        QVERIFY(std::isnan(r.at(4, 0)) && std::isnan(r.at(4, 1)));
        QVERIFY(std::isfinite(r.at(0, 0)) && std::isfinite(r.at(3, 1)));
        QVERIFY2(QString::fromStdString(r.firstFailure).startsWith("a = 0.6, b = "), r.firstFailure.c_str());
        QVERIFY(!r.cancelled);
    }

    void badAxesAreRefused()
    {
        job::CostSurface s = linearSurface();
        s.x.parameter = "k";
        expectError(s, job::JobError::Kind::Settings,
                    "the x axis names 'k', which is not a parameter of the model (parameters: a, b, c)");
        s = linearSurface();
        s.y.parameter = "a";
        expectError(s, job::JobError::Kind::Settings, "both name a");
        s = linearSurface();
        s.y.points = 1;
        expectError(s, job::JobError::Kind::Settings, "the y axis grid points of b 1; expected a whole number >= 2");
        s = linearSurface();
        s.x.to = -1;
        expectError(s, job::JobError::Kind::Settings,
                    "x axis range of a from 0 to -1; expected finite numbers with from < to");
        s = linearSurface();
        s.y.from = std::nan("");
        expectError(s, job::JobError::Kind::Settings, "y axis range of b");
        s = linearSurface();
        s.fit.experiments.clear();
        expectError(s, job::JobError::Kind::Data, "no data");
        s = linearSurface();
        s.fit.modelText = "param a = \n";
        expectError(s, job::JobError::Kind::Model, "linear.model:");
    }
};

QTEST_GUILESS_MAIN(TestCostSurface)
#include "test_cost_surface.moc"
