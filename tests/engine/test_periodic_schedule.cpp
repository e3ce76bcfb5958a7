// The loose-to-tight tolerance schedule of findPeriodicSolution (RMUSN, seed 001 §5.4) and the
// step-size hints that shooting hands from one integration of an interval to the next.
#include "IntegrationTestSupport.h"
#include "VectorTestSupport.h"

#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <stop_token>

using namespace sysid;
using namespace sysid::shooting;
using Eigen::VectorXd;
using test::vec;

namespace {

constexpr double pi = std::numbers::pi;

// The forced hardening Duffing oscillator of resources/examples/duffing_frequency_response.model at w = 1.
const char* duffingModel = "param c = 0.1\nparam a = 0.5\nparam F = 0.5\nparam w = 1\n"
                           "x'' = -c*x' - x - a*x^3 + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";
const char* linearModel = "param c = 0.3\nparam k = 2\nparam F = 1.5\nparam w = 1.3\n"
                          "x'' = -c*x' - k*x + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";

PeriodicSettings settingsFor(std::size_t intervals, double rtol, double looseTolerance)
{
    PeriodicSettings s;
    s.period = 2 * pi;
    s.intervals = intervals;
    s.integrator = test::tight(integrate::IntegrationMethod::Dopri5, rtol, rtol * 1e-2);
    s.newton.residualTolerance = rtol;
    s.looseTolerance = looseTolerance;
    return s;
}

std::size_t tightResiduals(const PeriodicSolution& s)
{
    return s.newton.residualEvaluations - s.looseStage.residualEvaluations;
}

}  // namespace

class TestPeriodicSchedule : public QObject {
    Q_OBJECT
private slots:
    // The scheduled solve finds the orbit of the tight-only solve, with fewer tight integrations.
    void scheduleReachesTheTightOrbit_data()
    {
        QTest::addColumn<int>("intervals");
        QTest::newRow("single shooting") << 1;
        QTest::newRow("8 intervals") << 8;
    }
    void scheduleReachesTheTightOrbit()
    {
        QFETCH(int, intervals);
        auto model = test::compiled(duffingModel);
        const auto N = static_cast<std::size_t>(intervals);
        const auto tightOnly = findPeriodicSolution(*model, vec({0, 0}), settingsFor(N, 1e-10, 0.0));
        const auto scheduled = findPeriodicSolution(*model, vec({0, 0}), settingsFor(N, 1e-10, 1e-4));
        QVERIFY2(tightOnly.converged(), tightOnly.newton.termination.message.c_str());
        QVERIFY2(scheduled.converged(), scheduled.newton.termination.message.c_str());
        QCOMPARE(tightOnly.looseStage.iterations, std::size_t(0));
        QVERIFY(scheduled.looseStage.converged());
        QVERIFY(scheduled.looseStage.iterations >= 3);  // the damped start from x = 0 ran loosely
        QVERIFY(scheduled.newton.iterations - scheduled.looseStage.iterations <= 2);
        qInfo("tight residual evaluations: %zu with the schedule, %zu without", tightResiduals(scheduled),
              tightResiduals(tightOnly));
        QVERIFY(tightResiduals(scheduled) <= 3);
        QVERIFY(tightResiduals(scheduled) < tightResiduals(tightOnly));
        QVERIFY((scheduled.initialState - tightOnly.initialState).cwiseAbs().maxCoeff() < 1e-9);
        QVERIFY((scheduled.monodromy - tightOnly.monodromy).cwiseAbs().maxCoeff() < 1e-8);
        QVERIFY((scheduled.states - tightOnly.states).cwiseAbs().maxCoeff() < 1e-9);
        QVERIFY(scheduled.newton.residual.cwiseAbs().maxCoeff() <= 1e-10);
    }

    // Linear forcing: the steady state x = A cos(wt) + B sin(wt) is known exactly.
    void scheduleMeetsTheAnalyticSteadyState()
    {
        auto model = test::compiled(linearModel);
        auto settings = settingsFor(1, 1e-10, 1e-4);
        settings.period = 2 * pi / 1.3;
        const auto s = findPeriodicSolution(*model, vec({0, 0}), settings);
        QVERIFY2(s.converged(), s.newton.termination.message.c_str());
        QVERIFY(s.looseStage.iterations >= 1);
        const double a = 2 - 1.3 * 1.3, b = 0.3 * 1.3, d = a * a + b * b;
        const VectorXd exact = vec({1.5 * a / d, 1.5 * b / d * 1.3});
        QVERIFY((s.initialState - exact).cwiseAbs().maxCoeff() < 1e-9);
    }

