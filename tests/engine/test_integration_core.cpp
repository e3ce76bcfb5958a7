// The integration core: every method behind one stepper interface and one driver, shared by
// simulation and shooting; its statistics; stop-and-restart (what event location will use); the
// pluggable linear solvers; the process's thread pool.
#include "BvpTestSupport.h"
#include "IntegrationTestSupport.h"

#include "engine/core/SolverStatistics.h"
#include "engine/core/ThreadPool.h"
#include "engine/integrate/Integrator.h"
#include "engine/integrate/IterationMatrix.h"
#include "engine/integrate/ModelSystem.h"
#include "engine/shooting/IntervalIntegrator.h"

#include <QtTest/QtTest>

#include <atomic>
#include <cmath>
#include <stdexcept>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

const std::vector<IntegrationMethod> allMethods{
    IntegrationMethod::Dopri5,        IntegrationMethod::Rosenbrock4,    IntegrationMethod::RK4,
    IntegrationMethod::Euler,         IntegrationMethod::SparseImplicit, IntegrationMethod::ImplicitEuler,
    IntegrationMethod::CrankNicolson,
};

bool isFixedStep(IntegrationMethod m)
{
    return m == IntegrationMethod::RK4 || m == IntegrationMethod::Euler || m == IntegrationMethod::ImplicitEuler ||
        m == IntegrationMethod::CrankNicolson;
}

// Accuracy each method reaches on x'' = -x over [0, 2] at its settings below.
double tolerance(IntegrationMethod m)
{
    switch (m) {
    case IntegrationMethod::Euler:
    case IntegrationMethod::ImplicitEuler: return 5e-3;  // order 1, h = 1e-3
    case IntegrationMethod::CrankNicolson: return 1e-6;  // order 2
    case IntegrationMethod::SparseImplicit: return 1e-5;  // order 3, error control on the states
    default: return 1e-8;
    }
}

integrate::IntegratorSettings settingsFor(IntegrationMethod m)
{
    auto s = test::tight(m, 1e-10, 1e-12);
    if (isFixedStep(m))
        s.maxStep = 1e-3;
    return s;
}

const char* oscillator = "state x = 1\nstate v = 0\nx' = v\nv' = -x\n";

}  // namespace

class TestIntegrationCore : public QObject {
    Q_OBJECT

private slots:
    // Simulation and a shooting interval run the same stepper: both reach cos/sin at t = 2, and
    // each integration reports its cost.
    void everyMethodServesSimulationAndShooting()
    {
        for (auto method : allMethods) {
            const QString name = QString::fromStdString(integrate::methodName(method));
            auto model = test::compiled(oscillator);
            integrate::SimulationRequest request;
            request.times = {0.0, 1.0, 2.0};
            const auto settings = settingsFor(method);
            const auto trajectory = integrate::simulate(*model, request, settings);
            const double error = std::max(std::abs(trajectory.states(2, 0) - std::cos(2.0)),
                                          std::abs(trajectory.states(2, 1) + std::sin(2.0)));
            QVERIFY2(error < tolerance(method), qPrintable(name + ": " + QString::number(error)));
            QVERIFY2(trajectory.statistics.steps > 0 && trajectory.statistics.integrations == 1, qPrintable(name));
            QVERIFY2(trajectory.statistics.rhsEvaluations >= trajectory.statistics.steps, qPrintable(name));

            integrate::ModelSystem system(*model);
            shooting::BvpStage stage;
            stage.integrator = settings;
            stage.stepsPerInterval = isFixedStep(method) ? 2000 : 1;
            const double x0[2] = {1.0, 0.0};
            const auto end = shooting::integrateInterval(system, stage, 0.0, 2.0, x0, true, {}, "interval 1");
            QCOMPARE(end.size(), std::size_t{6});
            QVERIFY2(std::abs(end[0] - std::cos(2.0)) < tolerance(method), qPrintable(name));
            // Phi = [cos -sin; sin cos]^T for this rotation: dx(2)/dx0 = cos 2, dx(2)/dv0 = sin 2.
            QVERIFY2(std::abs(end[2] - std::cos(2.0)) < 10 * tolerance(method), qPrintable(name));
            QVERIFY2(std::abs(end[4] - std::sin(2.0)) < 10 * tolerance(method), qPrintable(name));
        }
    }

