// The robust shooting Newton (Vankan 1992, ch. 4): the Jacobian re-use rule (eq. 4.42) in periodic
// shooting, continuation and periodic-response fits, and modified steps (Gay 1976) where the
// shooting Jacobian is singular: at a fold of the Duffing frequency response and on the impacting
// cart's grazing orbit.
#include "EstimateTestSupport.h"

#include "engine/core/SolverStatistics.h"
#include "engine/shooting/Continuation.h"
#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>
#include <numbers>

using namespace sysid;
using namespace sysid::shooting;

namespace {

constexpr double twoPi = 2 * std::numbers::pi;

// x'' + 0.1 x' + x + 0.5 x^3 = 0.5 cos(w t) (resources/examples/duffing_frequency_response.model)
const char* duffing = "param c = 0.1\nparam a = 0.5\nparam F = 0.5\nparam w = 1\n"
                      "x'' = -c*x' - x - a*x^3 + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";

PeriodicSettings duffingSettings(double w, std::size_t intervals, JacobianReuse reuse)
{
    PeriodicSettings s;
    s.period = twoPi / w;
    s.intervals = intervals;
    s.newton.residualTolerance = 1e-10;
    s.jacobianReuse = reuse;
    return s;
}

void setParameter(eval::CompiledModel& model, const char* name, double value)
{
    std::vector<double> p(model.parameters().begin(), model.parameters().end());
    p[test::parameter(model, name)] = value;
    model.setParameters(p);
}

// The orbits of a sequence of nearby parameter values (a fit's, a sweep's), each solve warm-started
// from the last orbit and, through the store, from the last factorised Jacobian.
struct Sequence {
    Eigen::VectorXd last;
    core::NewtonStatistics newton;
    core::IntegrationStatistics integration;
};

Sequence solveSequence(eval::CompiledModel& model, PeriodicSettings s)
{
    ShootingJacobianStore store;
    s.jacobianStore = &store;
    Sequence out;
    out.last = Eigen::VectorXd::Zero(2);
    core::RunStatistics statistics;
    {
        const core::StatisticsScope scope(&statistics);
        for (int k = 0; k <= 10; ++k) {
            setParameter(model, "F", 0.5 * (1.0 + 0.003 * k));
            const auto r = findPeriodicSolution(model, out.last, s);
            if (!r.converged())
                throw std::runtime_error(r.newton.termination.message);
            out.last = r.initialState;
        }
    }
    out.newton = statistics.snapshot().newton;
    out.integration = statistics.snapshot().integration;
    return out;
}

}  // namespace

class TestPeriodicNewton : public QObject {
    Q_OBJECT
private slots:
    // Automatic re-uses the Jacobian where it costs integrations of its own (finite differences).
    void automaticReuseFollowsTheJacobianKind()
    {
        auto model = test::compiled(duffing);
        PeriodicSettings s = duffingSettings(1.0, 1, JacobianReuse::Automatic);
        QVERIFY(!reusesJacobian(*model, s));
        s.jacobian = ShootingJacobian::FiniteDifferences;
        QVERIFY(reusesJacobian(*model, s));
        s.jacobianReuse = JacobianReuse::Never;
        QVERIFY(!reusesJacobian(*model, s));
        s.jacobian = ShootingJacobian::Variational;
        s.jacobianReuse = JacobianReuse::Always;
        QVERIFY(reusesJacobian(*model, s));
    }

    // Eleven orbits 0.3 % apart in the forcing: the re-use rule (Vankan 1992, eq. 4.42) carries one
    // Jacobian through the sequence, for the same orbits.
    void reuseRuleOverASequenceOfOrbits_data()
    {
        QTest::addColumn<int>("jacobian");
        QTest::addColumn<int>("intervals");
        QTest::newRow("variational, single shooting") << int(ShootingJacobian::Variational) << 1;
        QTest::newRow("finite differences, single shooting") << int(ShootingJacobian::FiniteDifferences) << 1;
        QTest::newRow("finite differences, 4 intervals") << int(ShootingJacobian::FiniteDifferences) << 4;
    }
    void reuseRuleOverASequenceOfOrbits()
    {
        QFETCH(int, jacobian);
        QFETCH(int, intervals);
        auto model = test::compiled(duffing);
        PeriodicSettings s = duffingSettings(1.0, std::size_t(intervals), JacobianReuse::Never);
        s.jacobian = static_cast<ShootingJacobian>(jacobian);
        const auto every = solveSequence(*model, s);
        s.jacobianReuse = JacobianReuse::Always;
        const auto reusing = solveSequence(*model, s);
        const double difference = (every.last - reusing.last).cwiseAbs().maxCoeff();
        qInfo("every iteration: %zu iterations, %zu Jacobians, %zu integrations; re-use rule: %zu iterations, %zu "
              "Jacobians, %zu re-used, %zu integrations; |x(0) difference| = %.1e",
              every.newton.iterations, every.newton.jacobianBuilds, every.integration.integrations,
              reusing.newton.iterations, reusing.newton.jacobianBuilds, reusing.newton.jacobianReuses,
              reusing.integration.integrations, difference);
        QCOMPARE(every.newton.jacobianReuses, std::size_t(0));
        QVERIFY(reusing.newton.jacobianReuses > 0);
        QVERIFY(reusing.newton.jacobianBuilds * 4 < every.newton.jacobianBuilds);
        // The residuals of chord steps come from the flow alone; with a variational Jacobian the
        // full residual's steps are chosen for the sensitivities too, so the orbits agree to the
        // integration's accuracy (rtol 1e-8), with differenced Jacobians to the Newton tolerance.
        QVERIFY(difference < (s.jacobian == ShootingJacobian::Variational ? 1e-7 : 1e-9));
        if (s.jacobian == ShootingJacobian::FiniteDifferences)
            QVERIFY(reusing.integration.integrations < every.integration.integrations);
    }
};

QTEST_GUILESS_MAIN(TestPeriodicNewton)
#include "test_periodic_newton.moc"