    // Observers see one run of iterations, numbered on across the stages.
    void observerNumbersAcrossStages()
    {
        auto model = test::compiled(duffingModel);
        std::vector<std::size_t> seen;
        const auto s = findPeriodicSolution(*model, vec({0, 0}), settingsFor(1, 1e-10, 1e-4),
                                            [&seen](const NewtonIteration& step) { seen.push_back(step.iteration); });
        QVERIFY(s.converged());
        QCOMPARE(seen.size(), s.newton.iterations);
        for (std::size_t k = 0; k < seen.size(); ++k)
            QCOMPARE(seen[k], k + 1);
    }

    // A loose stage that fails leaves nothing behind: the tight stage starts from the guess and
    // gives bit for bit the tight-only result.
    void failedLooseStageRestartsFromTheGuess()
    {
        auto model = test::compiled(duffingModel);
        for (std::size_t intervals : {1u, 4u}) {
            auto tight = settingsFor(intervals, 1e-10, 0.0);
            tight.newton.maxIterations = 2;  // too few from x = 0, loose or tight
            auto scheduled = tight;
            scheduled.looseTolerance = 1e-4;
            const auto a = findPeriodicSolution(*model, vec({0, 0}), tight);
            const auto b = findPeriodicSolution(*model, vec({0, 0}), scheduled);
            QCOMPARE(b.looseStage.termination.kind, core::TerminationKind::IterationLimit);
            QCOMPARE(b.newton.termination.kind, a.newton.termination.kind);
            QCOMPARE(b.newton.termination.criterion, a.newton.termination.criterion);
            QCOMPARE(b.newton.termination.message, a.newton.termination.message);
            QCOMPARE(b.newton.iterations, a.newton.iterations + b.looseStage.iterations);
            QVERIFY(b.newton.x == a.newton.x);
        }
    }

    // No schedule when the loose tolerance is not at least 100 times looser, nor for fixed steps.
    void scheduleOnlyWhenItIsLooser()
    {
        auto model = test::compiled(duffingModel);
        auto settings = settingsFor(1, 1e-7, 1e-6);
        auto s = findPeriodicSolution(*model, vec({0, 0}), settings);
        QVERIFY(s.converged());
        QCOMPARE(s.looseStage.iterations, std::size_t(0));
        settings.looseTolerance = 0.0;
        const auto off = findPeriodicSolution(*model, vec({0, 0}), settings);
        QVERIFY(off.initialState == s.initialState);

        settings.integrator.method = integrate::IntegrationMethod::RK4;
        settings.integrator.maxStep = 2 * pi / 400;
        settings.looseTolerance = 1e-2;
        s = findPeriodicSolution(*model, vec({0, 0}), settings);
        QVERIFY2(s.converged(), s.newton.termination.message.c_str());
        QCOMPARE(s.looseStage.iterations, std::size_t(0));
    }

    void cancelledBeforeTheStart()
    {
        auto model = test::compiled(duffingModel);
        std::stop_source source;
        source.request_stop();
        const auto s = findPeriodicSolution(*model, vec({0, 0}), settingsFor(4, 1e-10, 1e-4), {}, source.get_token());
        QCOMPARE(s.newton.termination.kind, core::TerminationKind::Cancelled);
    }

    // A step hint changes the step sequence, not the answer: the end point stays within the
    // tolerance, and starting from the step the previous run ended with saves the growth steps.
    void stepHintKeepsTheAnswer()
    {
        auto model = test::compiled(duffingModel);
        integrate::SimulationRequest request;
        request.times = {0.0, pi / 4};
        request.initialState = std::vector<double>{1.0, 0.3};
        request.initialStateSensitivity = true;
        const auto settings = test::tight(integrate::IntegrationMethod::Dopri5, 1e-8, 1e-10);
        const auto fresh = integrate::simulate(*model, request, settings);
        QVERIFY(fresh.lastStep > 0);
        request.initialStep = fresh.lastStep;
        const auto hinted = integrate::simulate(*model, request, settings);
        qInfo("steps: %zu from the default start, %zu from the hint %.3g", fresh.statistics.steps,
              hinted.statistics.steps, fresh.lastStep);
        QVERIFY(hinted.statistics.steps < fresh.statistics.steps);
        const auto exact = integrate::simulate(*model, request, test::tight());
        QVERIFY((hinted.states.row(1) - exact.states.row(1)).cwiseAbs().maxCoeff() < 1e-7);
        QVERIFY((hinted.stateInitialSensitivity.back() - exact.stateInitialSensitivity.back()).cwiseAbs().maxCoeff() <
                1e-6);
        // A hint larger than the interval is cut to it; fixed-step methods report no step.
        request.initialStep = 100.0;
        const auto huge = integrate::simulate(*model, request, settings);
        QVERIFY((huge.states.row(1) - exact.states.row(1)).cwiseAbs().maxCoeff() < 1e-7);
        auto rk4 = settings;
        rk4.method = integrate::IntegrationMethod::RK4;
        rk4.maxStep = pi / 400;
        QCOMPARE(integrate::simulate(*model, request, rk4).lastStep, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestPeriodicSchedule)
#include "test_periodic_schedule.moc"
