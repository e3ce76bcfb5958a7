// Seed 003 (Bordan 1971) by the seed's own update against Gauss-Newton / LM (output error) on the
// same noise-free data: heat conduction s_t = alpha(x) s_xx discretised at interior nodes dx = 0.2
// apart, ends at 0, the rod at 1 initially. Steepest descent is eq. (4.22),
// alpha_j <- alpha_j - K int sum_i (q_i - S_i) U_ij dt, K = 0.02 (sysid's default).
//
// Issue 7: the seed's example 4 (n = 5, alpha per node, truth (0.2, 0.18, 0.16, 0.14, 0.12) from
// 0.1) reaches the truth "within twenty iterations" (its Figs. 4.7-4.9, the only figures with an
// iteration axis); sysid needs 142 to come within 5 %. The seed prints neither its record length
// nor CSMP's FINTIM, and its equations leave the factor in front of the gradient open (4.3 with
// 4.9 or 4.19, or 4.22 as printed), so `interpretations` runs each reading; none the text
// supports comes near 20. `gradientConditioning` shows why: the Gauss-Newton Hessian of J at the
// truth has condition number ~117, so a fixed gain that is stable along the steep direction
// crawls along the flat one. docs/validation/seed003.md has the tables.
//
// Every table row reports the iterations until every estimate is within 5 %, 1 % and 0.1 % of the
// truth (-1: never) and why the fit stopped.
#include "ValidationSupport.h"
#include "../engine/Seed003Models.h"

#include "engine/estimate/OutputErrorProblem.h"
#include "engine/estimate/ParameterLayout.h"
#include "engine/estimate/SteepestDescent.h"

#include <QtTest>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace sysid;

