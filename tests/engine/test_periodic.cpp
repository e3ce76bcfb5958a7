// Periodic solutions by single and multiple shooting, Floquet multipliers and IFT sensitivities.
#include "IntegrationTestSupport.h"
#include "VectorTestSupport.h"

#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>
#include <complex>
#include <numbers>

using namespace sysid;
using namespace sysid::shooting;
using Eigen::VectorXd;
using test::vec;

namespace {

constexpr double pi = std::numbers::pi;

PeriodicSettings tightSettings(double period, std::size_t intervals = 1)
{
    PeriodicSettings s;
    s.period = period;
    s.intervals = intervals;
    s.integrator = test::tight();
    s.newton.residualTolerance = 1e-11;
    return s;
}

// Steady state of x'' + c x' + k x = F cos(w t): x = A cos(w t) + B sin(w t).
VectorXd linearSteadyState(double c, double k, double F, double w)
{
    const double a = k - w * w, b = c * w, d = a * a + b * b;
    const double A = F * a / d, B = F * b / d;
    return vec({A, B * w});
}

const char* linearModel = "param c = 0.3\nparam k = 2\nparam F = 1.5\nparam w = 1.3\n"
                          "x'' = -c*x' - k*x + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";
const char* duffingModel = "param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\noutput x\n";
const char* vanDerPolModel = "param mu = 1\nx'' = mu*(1 - x^2)*x' - x\nx(0) = 2, 0\noutput x\n";

double closestDistance(std::complex<double> mu, const std::vector<std::complex<double>>& set)
{
    double best = 1e300;
    for (auto s : set)
        best = std::min(best, std::abs(mu - s));
    return best;
}

}  // namespace

class TestPeriodic : public QObject {
    Q_OBJECT
private slots:
    void linearForcedOscillatorIsAnalytic()
    {
        auto model = test::compiled(linearModel);
        const auto settings = tightSettings(2 * pi / 1.3);
        const auto s = findPeriodicSolution(*model, vec({0, 0}), settings);
        QVERIFY2(s.converged(), s.newton.termination.message.c_str());
        QCOMPARE(isAutonomous(*model), false);
        const VectorXd exact = linearSteadyState(0.3, 2, 1.5, 1.3);
        QVERIFY((s.initialState - exact).cwiseAbs().maxCoeff() < 1e-8);
        QVERIFY(s.newton.iterations <= 3);  // linear: one Newton step
        QCOMPARE(s.times.size(), std::size_t(200));
        QCOMPARE(s.times.front(), 0.0);
        QCOMPARE(s.times.back(), 2 * pi / 1.3);
        // Every sample on the analytic orbit.
        for (std::size_t k = 0; k < s.times.size(); k += 17) {
            const double t = s.times[k], w = 1.3;
            const double x = exact(0) * std::cos(w * t) + exact(1) / w * std::sin(w * t);
            QVERIFY(std::abs(s.states(static_cast<Eigen::Index>(k), 0) - x) < 1e-8);
        }
        QVERIFY(s.floquet.stable);
    }

    void dampedLinearMultipliersAreExponentials()
    {
        auto model = test::compiled(linearModel);
        const double T = 2 * pi / 1.3;
        for (std::size_t intervals : {1u, 5u}) {
            const auto s = findPeriodicSolution(*model, vec({0, 0}), tightSettings(T, intervals));
            QVERIFY(s.converged());
            const std::complex<double> lambda(-0.15, std::sqrt(2 - 0.15 * 0.15));
            const std::vector<std::complex<double>> exact{std::exp(lambda * T), std::exp(std::conj(lambda) * T)};
            QCOMPARE(s.floquet.multipliers.size(), std::size_t(2));
            for (auto mu : s.floquet.multipliers)
                QVERIFY(closestDistance(mu, exact) < 1e-8);
        }
    }