    // The counters are what each method does per step (SUNDIALS' CVodeGetNumRhsEvals and friends).
    void statisticsCountWhatEachMethodDoes()
    {
        // Van der Pol with mu = 5 from a large first step: the controllers reject some steps.
        auto model = test::compiled("param mu = 5\nstate x = 2\nstate v = 0\nx' = v\nv' = mu*(1 - x^2)*v - x\n");
        integrate::SimulationRequest request;
        request.times = {0.0, 10.0};
        request.initialStep = 1.0;
        {
            const auto s =
                integrate::simulate(*model, request, test::tight(IntegrationMethod::Dopri5, 1e-8, 1e-10)).statistics;
            QVERIFY(s.rejectedSteps > 0);
            // One derivative at the start, then six new stages per tried step (first same as last).
            QCOMPARE(s.rhsEvaluations, 1 + 6 * (s.steps + s.rejectedSteps));
            QCOMPARE(s.factorizations, std::size_t{0});
        }
        {
            const auto s =
                integrate::simulate(*model, request, test::tight(IntegrationMethod::Rosenbrock4, 1e-8, 1e-10))
                    .statistics;
            QVERIFY(s.rejectedSteps > 0);
            QCOMPARE(s.jacobianEvaluations, s.steps + s.rejectedSteps);
            QCOMPARE(s.factorizations, s.jacobianEvaluations);
        }
        {
            const auto s =
                integrate::simulate(*model, request, test::tight(IntegrationMethod::SparseImplicit, 1e-6, 1e-8))
                    .statistics;
            QVERIFY(s.steps > 0);
            QCOMPARE(s.factorizations, s.steps + s.rejectedSteps);
        }
        request.initialStep = 0.0;
        auto fixed = [&](IntegrationMethod m) {
            auto settings = test::tight(m);
            settings.maxStep = 0.01;
            return integrate::simulate(*model, request, settings).statistics;
        };
        QCOMPARE(fixed(IntegrationMethod::RK4).steps, std::size_t{1000});
        QCOMPARE(fixed(IntegrationMethod::RK4).rhsEvaluations, std::size_t{4000});
        QCOMPARE(fixed(IntegrationMethod::Euler).rhsEvaluations, std::size_t{1000});
        const auto theta = fixed(IntegrationMethod::CrankNicolson);
        QCOMPARE(theta.steps, std::size_t{1000});
        // At least one Newton iteration (one factorisation) per step; f and df/dx come together.
        QVERIFY(theta.factorizations >= theta.steps);
        QCOMPARE(theta.jacobianEvaluations, theta.rhsEvaluations);
    }

    // A run collects the cost of every integration it makes, also those on pool threads.
    void aRunCollectsStatisticsFromEveryThread()
    {
        auto model = test::compiled(oscillator);
        integrate::SimulationRequest request;
        request.times = {0.0, 5.0};
        const auto one = integrate::simulate(*model, request, test::tight()).statistics;
        core::RunStatistics run;
        {
            core::StatisticsScope scope(&run);
            std::vector<std::unique_ptr<eval::CompiledModel>> copies;
            for (int i = 0; i < 4; ++i)
                copies.push_back(std::make_unique<eval::CompiledModel>(*model));
            core::ThreadPool::shared().parallelFor(8, 4, [&](std::size_t, std::size_t slot) {
                integrate::simulate(*copies[slot], request, test::tight());
            });
        }
        const auto total = run.snapshot();
        QCOMPARE(total.integration.integrations, std::size_t{8});
        QCOMPARE(total.integration.steps, 8 * one.steps);
        QCOMPARE(total.integration.rhsEvaluations, 8 * one.rhsEvaluations);
        QVERIFY(total.seconds.integration > 0);
        // Outside a scope nothing is collected.
        integrate::simulate(*model, request, test::tight());
        QCOMPARE(run.snapshot().integration.integrations, std::size_t{8});
    }