namespace {

using sysid::test::seed003::example1;
using sysid::test::seed003::example4Linear;
using sysid::test::seed003::example4PerNode;
using sysid::test::seed003::example5;
using sysid::test::seed003::perNode;
using sysid::test::seed003::Values;

constexpr double seedGain = 0.02;
constexpr double defaultRecord = 3.0;  // test_pde_validation's 0..3; the seed prints none

// Samples every 0.05 on [0, length].
std::vector<double> recordTimes(double length)
{
    std::vector<double> times;
    const int last = static_cast<int>(std::lround(length / 0.05));
    for (int i = 0; i <= last; ++i)
        times.push_back(0.05 * i);
    return times;
}

double largestError(const std::vector<double>& values, const std::vector<std::string>& names, const Values& truth)
{
    double worst = 0.0;
    for (const auto& [name, value] : truth) {
        const auto at = static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
        worst = std::max(worst, validation::relativeError(values.at(at), value));
    }
    return worst;
}

// First iteration whose estimates are all within `tolerance` (relative) of the truth; -1 if none.
int firstWithin(const estimate::FitResult& r, const std::vector<std::string>& names, const Values& truth,
                double tolerance)
{
    for (const auto& record : r.history)
        if (largestError(record.parameters, names, truth) <= tolerance)
            return static_cast<int>(record.iteration);
    return -1;
}

struct Run {
    estimate::FitResult result;
    int within5 = -1, within1 = -1, within01 = -1;
    double finalError = 0.0;  // largest relative error of the last estimate
    int reversals = 0;  // sign changes of a parameter's step: the seed's "oscillation"
};

int reversalsOf(const estimate::FitResult& r)
{
    int count = 0;
    for (std::size_t k = 2; k < r.history.size(); ++k)
        for (std::size_t j = 0; j < r.history[k].parameters.size(); ++j)
            count += (r.history[k].parameters[j] - r.history[k - 1].parameters[j]) *
                    (r.history[k - 1].parameters[j] - r.history[k - 2].parameters[j]) <
                0.0;
    return count;
}

struct Setup {
    double gain = seedGain;
    double record = defaultRecord;
    std::size_t maxIterations = 300;
};

Run run(const QString& label, const std::string& text, const Values& truth, const Values& start,
        estimate::EstimationMethod method, const Setup& setup = {})
{
    const auto source = validation::compiledText(text, "<seed 003>");
    const auto data = validation::simulatedRecord(source, validation::valuesWith(*source, truth),
                                                  recordTimes(setup.record), 0.0, 1, data::NoiseDistribution::Uniform);
    estimate::FitSettings settings;
    settings.method = method;
    settings.integrator = validation::fitIntegrator();
    settings.maxIterations = setup.maxIterations;
    settings.steepestDescentGain = setup.gain;
    if (method == estimate::EstimationMethod::SteepestDescent)
        settings.costTolerance = 1e-9;  // the seed stops by eye; a fixed gain creeps along the ridge
    Run r;
    r.result = validation::fitOrReport(source, validation::valuesWith(*source, start), {data}, settings);
    const auto names = estimate::estimatedParameterNames(*source, {data});
    r.within5 = firstWithin(r.result, names, truth, 5e-2);
    r.within1 = firstWithin(r.result, names, truth, 1e-2);
    r.within01 = firstWithin(r.result, names, truth, 1e-3);
    r.finalError = r.result.history.empty() ? NAN : largestError(r.result.history.back().parameters, names, truth);
    r.reversals = reversalsOf(r.result);
    const bool steepest = method == estimate::EstimationMethod::SteepestDescent;
    const QString how = steepest ? QStringLiteral("SD K=%1 T=%2").arg(setup.gain).arg(setup.record)
                                 : QStringLiteral("GN T=%1").arg(setup.record);
    qInfo().noquote()
        << QStringLiteral(
               "%1 %2 | 5 %: %3 | 1 %: %4 | 0.1 %: %5 | reversals %9 | stopped after %6, final error %7 % (%8)")
               .arg(label.leftJustified(34))
               .arg(how.leftJustified(18))
               .arg(r.within5, 4)
               .arg(r.within1, 4)
               .arg(r.within01, 4)
               .arg(r.result.iterations, 4)
               .arg(100.0 * r.finalError, 0, 'g', 3)
               .arg(QString::fromStdString(r.result.termination.message))
               .arg(r.reversals, 3);
    return r;
}

// Eigenvalues (ascending) of H = int U'U dt at the truth, U = dq/dalpha: the Gauss-Newton Hessian
// of J / 2 = 1/2 int sum (q - S)^2 dt. Near the minimum eq. (4.22) is e <- (I - K H) e, so the error
// along the eigenvector of lambda shrinks by 1 - K lambda per iteration (stable for K lambda < 2).
Eigen::VectorXd hessianEigenvalues(const std::string& text, const Values& truth, double record)
{
    const auto source = validation::compiledText(text, "<seed 003>");
    const auto values = validation::valuesWith(*source, truth);
    const std::vector<estimate::Experiment> data{
        validation::simulatedRecord(source, values, recordTimes(record), 0.0, 1, data::NoiseDistribution::Uniform)};
    const estimate::ParameterLayout layout(*source, values, {{}});
    const std::vector<double> weights(source->outputCount(), 1.0);
    estimate::OutputErrorProblem problem(source, layout, data, weights,
                                         std::vector<std::optional<estimate::Prior>>(layout.size()),
                                         validation::fitIntegrator());
    estimate::Linearization at;
    std::string failure;
    if (!problem.evaluate(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(layout.size())), at, failure, {}))
        throw std::runtime_error(failure);
    const Eigen::VectorXd c = estimate::trapezoidRowWeights(data, weights);
    const Eigen::MatrixXd u = at.jacobian.topRows(c.size());
    const Eigen::MatrixXd h = u.transpose() * c.asDiagonal() * u;
    return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(h).eigenvalues();
}

const Values example4Truth = perNode("alpha", {0.2, 0.18, 0.16, 0.14, 0.12});
const Values example4Start = perNode("alpha", {0.1, 0.1, 0.1, 0.1, 0.1});

}  // namespace

