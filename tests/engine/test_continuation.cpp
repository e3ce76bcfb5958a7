// Continuation of periodic solutions: natural and pseudo-arclength, folds, stability.
#include "IntegrationTestSupport.h"

#include "engine/shooting/Continuation.h"

#include <QtTest>

#include <cmath>
#include <complex>

using namespace sysid;
using namespace sysid::shooting;

namespace {

// x'' + 0.1 x' + x + 0.5 x^3 = F cos(w t) (resources/examples/duffing_frequency_response.model)
const char* duffing = "param c = 0.1\nparam a = 0.5\nparam F = 0.5\nparam w = 1\n"
                      "x'' = -c*x' - x - a*x^3 + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";
const char* linear = "param c = 0.2\nparam k = 1\nparam F = 0.7\nparam w = 1\n"
                     "x'' = -c*x' - k*x + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";

ContinuationSettings frequencySweep(const eval::CompiledModel& model, double start, double end)
{
    ContinuationSettings s;
    s.parameter = test::parameter(model, "w");
    s.start = start;
    s.end = end;
    s.initialStep = 0.02;
    s.maxStep = 0.1;
    s.maxPoints = 400;
    s.periodOf = forcingPeriodOfFrequency();
    s.periodic.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-10, 1e-12);
    s.periodic.newton.residualTolerance = 1e-9;
    return s;
}

Eigen::VectorXd zero2()
{
    return Eigen::VectorXd::Zero(2);
}

double largestRealNear(const std::vector<std::complex<double>>& mu, double target)
{
    double best = 1e300;
    for (auto m : mu)
        if (std::abs(m.imag()) < 1e-8 && std::abs(m.real() - target) < std::abs(best - target))
            best = m.real();
    return best;
}

}  // namespace

