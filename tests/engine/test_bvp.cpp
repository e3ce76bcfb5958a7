// The multiple shooting TPBVP solver against analytic solutions.
#include "BvpTestSupport.h"
#include "IntegrationTestSupport.h"

#include "engine/shooting/BandLu.h"
#include "engine/shooting/BoundaryValueProblem.h"
#include "engine/integrate/ModelSystem.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stop_token>

using namespace sysid;
using namespace sysid::shooting;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using integrate::IntegrationMethod;

namespace {

// y'' = y, y(0) = 0, y(1) = 1: y = sinh t / sinh 1.
test::LambdaOde linearOde()
{
    return test::secondOrder([](double, double y) { return y; }, [](double, double) { return 1.0; });
}

// y'' = 1.5 y^2, y(0) = 4, y(1) = 1: y = 4 / (1 + t)^2 (one of its two solutions).
test::LambdaOde quadraticOde()
{
    return test::secondOrder([](double, double y) { return 1.5 * y * y; }, [](double, double y) { return 3.0 * y; });
}
double quadraticY(double t)
{
    return 4.0 / ((1 + t) * (1 + t));
}
double quadraticDy(double t)
{
    return -8.0 / ((1 + t) * (1 + t) * (1 + t));
}

// y'' = L^2 y, y(0) = 0, y(1) = 1 with L = 1000: y = sinh(L t) / sinh(L), written without overflow.
constexpr double kRate = 1000.0;
test::LambdaOde steepOde()
{
    return test::secondOrder([](double, double y) { return kRate * kRate * y; },
                             [](double, double) { return kRate * kRate; });
}
double steepY(double t)
{
    return std::exp(kRate * (t - 1)) * (1 - std::exp(-2 * kRate * t)) / (1 - std::exp(-2 * kRate));
}
double steepDy(double t)
{
    return kRate * std::exp(kRate * (t - 1)) * (1 + std::exp(-2 * kRate * t)) / (1 - std::exp(-2 * kRate));
}

BvpSettings settingsWith(std::size_t points, BvpStage stage, double b = 1.0)
{
    BvpSettings s;
    s.shootingPoints = uniformShootingPoints(0.0, b, points);
    s.stages = {stage};
    s.threads = 1;
    return s;
}

// Largest deviation of the nodes (scaled by `derivativeScale` in the second column) from y, y'.
template <class Y, class Dy>
double nodeError(const BvpResult& r, Y y, Dy dy, double derivativeScale = 1.0)
{
    double e = 0.0;
    for (std::size_t i = 0; i < r.shootingPoints.size(); ++i) {
        const double t = r.shootingPoints[i];
        const auto row = static_cast<Eigen::Index>(i);
        e = std::max(e, std::abs(r.nodes(row, 0) - y(t)));
        e = std::max(e, std::abs(r.nodes(row, 1) - dy(t)) / derivativeScale);
    }
    return e;
}

BvpResult solveQuadratic(std::size_t points, BvpStage stage, IntervalJacobian jacobian = IntervalJacobian::Variational,
                         std::size_t threads = 1)
{
    auto s = settingsWith(points, stage);
    s.jacobian = jacobian;
    s.threads = threads;
    return solveBoundaryValueProblem(quadraticOde(), test::dirichlet(4, 1), test::linearGuess(s.shootingPoints, 4, 1),
                                     s);
}

}  // namespace