class TestSeed003SteepestDescent : public QObject {
    Q_OBJECT

private slots:
    // Example 4 as printed: eq. (4.22), K = 0.02; measured 142 iterations to 5 % (the engine-free
    // RK4 re-implementation in tests/bench/bench_seed003_gradient gives 142 too).
    void literalReading()
    {
        const Run sd = run("example 4, alpha per node", example4PerNode, example4Truth, example4Start,
                           estimate::EstimationMethod::SteepestDescent, {seedGain, defaultRecord, 400});
        const Run gn = run("example 4, alpha per node", example4PerNode, example4Truth, example4Start,
                           estimate::EstimationMethod::OutputError);
        QVERIFY2(gn.result.converged(), gn.result.termination.message.c_str());
        QVERIFY2(gn.within01 > 0 && gn.within01 <= 6 && gn.result.iterations <= 15,
                 qPrintable(QString::number(gn.within01)));
        QVERIFY2(sd.within5 >= 130 && sd.within5 <= 155, qPrintable(QString::number(sd.within5)));
        QCOMPARE(sd.within1, -1);  // still creeping along the ridge after 400
        QVERIFY(sd.finalError > 0.01 && sd.finalError < 0.05);
    }

    // Each reading of the seed's text: the factor in front of int sum (q - S) U dt and the record
    // length (0..T). Not one of them reaches 5 % in fewer than 45 iterations; a gain 5x eq. (4.22) on
    // a short record would give the seed's 20, but nothing in the text says so.
    void interpretations()
    {
        struct Reading {
            const char* text;
            double factor;  // K_effective / K
        };
        const Reading readings[] = {
            {"(4.22) with the dx of (4.9)", 0.2},
            {"(4.3) on J of (4.9): 2 dx", 0.4},
            {"(4.22) as printed", 1.0},
            {"(4.3) on J of (4.19): 2", 2.0},
        };
        int best = std::numeric_limits<int>::max();
        for (const auto& reading : readings)
            for (const double record : {1.0, 2.0, 3.0, 5.0}) {
                const Run sd =
                    run(QString::fromLatin1(reading.text), example4PerNode, example4Truth, example4Start,
                        estimate::EstimationMethod::SteepestDescent, {seedGain * reading.factor, record, 200});
                QVERIFY2(sd.result.history.back().cost < sd.result.history.front().cost,
                         sd.result.termination.message.c_str());
                if (sd.within5 > 0)
                    best = std::min(best, sd.within5);
            }
        QVERIFY2(best >= 45 && best <= 60, qPrintable(QString::number(best)));  // measured 52: 2K, T = 1
        // What the seed's count would take: about 5x the printed gain, record 0..1.
        const Run faster = run("beyond the text: 5 K", example4PerNode, example4Truth, example4Start,
                               estimate::EstimationMethod::SteepestDescent, {5 * seedGain, 1.0, 200});
        QVERIFY2(faster.within5 >= 15 && faster.within5 <= 25, qPrintable(QString::number(faster.within5)));
        QVERIFY(faster.within1 > 60);  // ... and it still creeps below 1 %
        // A CSMP program without the 1/dx^2 of (4.17), (4.18), (4.20) runs 25x slower in time:
        // the same as 25 K on a record 25x shorter. FINTIM 10 -> 0..0.4, FINTIM 25 -> 0..1.
        const Run slow10 = run("no 1/dx^2, FINTIM 10", example4PerNode, example4Truth, example4Start,
                               estimate::EstimationMethod::SteepestDescent, {25 * seedGain, 0.4, 200});
        QVERIFY2(slow10.within5 >= 50 && slow10.within5 <= 70, qPrintable(QString::number(slow10.within5)));
        const Run slow25 = run("no 1/dx^2, FINTIM 25", example4PerNode, example4Truth, example4Start,
                               estimate::EstimationMethod::SteepestDescent, {25 * seedGain, 1.0, 200});
        QVERIFY(!slow25.result.converged() && slow25.within5 < 0);  // J rises: 25 K is too large
    }