class TestContinuation : public QObject {
    Q_OBJECT
private slots:
    void linearAmplitudeResponseIsAnalytic_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("natural") << int(ContinuationMethod::Natural);
        QTest::newRow("pseudo-arclength") << int(ContinuationMethod::PseudoArclength);
    }
    void linearAmplitudeResponseIsAnalytic()
    {
        QFETCH(int, method);
        auto model = test::compiled(linear);
        auto s = frequencySweep(*model, 0.5, 2.0);
        s.method = static_cast<ContinuationMethod>(method);
        s.periodic.integrator = test::tight();
        s.periodic.newton.residualTolerance = 1e-11;
        std::size_t reported = 0;
        const auto r = continuePeriodicSolutions(*model, zero2(), s, [&](const BranchPoint&) { ++reported; });
        QVERIFY2(r.completed(), r.termination.message.c_str());
        QCOMPARE(reported, r.points.size());
        QVERIFY(r.points.size() > 10);
        double worst = 0;
        for (const auto& p : r.points) {
            QCOMPARE(p.type, BranchPointType::Regular);
            QVERIFY(p.stable);
            const double w = p.parameter;
            const double H = 1.0 / std::abs(std::complex<double>(1 - w * w, 0.2 * w));
            worst = std::max(worst, std::abs(p.amplitude - 0.7 * H));
            QVERIFY(std::abs(p.period - 2 * M_PI / w) < 1e-12);
        }
        qInfo("%zu points, max amplitude error %.2e", r.points.size(), worst);
        QVERIFY(worst < 1e-6);
        // The model's parameters are left as they were.
        QCOMPARE(model->parameters()[3], 1.0);
    }

    void pseudoArclengthPassesBothFolds()
    {
        auto model = test::compiled(duffing);
        auto s = frequencySweep(*model, 0.5, 3.0);
        const auto r = continuePeriodicSolutions(*model, zero2(), s);
        QVERIFY2(r.completed(), r.termination.message.c_str());
        std::vector<std::size_t> folds;
        for (std::size_t i = 0; i < r.points.size(); ++i)
            if (r.points[i].type == BranchPointType::Fold)
                folds.push_back(i);
        QCOMPARE(folds.size(), std::size_t(2));
        const auto& upper = r.points[folds[0]];
        const auto& lower = r.points[folds[1]];
        qInfo("%zu points; folds at w = %.6f (amplitude %.4f) and w = %.6f (amplitude %.4f)", r.points.size(),
              upper.parameter, upper.amplitude, lower.parameter, lower.amplitude);
        // The branch turns back in w: first fold at the larger w, second at the smaller.
        QVERIFY(upper.parameter > lower.parameter + 0.3);
        QVERIFY(upper.amplitude > lower.amplitude);
        for (const auto* fold : {&upper, &lower})
            QVERIFY(std::abs(largestRealNear(fold->multipliers, 1.0) - 1.0) < 1e-3);
        // Stable before the first fold and after the second, unstable in between.
        for (std::size_t i = 0; i < r.points.size(); ++i) {
            const auto& p = r.points[i];
            if (p.type != BranchPointType::Regular)
                continue;
            const bool middle = i > folds[0] && i < folds[1];
            QVERIFY2(
                p.stable != middle,
                qPrintable(QString("w = %1, amplitude %2, stable %3").arg(p.parameter).arg(p.amplitude).arg(p.stable)));
        }
        // The parameter decreases along the middle branch.
        QVERIFY(r.points[folds[0] + 1].parameter > r.points[folds[1] - 1].parameter);
    }

    void naturalContinuationStopsAtTheFold()
    {
        auto model = test::compiled(duffing);
        auto s = frequencySweep(*model, 0.5, 3.0);
        s.method = ContinuationMethod::Natural;
        s.minStep = 1e-4;
        const auto r = continuePeriodicSolutions(*model, zero2(), s);
        QVERIFY(!r.completed());
        QCOMPARE(r.termination.kind, core::TerminationKind::Failed);
        QCOMPARE(r.termination.criterion, core::TerminationCriterion::StepTooSmall);
        QVERIFY(r.termination.message.find("fold") != std::string::npos);  // the hint to use pseudo-arclength
        // It got close to the upper fold of the pseudo-arclength run (w about 2).
        QVERIFY(r.points.back().parameter > 1.8);
    }

    // An autonomous orbit: the period is an unknown of the branch (Van der Pol in mu).
    void autonomousBranchFollowsThePeriod()
    {
        auto model = test::compiled("param mu = 1\nx'' = mu*(1 - x^2)*x' - x\nx(0) = 2, 0\noutput x\n");
        ContinuationSettings s;
        s.parameter = 0;
        s.start = 0.5;
        s.end = 1.5;
        s.initialStep = 0.05;
        s.maxStep = 0.2;
        s.periodic.period = 6.3;
        s.periodic.integrator = test::tight();
        s.periodic.newton.residualTolerance = 1e-11;
        const auto r = continuePeriodicSolutions(*model, Eigen::Vector2d(2, 0), s);
        QVERIFY2(r.completed(), r.termination.message.c_str());
        QVERIFY(r.points.size() >= 5);
        for (const auto& p : r.points) {
            QVERIFY(p.stable);
            QCOMPARE(p.type, BranchPointType::Regular);
            // Each point's period against a direct solve at its mu.
            model->setParameters(std::vector<double>{p.parameter});
            PeriodicSettings direct = s.periodic;
            direct.period = p.period;
            const auto d = findPeriodicSolution(*model, p.initialState, direct);
            QVERIFY(d.converged());
            QVERIFY(std::abs(d.period - p.period) < 1e-7);
            QVERIFY(std::abs(p.amplitude - 2.0) < 0.02);  // the limit cycle's amplitude stays near 2
        }
        QVERIFY(r.points.back().period > r.points.front().period);  // the period grows with mu
    }

    void progressAndCancellation()
    {
        auto model = test::compiled(linear);
        auto s = frequencySweep(*model, 0.5, 2.0);
        std::stop_source source;
        std::size_t count = 0;
        const auto r = continuePeriodicSolutions(
            *model, zero2(), s,
            [&](const BranchPoint&) {
                if (++count == 3)
                    source.request_stop();
            },
            source.get_token());
        QVERIFY(!r.completed());
        QCOMPARE(r.termination.kind, core::TerminationKind::Cancelled);
        QCOMPARE(r.points.size(), std::size_t(3));
    }

    void badSettings()
    {
        auto model = test::compiled(linear);
        auto s = frequencySweep(*model, 0.5, 2.0);
        s.parameter = 17;
        const auto unknown = continuePeriodicSolutions(*model, zero2(), s);
        QCOMPARE(unknown.termination.kind, core::TerminationKind::Failed);
        QCOMPARE(unknown.termination.criterion, core::TerminationCriterion::InvalidSetting);
        QVERIFY(!unknown.termination.message.empty());
        s = frequencySweep(*model, 0.5, 2.0);
        s.initialStep = 0;
        QVERIFY(continuePeriodicSolutions(*model, zero2(), s).points.empty());
        s = frequencySweep(*model, -1.0, 2.0);  // period 2 pi / w < 0
        const auto r = continuePeriodicSolutions(*model, zero2(), s);
        QVERIFY(r.points.empty());
        QCOMPARE(r.termination.criterion, core::TerminationCriterion::InvalidSetting);
        QVERIFY(r.termination.message.find("period") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestContinuation)
#include "test_continuation.moc"
