// The robust shooting Newton (Vankan 1992, ch. 4): the Jacobian re-use rule (eq. 4.42) in periodic
// shooting, continuation and periodic-response fits, and modified steps (Gay 1976) where the
// shooting Jacobian is singular: at a fold of the Duffing frequency response and on the impacting
// cart's grazing orbit.
#include "EstimateTestSupport.h"

#include "engine/core/SolverStatistics.h"
#include "engine/model/ModelBuilder.h"
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

    // A periodic-response fit (Vankan 1992, ch. 5-6): with the re-use rule every orbit solve starts
    // from the last orbit's Jacobian (the one its sensitivities used); the estimates are the same
    // to the integration's accuracy, with far fewer Jacobians built.
    void periodicResponseFitReusesJacobians()
    {
        const char* model = "param c = 0.2 [0, 10]\nparam k3 = 0.5 [0, 100]\nparam B = 0.5 fixed\n"
                            "x'' = -c*x' - x - k3*x^3 + B*cos(t)\nx(0) = 0, 0\noutput x\n";
        const auto source = test::compiledSource(model);
        // The steady state: 30 periods from rest (the transient decays like exp(-0.1 t) < 1e-8), then one
        // period sampled 60 times.
        std::vector<double> times{0.0};
        for (int i = 0; i < 60; ++i)
            times.push_back(30 * twoPi + twoPi * i / 60.0);
        auto data = test::simulatedExperiment(source, source->parameterValues, times);
        data.times.erase(data.times.begin());
        data.measured = Eigen::MatrixXd(data.measured.bottomRows(60));
        estimate::FitSettings s;
        s.method = estimate::EstimationMethod::PeriodicResponse;
        s.periodic.period = twoPi;
        s.outputWeights["x"] = 1.0;
        std::vector<double> start = source->parameterValues;
        start[0] = 0.3;
        start[1] = 0.4;
        s.periodic.jacobianReuse = JacobianReuse::Never;
        const auto every = estimate::fit(source, start, {data}, s);
        s.periodic.jacobianReuse = JacobianReuse::Always;
        const auto reusing = estimate::fit(source, start, {data}, s);
        QVERIFY2(every.converged(), every.termination.message.c_str());
        QVERIFY2(reusing.converged(), reusing.termination.message.c_str());
        const auto& a = every.statistics.newton;
        const auto& b = reusing.statistics.newton;
        qInfo("every iteration: %zu Newton iterations, %zu Jacobians; re-use: %zu iterations, %zu Jacobians, %zu "
              "re-used; c = %.10f / %.10f, k3 = %.10f / %.10f",
              a.iterations, a.jacobianBuilds, b.iterations, b.jacobianBuilds, b.jacobianReuses,
              every.parameters[0].value, reusing.parameters[0].value, every.parameters[1].value,
              reusing.parameters[1].value);
        QCOMPARE(a.jacobianReuses, std::size_t(0));
        QVERIFY(b.jacobianReuses > 0);
        QVERIFY(b.jacobianBuilds * 2 < a.jacobianBuilds);
        for (std::size_t i = 0; i < 2; ++i)
            QVERIFY(std::abs(every.parameters[i].value - reusing.parameters[i].value) < 1e-6);
        QVERIFY(std::abs(reusing.parameters[0].value - 0.2) < 1e-5);
        QVERIFY(std::abs(reusing.parameters[1].value - 0.5) < 1e-5);
    }

    // The impacting cart at kc = 1 (b = 2, gamma = 1): its orbit x = -sin t grazes both walls at zero
    // speed, so the variational monodromy is the free mass's [[1, 2 pi], [0, 1]] and the shooting
    // Jacobian M - I is singular, even at the orbit. Plain Newton stops; modified steps converge
    // (without the differenced Jacobian the automatic mode falls back to).
    void grazingOrbitConvergesByModifiedSteps_data()
    {
        QTest::addColumn<double>("x0");
        QTest::addColumn<double>("v0");
        QTest::newRow("from (-0.5, 0.5)") << -0.5 << 0.5;
        QTest::newRow("from the grazing orbit (0, -1)") << 0.0 << -1.0;
        QTest::newRow("from (0.01, -0.99)") << 0.01 << -0.99;
    }
    void grazingOrbitConvergesByModifiedSteps()
    {
        QFETCH(double, x0);
        QFETCH(double, v0);
        auto source = eval::compileModel(model::loadModel(SYSID_SOURCE_DIR "/resources/examples/impact_cart.model"));
        eval::CompiledModel cart(source);
        setParameter(cart, "kc", 1.0);
        setParameter(cart, "gamma", 1.0);
        PeriodicSettings s;
        s.period = twoPi;
        s.jacobian = ShootingJacobian::Variational;
        s.newton.modifiedSteps = false;
        const Eigen::Vector2d start(x0, v0);
        const auto plain = findPeriodicSolution(cart, start, s);
        QVERIFY(!plain.converged());
        QCOMPARE(plain.newton.termination.criterion, core::TerminationCriterion::SingularJacobian);
        s.newton.modifiedSteps = true;
        const auto r = findPeriodicSolution(cart, start, s);
        QVERIFY2(r.converged(), r.newton.termination.message.c_str());
        QVERIFY(r.newton.modifiedSteps > 0);
        // Near the grazing orbit the residual is flat in x(0) to the tolerance (the cart coasts
        // between the walls); the orbit closes and lies within 1e-3 of x = -sin t.
        QVERIFY((r.initialState - Eigen::Vector2d(0.0, -1.0)).cwiseAbs().maxCoeff() < 1e-3);
        QVERIFY(r.newton.residual.cwiseAbs().maxCoeff() <= s.newton.residualTolerance);
        qInfo("plain Newton: %s after %zu iterations; modified: x(0) = (%.3e, %.10f) after %zu iterations, %zu "
              "modified steps",
              plain.newton.termination.message.c_str(), plain.newton.iterations, r.initialState(0), r.initialState(1),
              r.newton.iterations, r.newton.modifiedSteps);
    }

    // The upper fold of the Duffing frequency response (x'' + 0.1 x' + x + 0.5 x^3 = 0.5 cos(w t)):
    // located by pseudo-arclength continuation; single shooting still solves the orbit 1e-7 below
    // it, where a Floquet multiplier is within 1e-3 of 1 (the Jacobian M - I nearly singular); past
    // it, where no orbit exists nearby, Newton says so after a few modified steps instead of
    // iterating to its limit.
    void duffingNearItsFold()
    {
        auto model = test::compiled(duffing);
        ContinuationSettings c;
        c.parameter = test::parameter(*model, "w");
        c.start = 1.0;
        c.end = 2.5;
        c.initialStep = 0.02;
        c.maxStep = 0.1;
        c.periodOf = forcingPeriodOfFrequency();
        c.periodic.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-10, 1e-12);
        c.periodic.newton.residualTolerance = 1e-9;
        std::stop_source firstFold;  // the branch is followed up to its first fold only
        const auto branch = continuePeriodicSolutions(
            *model, Eigen::VectorXd::Zero(2), c,
            [&](const BranchPoint& p) {
                if (p.type == BranchPointType::Fold)
                    firstFold.request_stop();
            },
            firstFold.get_token());
        const BranchPoint* fold = nullptr;
        for (const auto& p : branch.points)
            if (p.type == BranchPointType::Fold && !fold)
                fold = &p;
        QVERIFY2(fold, branch.termination.message.c_str());
        QVERIFY(fold->parameter > 1.8 && fold->parameter < 2.0);
        PeriodicSettings s = c.periodic;
        auto solveAt = [&](double w) {
            setParameter(*model, "w", w);
            s.period = twoPi / w;
            return findPeriodicSolution(*model, fold->initialState, s);
        };
        const auto below = solveAt(fold->parameter - 1e-7);
        QVERIFY2(below.converged(), below.newton.termination.message.c_str());
        const double largest = std::abs(below.floquet.multipliers.front());
        QVERIFY(largest > 0.999 && largest < 1.0);
        QVERIFY((below.initialState - fold->initialState).cwiseAbs().maxCoeff() < 1e-2);

        const auto past = solveAt(fold->parameter + 1e-5);
        QVERIFY(!past.converged());
        QCOMPARE(past.newton.termination.criterion, core::TerminationCriterion::SingularJacobian);
        QVERIFY(past.newton.modifiedSteps > 0);
        QVERIFY2(past.newton.termination.message.find("no solution near here") != std::string::npos,
                 past.newton.termination.message.c_str());
        qInfo("fold at w = %.10f; at w - 1e-7: %zu iterations, |mu| = %.6f; at w + 1e-5: %s after %zu iterations",
              fold->parameter, below.newton.iterations, largest, past.newton.termination.message.c_str(),
              past.newton.iterations);
    }
};

QTEST_GUILESS_MAIN(TestPeriodicNewton)
#include "test_periodic_newton.moc"