    // Why: the fast and slow directions of J differ by ~117 at the truth (record 0..3). With
    // K = 0.02 the steepest direction shrinks by 1 - K lambda_max ~ 0.79 per iteration and the
    // flattest by 1 - K lambda_min ~ 0.998; no fixed K < 2 / lambda_max does better than
    // 1 - 2 / 117 ~ 0.983 along the flat one. Gauss-Newton solves with H and does not care.
    void gradientConditioning()
    {
        const Eigen::VectorXd lambda = hessianEigenvalues(example4PerNode, example4Truth, defaultRecord);
        QString line = QStringLiteral("example 4 per node, eigenvalues of int U'U dt at the truth (0..3):");
        for (const double l : lambda)
            line += QStringLiteral(" %1").arg(l, 0, 'g', 4);
        const double condition = lambda.maxCoeff() / lambda.minCoeff();
        line += QStringLiteral(" | condition %1 | K lambda: %2 .. %3")
                    .arg(condition, 0, 'g', 4)
                    .arg(seedGain * lambda.minCoeff(), 0, 'g', 3)
                    .arg(seedGain * lambda.maxCoeff(), 0, 'g', 3);
        qInfo().noquote() << line;
        // bench_seed003_gradient (engine-free RK4 of the sensitivity equations): 0.0901 0.2231 0.5688 1.471 10.58.
        QVERIFY2(std::abs(lambda.minCoeff() - 0.0901) < 0.002 && std::abs(lambda.maxCoeff() - 10.58) < 0.1,
                 qPrintable(line));
        QVERIFY2(condition > 100 && condition < 135, qPrintable(line));
        const Eigen::VectorXd linear = hessianEigenvalues(example4Linear, {{"a", -0.1}, {"b", 0.22}}, defaultRecord);
        qInfo().noquote() << QStringLiteral("example 4, a x + b: eigenvalues %1 %2 | condition %3 | K lambda_max %4")
                                 .arg(linear(0), 0, 'g', 4)
                                 .arg(linear(1), 0, 'g', 4)
                                 .arg(linear(1) / linear(0), 0, 'g', 4)
                                 .arg(seedGain * linear(1), 0, 'g', 3);
        // K lambda_max > 1: K = 0.02 already overshoots along the steep direction; 2 K is unstable.
        QVERIFY(seedGain * linear(1) > 1.0 && seedGain * linear(1) < 2.0);
    }