    void singleAndMultipleShootingAgree()
    {
        auto model = test::compiled(duffingModel);
        const auto single = findPeriodicSolution(*model, vec({0.5, 0}), tightSettings(2 * pi, 1));
        const auto multiple = findPeriodicSolution(*model, vec({0.5, 0}), tightSettings(2 * pi, 6));
        QVERIFY2(single.converged(), single.newton.termination.message.c_str());
        QVERIFY2(multiple.converged(), multiple.newton.termination.message.c_str());
        QVERIFY((single.initialState - multiple.initialState).cwiseAbs().maxCoeff() < 1e-6);
        QVERIFY((single.states - multiple.states).cwiseAbs().maxCoeff() < 1e-6);
        QCOMPARE(single.floquet.multipliers.size(), multiple.floquet.multipliers.size());
        for (auto mu : single.floquet.multipliers)
            QVERIFY(closestDistance(mu, multiple.floquet.multipliers) < 1e-6);
        QCOMPARE(single.floquet.stable, multiple.floquet.stable);
    }

    // Intervals integrated on several threads (each with its own model copy) give exactly the
    // serial result, also for the finite-difference Jacobian and the sensitivities.
    void parallelIntervalsMatchSerial()
    {
        auto model = test::compiled(duffingModel);
        auto settings = tightSettings(2 * pi, 6);
        const auto serial = findPeriodicSolution(*model, vec({0.5, 0}), settings);
        settings.threads = 3;
        const auto parallel = findPeriodicSolution(*model, vec({0.5, 0}), settings);
        QVERIFY(serial.converged() && parallel.converged());
        QCOMPARE(serial.newton.iterations, parallel.newton.iterations);
        QVERIFY((serial.initialState - parallel.initialState).cwiseAbs().maxCoeff() == 0.0);
        QVERIFY((serial.monodromy - parallel.monodromy).cwiseAbs().maxCoeff() == 0.0);
        const auto ss = periodicParameterSensitivity(*model, serial, {0, 1}, tightSettings(2 * pi, 6));
        const auto ps = periodicParameterSensitivity(*model, parallel, {0, 1}, settings);
        QVERIFY((ss.initialState - ps.initialState).cwiseAbs().maxCoeff() == 0.0);

        settings.jacobian = ShootingJacobian::FiniteDifferences;
        const auto fdParallel = findPeriodicSolution(*model, vec({0.5, 0}), settings);
        settings.threads = 1;
        const auto fdSerial = findPeriodicSolution(*model, vec({0.5, 0}), settings);
        QVERIFY(fdSerial.converged() && fdParallel.converged());
        QVERIFY((fdSerial.initialState - fdParallel.initialState).cwiseAbs().maxCoeff() == 0.0);
        // Finite differences and variational equations agree on the multipliers.
        for (auto mu : serial.floquet.multipliers)
            QVERIFY(closestDistance(mu, fdSerial.floquet.multipliers) < 1e-5);
        QVERIFY(!usesFiniteDifferenceJacobian(*model, ShootingJacobian::Automatic, settings.integrator));
        // A jump in f: the located switches give the variational equations their saltation; only
        // stepped across them do they need finite differences.
        const auto jumping = test::compiled("param b = 1\nx'' = -b*sign(x') - x + cos(t)\nx(0) = 0, 0\noutput x\n");
        integrate::IntegratorSettings across;
        QVERIFY(!usesFiniteDifferenceJacobian(*jumping, ShootingJacobian::Automatic, across));
        across.switches = integrate::SwitchHandling::StepAcross;
        QVERIFY(usesFiniteDifferenceJacobian(*jumping, ShootingJacobian::Automatic, across));
    }

    // Lindstedt-Poincaré: T = 2 pi (1 + mu^2/16 - 5 mu^4/3072 + ...).
    void vanDerPolSmallMuPeriod()
    {
        auto model = test::compiled(vanDerPolModel);
        QVERIFY(isAutonomous(*model));
        const double mu = 0.1;
        model->setParameters(std::vector<double>{mu});
        const auto s = findPeriodicSolution(*model, vec({2, 0}), tightSettings(2 * pi));
        QVERIFY2(s.converged(), s.newton.termination.message.c_str());
        const double asymptotic = 2 * pi * (1 + mu * mu / 16);
        const double neglected = 2 * pi * 5 * std::pow(mu, 4) / 3072;
        QVERIFY(std::abs(s.period - asymptotic) < 2 * neglected);
        QVERIFY(s.floquet.stable);
        // One multiplier is the trivial 1 (flow direction), the other exp(-mu T) to first order.
        QVERIFY(closestDistance(1.0, s.floquet.multipliers) < 1e-7);
    }

