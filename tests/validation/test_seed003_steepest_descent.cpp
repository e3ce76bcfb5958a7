// Seed 003 (Bordan 1971) example 4 by the seed's own update: steepest descent
// a <- a - K dJ/da, K = 0.02, J = int sum_i (q_i - S_i)^2 dt, against Gauss-Newton / LM
// (output error) on the same data. n = 5 interior nodes on 0 < x < 1.2 (dx = 0.2), ends at 0,
// the rod at 1 initially; alpha(x) = a x + b with a = -0.1, b = 0.22, i.e. alpha at the nodes
// (0.2, 0.18, 0.16, 0.14, 0.12), from alpha = 0.1 everywhere. The seed reaches the truth in
// about 20 iterations; its record length is not printed, 0..3 every 0.05 is used (as in
// test_pde_validation); the signals have died out by then, a longer record changes nothing.
// Noise-free data. The table: iterations until every estimate is within
// 5 %, 1 % and 0.1 % of the truth (-1: never), and until the fit stops. The seed identified alpha
// per node (its 25 sensitivity equations); a x + b is shown too.
#include "ValidationSupport.h"
#include "../engine/Seed003Models.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace sysid;

namespace {

using sysid::test::seed003::Values;
using sysid::test::seed003::example4Linear;
using sysid::test::seed003::example4PerNode;
using sysid::test::seed003::perNode;

std::vector<double> seedTimes()
{
    std::vector<double> times;
    for (int i = 0; i <= 60; ++i)
        times.push_back(0.05 * i);
    return times;
}

// First iteration whose estimates are all within `tolerance` (relative) of the truth; -1 if none.
int firstWithin(const estimate::FitResult& r, const std::vector<std::string>& names, const Values& truth, double tolerance)
{
    for (const auto& record : r.history) {
        bool all = true;
        for (const auto& [name, value] : truth) {
            const auto at = std::find(names.begin(), names.end(), name) - names.begin();
            all = all && validation::relativeError(record.parameters[static_cast<std::size_t>(at)], value) <= tolerance;
        }
        if (all)
            return static_cast<int>(record.iteration);
    }
    return -1;
}

struct Run {
    estimate::FitResult result;
    int within5 = -1, within1 = -1, within01 = -1;
};

Run run(const QString& label, const std::string& text, const Values& truth, const Values& start, estimate::EstimationMethod method)
{
    const auto source = validation::compiledText(text, "<seed 003 example 4>");
    const auto data = validation::simulatedRecord(source, validation::valuesWith(*source, truth), seedTimes(), 0.0, 1,
                                                  data::NoiseDistribution::Uniform);
    estimate::FitSettings settings;
    settings.method = method;
    settings.integrator = validation::fitIntegrator();
    settings.maxIterations = 400;
    if (method == estimate::EstimationMethod::SteepestDescent)
        settings.costTolerance = 1e-9;  // the seed stops by eye; a fixed gain creeps along the ridge
    Run r;
    r.result = validation::fitOrReport(source, validation::valuesWith(*source, start), {data}, settings);
    const auto names = estimate::estimatedParameterNames(*source, {data});
    r.within5 = firstWithin(r.result, names, truth, 5e-2);
    r.within1 = firstWithin(r.result, names, truth, 1e-2);
    r.within01 = firstWithin(r.result, names, truth, 1e-3);
    QString line = QStringLiteral("%1 %2 | 5 %: %3 | 1 %: %4 | 0.1 %: %5 | stopped after %6 (%7) |")
                       .arg(label.leftJustified(28))
                       .arg(QString::fromStdString(estimate::methodName(method)).leftJustified(16))
                       .arg(r.within5, 4)
                       .arg(r.within1, 4)
                       .arg(r.within01, 4)
                       .arg(r.result.iterations, 4)
                       .arg(QString::fromStdString(r.result.stopReason));
    for (const auto& [name, value] : truth)
        line += QStringLiteral(" %1 %2 (%3)")
                    .arg(QString::fromStdString(name))
                    .arg(validation::estimateOf(r.result, name).value, 0, 'f', 5)
                    .arg(value);
    qInfo().noquote() << line;
    return r;
}

}  // namespace

class TestSeed003SteepestDescent : public QObject {
    Q_OBJECT

private slots:
    void linearDiffusivity()
    {
        const Values truth{{"a", -0.1}, {"b", 0.22}};
        const Values start{{"a", 0.0}, {"b", 0.1}};
        const Run sd = run("example 4, alpha = a x + b", example4Linear, truth, start, estimate::EstimationMethod::SteepestDescent);
        const Run gn = run("example 4, alpha = a x + b", example4Linear, truth, start, estimate::EstimationMethod::OutputError);
        QVERIFY2(gn.result.converged, gn.result.stopReason.c_str());
        QVERIFY(gn.within01 > 0 && gn.result.iterations <= 12);
        QVERIFY(sd.result.history.back().cost < sd.result.history.front().cost);
    }

    void perNodeDiffusivity()
    {
        const Values truth = perNode("alpha", {0.2, 0.18, 0.16, 0.14, 0.12});
        const Values start = perNode("alpha", {0.1, 0.1, 0.1, 0.1, 0.1});
        const Run sd = run("example 4, alpha per node", example4PerNode, truth, start, estimate::EstimationMethod::SteepestDescent);
        const Run gn = run("example 4, alpha per node", example4PerNode, truth, start, estimate::EstimationMethod::OutputError);
        QVERIFY2(gn.result.converged, gn.result.stopReason.c_str());
        QVERIFY(gn.within01 > 0 && gn.result.iterations <= 15);
        // The seed's picture: steepest descent gets close quickly, then creeps along the ridge.
        // Measured: 142 iterations to 5 %, not within 1 % after 400 (the seed: about 20);
        // Gauss-Newton: 0.1 % after 5.
        QVERIFY2(sd.within5 > 0 && sd.within5 <= 200, qPrintable(QString::number(sd.within5)));
        QVERIFY(gn.within01 * 5 < sd.within5);
    }
};

QTEST_APPLESS_MAIN(TestSeed003SteepestDescent)
#include "test_seed003_steepest_descent.moc"