class TestBvp : public QObject {
    Q_OBJECT
private slots:
    // Band LU against a dense LU on a random block-bidiagonal matrix with boundary rows.
    void bandLuMatchesDenseLu()
    {
        const std::size_t n = 3, p = 2, m = 6, N = n * m;
        BandLu band(N, p + n - 1, n - 1);
        MatrixXd dense = MatrixXd::Zero(static_cast<Eigen::Index>(N), static_cast<Eigen::Index>(N));
        std::srand(7);
        auto put = [&](std::size_t i, std::size_t j, double v) {
            band(i, j) = v;
            dense(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = v;
        };
        band.setZero();
        for (std::size_t r = 0; r < p; ++r)
            for (std::size_t c = 0; c < n; ++c)
                put(r, c, std::rand() / double(RAND_MAX) - 0.5);
        for (std::size_t i = 0; i + 1 < m; ++i)
            for (std::size_t r = 0; r < n; ++r) {
                for (std::size_t c = 0; c < n; ++c)
                    put(p + i * n + r, i * n + c, std::rand() / double(RAND_MAX) - 0.5);
                put(p + i * n + r, (i + 1) * n + r, -1.0);
            }
        for (std::size_t r = 0; r < n - p; ++r)
            for (std::size_t c = 0; c < n; ++c)
                put(p + (m - 1) * n + r, (m - 1) * n + c, std::rand() / double(RAND_MAX) - 0.5);
        const VectorXd rhs = VectorXd::LinSpaced(static_cast<Eigen::Index>(N), -1, 2);
        band.factorize();
        const VectorXd x = band.solve(rhs);
        const VectorXd reference = dense.partialPivLu().solve(rhs);
        QVERIFY((x - reference).cwiseAbs().maxCoeff() < 1e-12 * (1 + reference.cwiseAbs().maxCoeff()));
        QVERIFY((dense * x - rhs).cwiseAbs().maxCoeff() < 1e-12);

        BandLu singular(4, 1, 1);
        singular.setZero();
        singular(0, 0) = 1.0;
        singular(1, 1) = 1.0;  // rows 2 and 3 empty
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, singular.factorize());
    }