    void vanDerPolMuOnePeriod()
    {
        auto model = test::compiled(vanDerPolModel);
        for (std::size_t intervals : {1u, 4u}) {
            const auto s = findPeriodicSolution(*model, vec({2, 0}), tightSettings(6.5, intervals));
            QVERIFY2(s.converged(), s.newton.termination.message.c_str());
            QVERIFY(std::abs(s.period - 6.6632868593231) < 1e-6);
            QVERIFY(s.floquet.stable);
            // Phase condition: x(t0) on the section through the guess normal to f(guess) = (0, -2).
            QVERIFY(std::abs(s.initialState(1)) < 1e-9);
            QVERIFY(std::abs(s.initialState(0) - 2.00861986087) < 1e-6);
        }
    }

    // A 2T-periodic request: forcing at half the frequency of the given period T.
    void subharmonicPeriods()
    {
        auto model = test::compiled(linearModel);
        model->setParameters(std::vector<double>{0.3, 2, 1.5, 0.5});
        auto settings = tightSettings(2 * pi);
        settings.periods = 2;
        settings.intervals = 3;
        const auto s = findPeriodicSolution(*model, vec({0, 0}), settings);
        QVERIFY2(s.converged(), s.newton.termination.message.c_str());
        QVERIFY(std::abs(s.period - 4 * pi) < 1e-12);
        QVERIFY((s.initialState - linearSteadyState(0.3, 2, 1.5, 0.5)).cwiseAbs().maxCoeff() < 1e-8);
        // With only one period the orbit is not closed.
        settings.periods = 1;
        settings.newton.maxIterations = 5;
        QVERIFY(!findPeriodicSolution(*model, vec({0, 0}), settings).converged() ||
                (findPeriodicSolution(*model, vec({0, 0}), settings).initialState - linearSteadyState(0.3, 2, 1.5, 0.5))
                        .norm() > 1e-3);
    }