    // What event location needs: a stepper stops exactly at a limit, restarts from a state it
    // interpolated inside its last step, and the solution goes on as if nothing had happened.
    void aStepperStopsAtALimitAndRestarts()
    {
        for (auto method :
             {IntegrationMethod::Dopri5, IntegrationMethod::Rosenbrock4, IntegrationMethod::SparseImplicit}) {
            const QString name = QString::fromStdString(integrate::methodName(method));
            auto model = test::compiled(oscillator);
            integrate::ModelSystem ode(*model);
            integrate::SensitivitySystem system(ode, {}, false);
            const auto settings = test::tight(method, 1e-10, 1e-12);
            auto stepper = integrate::makeStepper(method, system, settings, {});
            const double z0[2] = {1.0, 0.0};
            stepper->initialize(z0, 0.0, 0.01);
            while (stepper->time() < 0.7) {
                stepper->step(0.7, true);
                QVERIFY2(stepper->time() <= 0.7, qPrintable(name));
            }
            QCOMPARE(stepper->time(), 0.7);  // exactly, not within rounding
            // "An event at t = 0.55": back to the state there, restart, go on to 2.
            double z[2];
            stepper->interpolate(std::max(0.55, stepper->previousTime()), z);
            const double restart = std::max(0.55, stepper->previousTime());
            stepper->initialize(z, restart, stepper->nextStep());
            while (stepper->time() < 2.0)
                stepper->step(2.0, true);
            QCOMPARE(stepper->time(), 2.0);
            const double error = std::abs(stepper->state()[0] - std::cos(2.0));
            QVERIFY2(error < tolerance(method), qPrintable(name + ": " + QString::number(error)));
        }
    }

    // dopri5 computes its step-size factor only when asked: min(next step, cap) without it (the driver's
    // question at every input sample) must equal min(nextStep(), cap) exactly, for caps on either side
    // of the next step and within rounding of it, after steps cut short by a limit and steps that were
    // not, and with a largest step set.
    void theNextStepWithinACapIsExact()
    {
        std::size_t checked = 0, shorter = 0;
        for (const double maxStep : {0.0, 0.05}) {
            auto model = test::compiled(oscillator);
            integrate::ModelSystem ode(*model);
            integrate::SensitivitySystem system(ode, {}, false);
            auto settings = test::tight(IntegrationMethod::Dopri5, 1e-8, 1e-10);
            settings.maxStep = maxStep;
            auto stepper = integrate::makeStepper(IntegrationMethod::Dopri5, system, settings, {});
            const double z0[2] = {1.0, 0.0};
            stepper->initialize(z0, 0.0, 1e-4);
            for (int k = 0; k < 400; ++k) {
                // Limits at "samples" 0.01 apart for the first half, then far away.
                const double limit = k < 200 ? 0.01 * std::floor(stepper->time() / 0.01 + 1.0) : 100.0;
                stepper->step(limit, true);
                const double next = stepper->nextStep();
                for (const double cap :
                     {0.5 * next, next * (1 - 1e-15), next * (1 - 1e-12), next, next * (1 + 1e-15), next * (1 + 1e-12),
                      2.0 * next, stepper->time() - stepper->previousTime(), 0.01, 0.05}) {
                    QVERIFY2(stepper->nextStepWithin(cap) == std::min(next, cap),
                             qPrintable(QString("step %1, cap %2").arg(k).arg(cap, 0, 'g', 17)));
                    ++checked;
                    shorter += cap < next;
                }
            }
        }
        QVERIFY(checked > 7000);
        QVERIFY(shorter > 2000);
    }

    // Samples from one run equal those of two runs joined at a restart (to the tolerance).
    void aRunCanBeSplitAtARestart()
    {
        auto model = test::compiled(oscillator);
        integrate::ModelSystem ode(*model);
        integrate::SensitivitySystem system(ode, {}, true);
        std::vector<double> whole(system.size()), part(system.size());
        const double x0[2] = {1.0, 0.0};
        system.initialState(x0, nullptr, whole.data());
        part = whole;
        integrate::IntegrationTask task;
        task.times = {0.0, 3.0};
        integrate::runIntegration(system, whole, task, test::tight(), [](std::size_t, const double*) {});
        task.times = {0.0, 1.3};
        integrate::runIntegration(system, part, task, test::tight(), [](std::size_t, const double*) {});
        task.times = {1.3, 3.0};
        integrate::runIntegration(system, part, task, test::tight(), [](std::size_t, const double*) {});
        for (std::size_t i = 0; i < whole.size(); ++i)
            QVERIFY2(std::abs(whole[i] - part[i]) < 1e-9, qPrintable(QString::number(i)));
        QVERIFY(std::abs(whole[0] - std::cos(3.0)) < 1e-9);
    }