    void linearProblemMatchesSinh()
    {
        auto s = settingsWith(11, test::stage(IntegrationMethod::Dopri5));
        const auto r = solveBoundaryValueProblem(linearOde(), test::dirichlet(0, 1), MatrixXd::Zero(11, 2), s);
        QVERIFY2(r.converged(), r.message.c_str());
        const double s1 = std::sinh(1.0);
        auto y = [s1](double t) { return std::sinh(t) / s1; };
        auto dy = [s1](double t) { return std::cosh(t) / s1; };
        QVERIFY2(nodeError(r, y, dy) < 1e-8, qPrintable(QString::number(nodeError(r, y, dy))));
        QVERIFY(r.totalIterations <= 3);  // linear: one Newton step, up to integration error

        std::vector<double> times;
        for (int k = 0; k <= 36; ++k)
            times.push_back(k / 36.0);
        const MatrixXd samples = sampleSolution(linearOde(), r, times, test::tight());
        double e = 0;
        for (std::size_t k = 0; k < times.size(); ++k) {
            e = std::max(e, std::abs(samples(static_cast<Eigen::Index>(k), 0) - y(times[k])));
            e = std::max(e, std::abs(samples(static_cast<Eigen::Index>(k), 1) - dy(times[k])));
        }
        QVERIFY2(e < 1e-8, qPrintable(QString::number(e)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sampleSolution(linearOde(), r, {1.5}, test::tight()));
    }

    void nonlinearProblemMatchesAnalyticSolution()
    {
        const auto r = solveQuadratic(11, test::stage(IntegrationMethod::Dopri5));
        QVERIFY2(r.converged(), r.message.c_str());
        QVERIFY2(nodeError(r, quadraticY, quadraticDy) < 1e-8,
                 qPrintable(QString::number(nodeError(r, quadraticY, quadraticDy))));
    }

    // One interval overflows (e^1000); 200 intervals (growth e^5 each) converge.
    void multipleShootingSucceedsWhereSingleShootingOverflows()
    {
        auto single = settingsWith(2, test::stage(IntegrationMethod::Dopri5));
        const auto failed = solveBoundaryValueProblem(steepOde(), test::dirichlet(0, 1),
                                                      test::linearGuess(single.shootingPoints, 0, 1), single);
        qInfo("single shooting: %s", failed.message.c_str());
        QVERIFY(!failed.converged());
        QVERIFY2(failed.message.find("overflow") != std::string::npos, failed.message.c_str());
        QVERIFY2(failed.message.find("interval 1") != std::string::npos, failed.message.c_str());

        auto multiple = settingsWith(200, test::stage(IntegrationMethod::Dopri5, 1e-12, 1e-14, 1, 1e-9));
        const auto r = solveBoundaryValueProblem(steepOde(), test::dirichlet(0, 1),
                                                 test::linearGuess(multiple.shootingPoints, 0, 1), multiple);
        QVERIFY2(r.converged(), r.message.c_str());
        const double e = nodeError(r, steepY, steepDy, kRate);
        QVERIFY2(e < 1e-8, qPrintable(QString::number(e)));
    }

    void finiteDifferenceJacobianGivesTheSameSolution()
    {
        const auto variational = solveQuadratic(11, test::stage(IntegrationMethod::Dopri5));
        const auto differences =
            solveQuadratic(11, test::stage(IntegrationMethod::Dopri5), IntervalJacobian::FiniteDifferences);
        QVERIFY2(differences.converged(), differences.message.c_str());
        QVERIFY((variational.nodes - differences.nodes).cwiseAbs().maxCoeff() < 1e-9);
        QVERIFY(nodeError(differences, quadraticY, quadraticDy) < 1e-8);
    }

    // Fixed-step methods converge to their truncation error: halving h divides it by 2^order.
    void fixedStepMethodsConvergeAtTheirOrder()
    {
        auto error = [](IntegrationMethod method, std::size_t steps) {
            const auto r = solveQuadratic(11, test::stage(method, 0, 0, steps));
            if (!r.converged())
                return 1e300;
            return nodeError(r, quadraticY, quadraticDy);
        };
        const double euler1 = error(IntegrationMethod::Euler, 20), euler2 = error(IntegrationMethod::Euler, 40);
        const double rk1 = error(IntegrationMethod::RK4, 2), rk2 = error(IntegrationMethod::RK4, 4);
        qInfo("node errors: Euler 20/40 steps per interval %.3e / %.3e, RK4 2/4 steps %.3e / %.3e", euler1, euler2, rk1,
              rk2);
        QVERIFY2(euler1 < 0.1 && euler2 / euler1 > 0.4 && euler2 / euler1 < 0.6,
                 qPrintable(QString("%1 %2").arg(euler1).arg(euler2)));
        QVERIFY2(rk1 < 1e-4 && rk2 / rk1 > 1.0 / 20 && rk2 / rk1 < 1.0 / 12,
                 qPrintable(QString("%1 %2").arg(rk1).arg(rk2)));
        QVERIFY(error(IntegrationMethod::RK4, 40) < 1e-8);
        const double ie1 = error(IntegrationMethod::ImplicitEuler, 20),
                     ie2 = error(IntegrationMethod::ImplicitEuler, 40);
        const double cn1 = error(IntegrationMethod::CrankNicolson, 4), cn2 = error(IntegrationMethod::CrankNicolson, 8);
        qInfo("node errors: implicit Euler 20/40 steps %.3e / %.3e, Crank-Nicolson 4/8 steps %.3e / %.3e", ie1, ie2,
              cn1, cn2);
        // The interval maps' Jacobians are those of the discrete steps: finite differences of
        // the same maps give the same iterates.
        const auto cnVariational = solveQuadratic(11, test::stage(IntegrationMethod::CrankNicolson, 0, 0, 4));
        const auto cnDifferences = solveQuadratic(11, test::stage(IntegrationMethod::CrankNicolson, 0, 0, 4),
                                                  IntervalJacobian::FiniteDifferences);
        QCOMPARE(cnVariational.totalIterations, cnDifferences.totalIterations);
        QVERIFY((cnVariational.nodes - cnDifferences.nodes).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY2(ie1 < 0.1 && ie2 / ie1 > 0.4 && ie2 / ie1 < 0.6, qPrintable(QString("%1 %2").arg(ie1).arg(ie2)));
        QVERIFY2(cn1 < 1e-2 && cn2 / cn1 > 0.2 && cn2 / cn1 < 0.3, qPrintable(QString("%1 %2").arg(cn1).arg(cn2)));
    }

    // y'' = 1000^2 y on 200 intervals, one step each (h*lambda = -5 and +5): explicit Euler's
    // amplification -4 of the decaying mode leaves its shooting matrix singular to working
    // precision (its modes grow by 6 and -4 per interval, 10^155 over the span); the
    // trapezoidal rule keeps the decaying mode decaying (-0.43) and the growing one growing
    // (-2.3), so Newton solves its discrete problem, which converges at order 2 as the steps shrink.
    void trapezoidalStageHandlesStiffIntervals()
    {
        auto solve = [](IntegrationMethod method, std::size_t steps) {
            auto s = settingsWith(201, test::stage(method, 0, 0, steps, 1e-9));
            return solveBoundaryValueProblem(steepOde(), test::dirichlet(0, 1),
                                             test::linearGuess(s.shootingPoints, 0, 1), s);
        };
        const auto euler = solve(IntegrationMethod::Euler, 1), one = solve(IntegrationMethod::CrankNicolson, 1),
                   four = solve(IntegrationMethod::CrankNicolson, 4),
                   eight = solve(IntegrationMethod::CrankNicolson, 8);
        QVERIFY(!euler.converged());
        QCOMPARE(euler.newton.termination.criterion, core::TerminationCriterion::SingularJacobian);
        for (const auto* r : {&one, &four, &eight})
            QVERIFY2(r->converged(), r->message.c_str());
        const double e1 = nodeError(one, steepY, steepDy, kRate), e4 = nodeError(four, steepY, steepDy, kRate),
                     e8 = nodeError(eight, steepY, steepDy, kRate);
        qInfo("steep BVP, 200 intervals: Euler 1 step: %s; trapezoidal 1 / 4 / 8 steps: node error %.3e / %.3e / %.3e "
              "(%zu Newton iterations with 1 step)",
              euler.message.c_str(), e1, e4, e8, one.totalIterations);
        QVERIFY(one.totalIterations <= 2);  // linear problem, exact Jacobian of the discrete map
        // One step per interval cannot resolve the boundary layer of width 1/1000 but stays bounded.
        QVERIFY2(e1 < 1, qPrintable(QString::number(e1)));
        QVERIFY2(e8 / e4 > 0.2 && e8 / e4 < 0.3, qPrintable(QString("%1 %2").arg(e4).arg(e8)));
    }

    void rosenbrockStageConverges()
    {
        const auto r = solveQuadratic(11, test::stage(IntegrationMethod::Rosenbrock4, 1e-11, 1e-12));
        QVERIFY2(r.converged(), r.message.c_str());
        QVERIFY2(nodeError(r, quadraticY, quadraticDy) < 1e-8,
                 qPrintable(QString::number(nodeError(r, quadraticY, quadraticDy))));
        qInfo("rosenbrock4: %zu iterations, node error %.2e", r.totalIterations, nodeError(r, quadraticY, quadraticDy));
        QVERIFY(r.totalIterations < 15);
    }

    // Seed 001 §5.4: one Euler step per interval first, then the accurate integrator from its nodes.
    void eulerThenDopriSchedule()
    {
        auto s = settingsWith(51, test::stage(IntegrationMethod::Euler, 0, 0, 1, 1e-8));
        s.stages.push_back(test::stage(IntegrationMethod::Dopri5));
        std::vector<std::size_t> stagesSeen;
        std::size_t dopriJacobians = 0;
        const auto r =
            solveBoundaryValueProblem(quadraticOde(), test::dirichlet(4, 1), test::linearGuess(s.shootingPoints, 4, 1),
                                      s, [&](const BvpIteration& it) {
                                          stagesSeen.push_back(it.stage);
                                          dopriJacobians += it.stage == 1 && !it.newton.jacobianReused;
                                      });
        QVERIFY2(r.converged(), r.message.c_str());
        QVERIFY(nodeError(r, quadraticY, quadraticDy) < 1e-8);
        QVERIFY(!stagesSeen.empty() && stagesSeen.front() == 0 && stagesSeen.back() == 1);
        // The warm start leaves only the truncation error of Euler to remove: a few iterations,
        // here chord steps with the Euler stage's factorisation (each contracts ||F|| about 100-fold).
        const auto dopriIterations = std::count(stagesSeen.begin(), stagesSeen.end(), std::size_t(1));
        QVERIFY2(dopriIterations <= 6, qPrintable(QString::number(dopriIterations)));
        QCOMPARE(dopriJacobians, std::size_t(0));
    }

    // A tight stage with Jacobians from a looser integrator ends at the same solution as one
    // with exact Jacobians, and the previous stage's factorisation spares it a Jacobian.
    void looseJacobianStageReachesTheTightSolution()
    {
        auto exact = settingsWith(21, test::stage(IntegrationMethod::Dopri5, 1e-6, 1e-8, 1, 1e-4));
        exact.stages.push_back(test::stage(IntegrationMethod::Dopri5, 1e-11, 1e-13, 1, 1e-9));
        auto loose = exact;
        loose.stages.back().jacobianIntegrator = loose.stages.front().integrator;
        std::vector<std::size_t> jacobiansPerStage(2, 0);
        const auto guess = test::linearGuess(exact.shootingPoints, 4, 1);
        const auto a = solveBoundaryValueProblem(quadraticOde(), test::dirichlet(4, 1), guess, exact);
        const auto b =
            solveBoundaryValueProblem(quadraticOde(), test::dirichlet(4, 1), guess, loose, [&](const BvpIteration& it) {
                jacobiansPerStage[it.stage] += it.newton.jacobianReused ? 0 : 1;
            });
        QVERIFY2(a.converged() && b.converged(), (a.message + " / " + b.message).c_str());
        QVERIFY2((a.nodes - b.nodes).cwiseAbs().maxCoeff() < 1e-9,
                 qPrintable(QString::number((a.nodes - b.nodes).cwiseAbs().maxCoeff())));
        QVERIFY(nodeError(b, quadraticY, quadraticDy) < 1e-8);
        QCOMPARE(jacobiansPerStage[1], std::size_t(0));
    }

    void singularBandMatrixIsReported()
    {
        auto bc = test::dirichlet(0, 1);
        bc.leftJacobian = [](const VectorXd&) { return MatrixXd(MatrixXd::Zero(1, 2)); };
        const auto r = solveBoundaryValueProblem(linearOde(), bc, MatrixXd::Zero(11, 2),
                                                 settingsWith(11, test::stage(IntegrationMethod::Dopri5)));
        QCOMPARE(r.newton.termination.criterion, core::TerminationCriterion::SingularJacobian);
    }

    // y'' + 0.5 y' + y = cos t has the 2 pi-periodic solution y = 2 sin t.
    void periodicConditionsUseSparseLu()
    {
        test::LambdaOde ode(
            2,
            [](double t, const double* x, double* f) {
                f[0] = x[1];
                f[1] = -x[0] - 0.5 * x[1] + std::cos(t);
            },
            [](double t, const double*, double* J, double* dfdt) {
                J[0] = 0.0, J[1] = -1.0, J[2] = 1.0, J[3] = -0.5;
                dfdt[0] = 0.0, dfdt[1] = -std::sin(t);
            });
        BoundaryConditions bc;
        bc.separated = false;
        bc.general = [](const VectorXd& a, const VectorXd& b) { return VectorXd(a - b); };
        bc.generalJacobian = [](const VectorXd&, const VectorXd&, MatrixXd& ga, MatrixXd& gb) {
            ga = MatrixXd::Identity(2, 2);
            gb = -MatrixXd::Identity(2, 2);
        };
        const double T = 2 * M_PI;
        auto s = settingsWith(21, test::stage(IntegrationMethod::Dopri5), T);
        const auto r = solveBoundaryValueProblem(ode, bc, MatrixXd::Zero(21, 2), s);
        QVERIFY2(r.converged(), r.message.c_str());
        auto y = [](double t) { return 2 * std::sin(t); };
        auto dy = [](double t) { return 2 * std::cos(t); };
        QVERIFY2(nodeError(r, y, dy) < 1e-8, qPrintable(QString::number(nodeError(r, y, dy))));

        // Conditions that do not depend on the state make the matrix singular.
        bc.general = [](const VectorXd&, const VectorXd&) { return VectorXd(VectorXd::Ones(2)); };
        bc.generalJacobian = [](const VectorXd&, const VectorXd&, MatrixXd& ga, MatrixXd& gb) {
            ga = MatrixXd::Zero(2, 2);
            gb = MatrixXd::Zero(2, 2);
        };
        const auto singular = solveBoundaryValueProblem(ode, bc, MatrixXd::Zero(21, 2), s);
        QCOMPARE(singular.newton.termination.criterion, core::TerminationCriterion::SingularJacobian);
    }

    // RMUSN's fixed-Jacobian mode (seed 001 §3.3) reuses the factorisation and still converges.
    void chordModeReusesTheFactorisation()
    {
        auto s = settingsWith(21, test::stage(IntegrationMethod::Dopri5));
        s.newton.chordContraction = 0.5;
        std::size_t reused = 0;
        const auto r =
            solveBoundaryValueProblem(quadraticOde(), test::dirichlet(4, 1), test::linearGuess(s.shootingPoints, 4, 1),
                                      s, [&](const BvpIteration& it) { reused += it.newton.jacobianReused; });
        QVERIFY2(r.converged(), r.message.c_str());
        QVERIFY(reused > 0);
        QVERIFY(r.newton.jacobianEvaluations < r.totalIterations);
        QVERIFY(nodeError(r, quadraticY, quadraticDy) < 1e-8);
    }

    void threadCountDoesNotChangeTheResult()
    {
        for (auto jacobian : {IntervalJacobian::Variational, IntervalJacobian::FiniteDifferences}) {
            const auto one = solveQuadratic(41, test::stage(IntegrationMethod::Dopri5), jacobian, 1);
            const auto four = solveQuadratic(41, test::stage(IntegrationMethod::Dopri5), jacobian, 4);
            QVERIFY(one.converged() && four.converged());
            QCOMPARE(one.totalIterations, four.totalIterations);
            QVERIFY(one.nodes == four.nodes);  // bit-identical
            QVERIFY(one.newton.residual == four.newton.residual);
        }
    }

    void observerGetsTimingsAndCancelStops()
    {
        auto s = settingsWith(21, test::stage(IntegrationMethod::Dopri5));
        std::stop_source source;
        std::size_t calls = 0;
        auto initial = MatrixXd::Zero(21, 2);  // far from 4/(1+t)^2: needs several iterations
        const auto r = solveBoundaryValueProblem(
            quadraticOde(), test::dirichlet(4, 1), initial, s,
            [&](const BvpIteration& it) {
                ++calls;
                QVERIFY(it.residualTime.count() > 0 && it.jacobianTime.count() > 0 && it.factorTime.count() > 0 &&
                        it.solveTime.count() > 0);
                source.request_stop();
            },
            source.get_token());
        QCOMPARE(calls, std::size_t(1));
        QCOMPARE(r.newton.termination.kind, core::TerminationKind::Cancelled);
    }

    // A stop requested while the intervals are being integrated ends the solve promptly.
    void cancelWithinAnIteration()
    {
        std::stop_source source;
        auto calls = std::make_shared<std::size_t>(0);
        std::size_t callsAtStop = 0;
        test::LambdaOde ode(
            2,
            [&, calls](double, const double* x, double* f) {
                if (++*calls == 3000) {
                    callsAtStop = *calls;
                    source.request_stop();
                }
                f[0] = x[1];
                f[1] = 1.5 * x[0] * x[0];
            },
            [](double, const double* x, double* J, double* dfdt) {
                J[0] = 0, J[1] = 3 * x[0], J[2] = 1, J[3] = 0;
                dfdt[0] = dfdt[1] = 0;
            });
        auto s = settingsWith(21, test::stage(IntegrationMethod::Dopri5));
        const auto r =
            solveBoundaryValueProblem(ode, test::dirichlet(4, 1), MatrixXd::Zero(21, 2), s, {}, source.get_token());
        QCOMPARE(r.newton.termination.kind, core::TerminationKind::Cancelled);
        QVERIFY(callsAtStop == 3000);
        QVERIFY2(*calls - callsAtStop < 200, qPrintable(QString::number(*calls - callsAtStop)));
    }

    void badInputGivesMessages()
    {
        const auto ode = linearOde();
        auto check = [&](BvpSettings s, BoundaryConditions bc, MatrixXd nodes, const char* expected) {
            const auto r = solveBoundaryValueProblem(ode, bc, nodes, s);
            QVERIFY(!r.converged());
            QVERIFY2(r.message.find(expected) != std::string::npos, r.message.c_str());
        };
        const auto good = settingsWith(5, test::stage(IntegrationMethod::Dopri5));
        auto s = good;
        s.shootingPoints = {0.0};
        check(s, test::dirichlet(0, 1), MatrixXd::Zero(1, 2), "at least 2 shooting points");
        s.shootingPoints = {0.0, 0.5, 0.5, 1.0};
        check(s, test::dirichlet(0, 1), MatrixXd::Zero(4, 2), "point 3 (t = 0.5) is not after");
        check(good, test::dirichlet(0, 1), MatrixXd::Zero(4, 2), "expected 5 x 2");
        s = good;
        s.stages.clear();
        check(s, test::dirichlet(0, 1), MatrixXd::Zero(5, 2), "no stage");
        auto bc = test::dirichlet(0, 1);
        bc.rightJacobian = nullptr;
        check(good, bc, MatrixXd::Zero(5, 2), "rightJacobian");
        bc = test::dirichlet(0, 1);
        bc.leftCount = 2;  // left() still returns one row
        check(good, bc, MatrixXd::Zero(5, 2), "left boundary condition has size 1 x 1, expected 2 x 1");
        bc.leftCount = 3;
        check(good, bc, MatrixXd::Zero(5, 2), "exceeds the number of states");
        bc = test::dirichlet(0, 1);
        bc.rightJacobian = [](const VectorXd&) { return MatrixXd(MatrixXd::Identity(2, 2)); };
        check(good, bc, MatrixXd::Zero(5, 2), "right boundary condition Jacobian has size 2 x 2, expected 1 x 2");
        bc = test::dirichlet(0, 1);
        bc.separated = false;
        check(good, bc, MatrixXd::Zero(5, 2), "general boundary conditions need");
        MatrixXd nan = MatrixXd::Zero(5, 2);
        nan(2, 1) = std::nan("");
        check(good, test::dirichlet(0, 1), nan, "shooting point 3, state 2 is not finite");
    }

    void modelSystemReadsInputsAndTheirSlopes()
    {
        auto model = test::compiled("input u\nparam a = 2\nstate x = 0\nstate v = 0\nx' = v\nv' = -a*x + t*u\n");
        integrate::InputSignals inputs({data::Signal({0.0, 2.0}, {0.0, 6.0})});  // u = 3t
        integrate::ModelSystem ode(*model, &inputs);
        auto copy = ode.clone();
        const double x[2] = {1.0, 2.0};
        double f[2], J[4], dfdt[2];
        copy->rhs(1.0, x, f);
        QCOMPARE(f[0], 2.0);
        QCOMPARE(f[1], -2.0 + 3.0);
        copy->jacobian(1.0, x, J, dfdt);
        QCOMPARE(J[0], 0.0);
        QCOMPARE(J[1], -2.0);
        QCOMPARE(J[2], 1.0);
        QCOMPARE(J[3], 0.0);
        QCOMPARE(dfdt[0], 0.0);
        QCOMPARE(dfdt[1], 6.0);  // d(t u)/dt = u + t du/dt = 3 + 3
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, integrate::ModelSystem(*model, nullptr));
    }

    // x'' = u with the kinked input u = |t - 1/2|, x(0) = x(1) = 0: x = U2(t) - t/8 with
    // U2 = t^2/4 - t^3/6 (t <= 1/2), t/8 - 1/48 + (t - 1/2)^3/6 (t > 1/2).
    void modelSystemStopsAtInputKinks()
    {
        auto model = test::compiled("input u\nstate x = 0\nstate v = 0\nx' = v\nv' = u\n");
        integrate::InputSignals inputs({data::Signal({0.0, 0.5, 1.0}, {0.5, 0.0, 0.5})});
        integrate::ModelSystem ode(*model, &inputs);
        QCOMPARE(ode.breakpoints(0.3, 0.7), std::vector<double>{0.5});
        QVERIFY(ode.breakpoints(0.0, 0.5).empty());
        auto x = [](double t) {
            return (t <= 0.5 ? t * t / 4 - t * t * t / 6 : t / 8 - 1.0 / 48 + std::pow(t - 0.5, 3) / 6) - t / 8;
        };
        auto v = [](double t) { return (t <= 0.5 ? t / 2 - t * t / 2 : 0.125 + (t - 0.5) * (t - 0.5) / 2) - 0.125; };
        for (auto method : {IntegrationMethod::Dopri5, IntegrationMethod::Rosenbrock4}) {
            auto s = settingsWith(4, test::stage(method, 1e-11, 1e-13));
            const auto r = solveBoundaryValueProblem(ode, test::dirichlet(0, 0), MatrixXd::Zero(4, 2), s);
            QVERIFY2(r.converged(), r.message.c_str());
            QVERIFY2(nodeError(r, x, v) < 1e-10, qPrintable(QString::number(nodeError(r, x, v))));
            const MatrixXd at = sampleSolution(ode, r, {0.5, 0.6}, test::tight(method));
            QVERIFY(std::abs(at(0, 0) - x(0.5)) < 1e-10 && std::abs(at(1, 1) - v(0.6)) < 1e-10);
        }
    }

    void modelSystemSolvesTheLinearProblem()
    {
        auto model = test::compiled("state x = 0\nstate v = 0\nx' = v\nv' = x\n");
        auto s = settingsWith(11, test::stage(IntegrationMethod::Dopri5));
        s.threads = 2;
        const auto r =
            solveBoundaryValueProblem(integrate::ModelSystem(*model), test::dirichlet(0, 1), MatrixXd::Zero(11, 2), s);
        QVERIFY2(r.converged(), r.message.c_str());
        const double s1 = std::sinh(1.0);
        QVERIFY(nodeError(
                    r, [s1](double t) { return std::sinh(t) / s1; }, [s1](double t) { return std::cosh(t) / s1; }) <
                1e-8);
    }
};

QTEST_APPLESS_MAIN(TestBvp)
#include "test_bvp.moc"