    void sensitivitiesMatchFiniteDifferences_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("period");
        QTest::addColumn<int>("intervals");
        QTest::newRow("duffing single") << QString(duffingModel) << 2 * pi << 1;
        QTest::newRow("duffing multiple") << QString(duffingModel) << 2 * pi << 4;
        QTest::newRow("van der Pol") << QString(vanDerPolModel) << 6.66 << 1;
        QTest::newRow("van der Pol multiple") << QString(vanDerPolModel) << 6.66 << 3;
    }
    void sensitivitiesMatchFiniteDifferences()
    {
        QFETCH(QString, text);
        QFETCH(double, period);
        QFETCH(int, intervals);
        auto model = test::compiled(text.toStdString());
        auto settings = tightSettings(period, static_cast<std::size_t>(intervals));
        settings.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-12, 1e-14);
        settings.newton.residualTolerance = 1e-12;
        const VectorXd guess = model->parameterCount() == 1 ? vec({2, 0}) : vec({0.5, 0});
        const auto s = findPeriodicSolution(*model, guess, settings);
        QVERIFY2(s.converged(), s.newton.termination.message.c_str());
        std::vector<std::size_t> params;
        for (std::size_t p = 0; p < model->parameterCount(); ++p)
            params.push_back(p);
        const auto sens = periodicParameterSensitivity(*model, s, params, settings);
        const std::vector<double> base(model->parameters().begin(), model->parameters().end());
        const bool autonomous = isAutonomous(*model);
        for (std::size_t j = 0; j < params.size(); ++j) {
            const double h = 1e-5 * std::max(1.0, std::abs(base[j]));
            auto solveAt = [&](double value) {
                auto p = base;
                p[j] = value;
                model->setParameters(p);
                auto r = findPeriodicSolution(*model, s.initialState, settings);
                model->setParameters(base);
                return r;
            };
            const auto plus = solveAt(base[j] + h), minus = solveAt(base[j] - h);
            QVERIFY(plus.converged() && minus.converged());
            const VectorXd fd = (plus.initialState - minus.initialState) / (2 * h);
            const VectorXd ift = sens.initialState.col(static_cast<Eigen::Index>(j));
            QVERIFY2((fd - ift).norm() <= 1e-5 * std::max(1.0, ift.norm()),
                     qPrintable(QString("parameter %1: |fd - ift| = %2").arg(j).arg((fd - ift).norm())));
            if (autonomous) {
                const double fdP = (plus.period - minus.period) / (2 * h);
                QVERIFY(std::abs(fdP - sens.period(static_cast<Eigen::Index>(j))) <=
                        1e-5 * std::max(1.0, std::abs(fdP)));
            } else {
                QCOMPARE(sens.period(static_cast<Eigen::Index>(j)), 0.0);
            }
        }
    }

    void badInputGivesMessages()
    {
        auto model = test::compiled(duffingModel);
        auto settings = tightSettings(0.0);
        auto s = findPeriodicSolution(*model, vec({0, 0}), settings);
        QVERIFY(!s.converged());
        QVERIFY(s.newton.termination.message.find("period") != std::string::npos);

        settings.period = 2 * pi;
        VectorXd three(3);
        three << 1, 2, 3;
        s = findPeriodicSolution(*model, three, settings);
        QVERIFY(!s.converged());
        QVERIFY(s.newton.termination.message.find("3 values") != std::string::npos);

        // x' = x^2 blows up at t = 1/x0 < T from x0 = 1.
        auto blowUp = test::compiled("param a = 1\nstate x = 1\nx' = a*x^2 + 0*sin(t)\noutput x\n");
        VectorXd one(1);
        one << 1.0;
        s = findPeriodicSolution(*blowUp, one, settings);
        QVERIFY(!s.converged());
        QVERIFY(!s.newton.termination.message.empty());
        qInfo("blow-up message: %s", s.newton.termination.message.c_str());

        // Newton stop reasons pass through.
        settings.newton.maxIterations = 1;
        s = findPeriodicSolution(*model, vec({3, 0}), settings);
        QVERIFY(!s.converged());
        QCOMPARE(s.newton.termination.kind, core::TerminationKind::IterationLimit);

        // A stop request before the start is a cancellation.
        std::stop_source source;
        source.request_stop();
        settings.newton.maxIterations = 50;
        s = findPeriodicSolution(*model, vec({3, 0}), tightSettings(2 * pi, 4), {}, source.get_token());
        QCOMPARE(s.newton.termination.kind, core::TerminationKind::Cancelled);

        // An autonomous guess at the equilibrium defines no phase condition.
        auto vdp = test::compiled(vanDerPolModel);
        s = findPeriodicSolution(*vdp, vec({0, 0}), tightSettings(6.6));
        QVERIFY(!s.converged());
        QVERIFY(s.newton.termination.message.find("equilibrium") != std::string::npos);
    }

    void floquetVerdicts()
    {
        Eigen::MatrixXd M(2, 2);
        M << -1.5, 0, 0, 0.2;
        auto a = analyseFloquet(M, false);
        QVERIFY(!a.stable);
        QVERIFY(a.verdict.find("period doubling") != std::string::npos);
        M << 1.7, 0, 0, 0.2;
        a = analyseFloquet(M, false);
        QVERIFY(a.verdict.find("fold") != std::string::npos);
        M << 1.0, 0, 0, 0.5;
        a = analyseFloquet(M, true);
        QVERIFY(a.stable);
        M << 0, -1.2, 1.2, 0;
        a = analyseFloquet(M, false);
        QVERIFY(!a.stable);
        QVERIFY(a.verdict.find("Neimark") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPeriodic)
#include "test_periodic.moc"