    // The dense and the sparse LU solve the same iteration matrix to rounding.
    void denseAndSparseLinearSolversAgree()
    {
        for (std::size_t n : {6u, 120u}) {
            // A tridiagonal df/dx with a corner entry: the second-difference operator of a periodic rod.
            integrate::JacobianPattern pattern;
            pattern.rows = pattern.columns = n;
            std::vector<double> values;
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j : {(i + n - 1) % n, i, (i + 1) % n}) {
                    pattern.row.push_back(i);
                    pattern.column.push_back(j);
                    values.push_back(i == j ? -2.0 - 0.01 * static_cast<double>(i) : 1.0);
                }
            integrate::IterationMatrix matrix(pattern);
            QCOMPARE(matrix.dense(), n < 40);
            auto J = matrix.jacobianPattern();
            matrix.setJacobian(J, values.data());
            QVERIFY(matrix.factorise(J, 0.3));
            const Eigen::MatrixXd dense =
                Eigen::MatrixXd::Identity(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n)) -
                0.3 * Eigen::MatrixXd(J);
            const Eigen::MatrixXd rhs = Eigen::MatrixXd::Random(static_cast<Eigen::Index>(n), 3);
            const Eigen::MatrixXd expected = dense.fullPivLu().solve(rhs);
            QVERIFY((matrix.solve(rhs) - expected).cwiseAbs().maxCoeff() < 1e-12);
            integrate::IterationMatrix::RowBlock rows = rhs, solution;
            matrix.solveRows(rows, solution);
            QVERIFY((Eigen::MatrixXd(solution) - expected).cwiseAbs().maxCoeff() < 1e-12);
        }
        // A singular iteration matrix is reported, not solved.
        integrate::JacobianPattern one;
        one.rows = one.columns = 1;
        one.row = {0};
        one.column = {0};
        integrate::IterationMatrix matrix(one);
        auto J = matrix.jacobianPattern();
        const double value = 2.0;
        matrix.setJacobian(J, &value);
        QVERIFY(!matrix.factorise(J, 0.5));
    }

    void threadPoolRunsEveryIndexOnceOnItsSlots()
    {
        auto& pool = core::ThreadPool::shared();
        for (std::size_t participants : {1u, 2u, 3u, 8u}) {
            std::vector<std::atomic<int>> hits(100);
            std::atomic<std::size_t> largestSlot{0};
            pool.parallelFor(hits.size(), participants, [&](std::size_t i, std::size_t slot) {
                ++hits[i];
                std::size_t seen = largestSlot.load();
                while (slot > seen && !largestSlot.compare_exchange_weak(seen, slot)) {
                }
            });
            for (const auto& h : hits)
                QCOMPARE(h.load(), 1);
            QVERIFY(largestSlot.load() < core::ThreadPool::participantsFor(participants, hits.size()));
        }
        // Nested calls (a fit inside a study realisation) finish: the caller works through them.
        std::atomic<int> inner{0};
        pool.parallelFor(4, 0, [&](std::size_t, std::size_t) {
            pool.parallelFor(10, 0, [&](std::size_t, std::size_t) { ++inner; });
        });
        QCOMPARE(inner.load(), 40);
    }

    // The error of the lowest failing index comes back, whatever the thread count.
    void threadPoolRethrowsTheLowestFailure()
    {
        for (std::size_t participants : {1u, 2u, 4u}) {
            try {
                core::ThreadPool::shared().parallelFor(50, participants, [](std::size_t i, std::size_t) {
                    if (i == 7 || i == 31 || i == 44)
                        throw std::runtime_error("index " + std::to_string(i));
                });
                QFAIL("expected the failure to come back");
            } catch (const std::runtime_error& e) {
                QCOMPARE(std::string(e.what()), std::string("index 7"));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestIntegrationCore)
#include "test_integration_core.moc"