    // The seed's other examples from each of its starts (record 0..3, K = 0.02): steepest descent
    // against Gauss-Newton. The seed plots these in parameter planes without an iteration axis.
    void seedExamples_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QVector<double>>("truth");
        QTest::addColumn<QVector<double>>("start");
        QTest::addColumn<int>("sdWithin5");  // measured; -1: not within 5 % after 300
        const QVector<double> one{0.1, 0.15, 0.18}, three{0.1, 0.17, 0.32}, five{0.1, 0.15, 0.2, 0.1, 0.15, 0.2};
        QTest::newRow("example 1 from 0.2") << "1" << one << QVector<double>{0.2, 0.2, 0.2} << 110;
        QTest::newRow("example 1 from 0.05") << "1" << one << QVector<double>{0.05, 0.05, 0.05} << 128;
        QTest::newRow("example 1 from (0.2, 0.05, 0.2)") << "1" << one << QVector<double>{0.2, 0.05, 0.2} << 295;
        // The seed's example 3 is alpha per node too: x^2 - 0.25 x + 0.11 at the nodes.
        QTest::newRow("example 3 from 0.05") << "1" << three << QVector<double>{0.05, 0.05, 0.05} << -1;
        QTest::newRow("example 3 from 0.35") << "1" << three << QVector<double>{0.35, 0.35, 0.35} << -1;
        QTest::newRow("example 5 from 0.2") << "5" << five << QVector<double>(6, 0.2) << 145;
        QTest::newRow("example 5 from 0.05") << "5" << five << QVector<double>(6, 0.05) << 132;
    }

    void seedExamples()
    {
        QFETCH(QString, model);
        QFETCH(QVector<double>, truth);
        QFETCH(QVector<double>, start);
        QFETCH(int, sdWithin5);
        const bool slab = model == "5";
        const auto values = [&](const QVector<double>& v) {
            if (!slab)
                return perNode("alpha", {v.begin(), v.end()});
            Values both = perNode("r", {v.begin(), v.begin() + 3});
            for (const auto& p : perNode("v", {v.begin() + 3, v.end()}))
                both.push_back(p);
            return both;
        };
        const std::string& text = slab ? example5 : example1;
        const QString label = QString::fromLatin1(QTest::currentDataTag());
        const Run sd = run(label, text, values(truth), values(start), estimate::EstimationMethod::SteepestDescent);
        const Run gn = run(label, text, values(truth), values(start), estimate::EstimationMethod::OutputError);
        QVERIFY2(gn.result.converged() && gn.within01 > 0 && gn.within01 <= 13 && gn.result.iterations <= 20,
                 gn.result.termination.message.c_str());
        QVERIFY(sd.result.history.back().cost < sd.result.history.front().cost);
        if (sdWithin5 < 0)
            QVERIFY2(sd.within5 < 0 && sd.finalError > 0.05, qPrintable(QString::number(sd.finalError)));
        else
            QVERIFY2(std::abs(sd.within5 - sdWithin5) <= std::max(5, sdWithin5 / 10),
                     qPrintable(QString::number(sd.within5)));
    }

    // The gain that gives example 4's 20 iterations (5 K on 0..1) does not carry over: on 0..3 it
    // makes J rise at the first step of example 1 from the seed's start (0.2, 0.05, 0.2), which
    // the seed's K converged from. A record of 0..1 keeps it stable there.
    void largerGainDependsOnRecord()
    {
        const Values truth = perNode("alpha", {0.1, 0.15, 0.18});
        const Values start = perNode("alpha", {0.2, 0.05, 0.2});
        const Run longer = run("example 1, 5 K", example1, truth, start, estimate::EstimationMethod::SteepestDescent,
                               {5 * seedGain, 3.0, 300});
        QVERIFY(!longer.result.converged() && longer.result.iterations == 0 && longer.within5 < 0);
        const Run shorter = run("example 1, 5 K", example1, truth, start, estimate::EstimationMethod::SteepestDescent,
                                {5 * seedGain, 1.0, 300});
        QVERIFY2(shorter.within5 >= 40 && shorter.within5 <= 60, qPrintable(QString::number(shorter.within5)));
    }

    // sysid's own parametrisation alpha = a x + b (the seed identified alpha per node).
    void linearDiffusivity()
    {
        const Values truth{{"a", -0.1}, {"b", 0.22}};
        const Values start{{"a", 0.0}, {"b", 0.1}};
        const Run sd = run("example 4, alpha = a x + b", example4Linear, truth, start,
                           estimate::EstimationMethod::SteepestDescent, {seedGain, defaultRecord, 400});
        const Run gn =
            run("example 4, alpha = a x + b", example4Linear, truth, start, estimate::EstimationMethod::OutputError);
        QVERIFY2(gn.result.converged(), gn.result.termination.message.c_str());
        QVERIFY(gn.within01 > 0 && gn.result.iterations <= 12);
        QVERIFY(sd.result.history.back().cost < sd.result.history.front().cost);
        QCOMPARE(sd.within5, -1);
    }
};

QTEST_APPLESS_MAIN(TestSeed003SteepestDescent)
#include "test_seed003_steepest_descent.moc"
