// Integration against analytic solutions, published reference values and a second method.
#include "IntegrationTestSupport.h"

#include <QtTest>

#include <cmath>
#include <complex>

using namespace sysid;
using integrate::IntegrationMethod;

class TestIntegration : public QObject {
    Q_OBJECT

private:
    static double maxCosineError(const integrate::Trajectory& tr, double omega)
    {
        double err = 0;
        for (std::size_t k = 0; k < tr.times.size(); ++k)
            err = std::max(err, std::abs(tr.states(static_cast<Eigen::Index>(k), 0) - std::cos(omega * tr.times[k])));
        return err;
    }

    static const char* oscillator() { return "param w = 2\nx'' = -w^2*x\nx(0) = 1, 0\n"; }

private slots:
    void harmonicOscillatorAdaptive_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<double>("tolerance");
        QTest::addColumn<double>("bound");
        QTest::newRow("dopri5") << int(IntegrationMethod::Dopri5) << 1e-11 << 1e-9;
        QTest::newRow("dop853") << int(IntegrationMethod::Dop853) << 1e-11 << 1e-9;
        QTest::newRow("rosenbrock4") << int(IntegrationMethod::Rosenbrock4) << 1e-11 << 1e-8;
    }

    void harmonicOscillatorAdaptive()
    {
        QFETCH(int, method);
        QFETCH(double, tolerance);
        QFETCH(double, bound);
        auto m = test::compiled(oscillator());
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 20, 0.1);
        const auto tr = integrate::simulate(*m, r, test::tight(IntegrationMethod(method), tolerance, tolerance * 1e-2));
        QCOMPARE(tr.times.size(), std::size_t(201));
        QVERIFY2(maxCosineError(tr, 2.0) < bound, qPrintable(QString::number(maxCosineError(tr, 2.0))));
    }

    void fixedStepMethodsConvergeAtTheirOrder()
    {
        auto m = test::compiled(oscillator());
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 5, 0.5);
        auto errorWith = [&](IntegrationMethod method, double h) {
            auto s = test::tight(method);
            s.maxStep = h;
            return maxCosineError(integrate::simulate(*m, r, s), 2.0);
        };
        // Halving the step divides the error by 2^order: 16 for RK4, 2 for Euler.
        const double rk4Ratio = errorWith(IntegrationMethod::RK4, 0.02) / errorWith(IntegrationMethod::RK4, 0.01);
        QVERIFY2(std::abs(rk4Ratio - 16) < 1.0, qPrintable(QString::number(rk4Ratio)));
        QVERIFY(errorWith(IntegrationMethod::RK4, 0.01) < 1e-7);
        const double eulerRatio =
            errorWith(IntegrationMethod::Euler, 0.002) / errorWith(IntegrationMethod::Euler, 0.001);
        QVERIFY2(std::abs(eulerRatio - 2) < 0.1, qPrintable(QString::number(eulerRatio)));
    }

    void duffingAgreesAcrossMethods()
    {
        // Ueda's Duffing over 10 time units (before chaos separates nearby orbits).
        auto m = test::compiled("param k = 0.05\nparam B = 7.5\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 3, 0\n");
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 10, 0.05);
        const auto reference = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-13, 1e-15));
        auto rk4 = test::tight(IntegrationMethod::RK4);
        rk4.maxStep = 1e-3;
        const auto fixed = integrate::simulate(*m, r, rk4);
        const auto stiff = integrate::simulate(*m, r, test::tight(IntegrationMethod::Rosenbrock4, 1e-11, 1e-13));
        const auto standard = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-8, 1e-10));
        QVERIFY((fixed.states - reference.states).cwiseAbs().maxCoeff() < 1e-8);
        QVERIFY((stiff.states - reference.states).cwiseAbs().maxCoeff() < 1e-7);
        QVERIFY((standard.states - reference.states).cwiseAbs().maxCoeff() < 1e-5);
    }

    void robertsonStiffReference()
    {
        // Robertson's kinetics; reference at t = 40 from Hairer & Wanner, Solving ODEs II, sec. IV.1.
        auto m = test::compiled("param k1 = 0.04\nparam k2 = 3e7\nparam k3 = 1e4\n"
                                "state y1 = 1\nstate y2 = 0\nstate y3 = 0\n"
                                "y1' = -k1*y1 + k3*y2*y3\ny2' = k1*y1 - k3*y2*y3 - k2*y2^2\ny3' = k2*y2^2\n");
        integrate::SimulationRequest r;
        r.times = {0, 40};
        const auto tr = integrate::simulate(*m, r, test::tight(IntegrationMethod::Rosenbrock4, 1e-8, 1e-14));
        QVERIFY(std::abs(tr.states(1, 0) - 0.7158270687) < 1e-7);
        QVERIFY(std::abs(tr.states(1, 1) - 9.185534765e-6) < 1e-11);
        QVERIFY(std::abs(tr.states(1, 2) - 0.2841637457) < 1e-7);
        QVERIFY2(tr.statistics.steps < 500, qPrintable(QString::number(tr.statistics.steps)));
    }

    void stiffLinearSystemNeedsFewImplicitSteps()
    {
        // Eigenvalues -1 and -1000; a = e^-t, b = e^-t + e^-1000t. An explicit method is held to
        // h < ~3.3e-3 by stability over the whole interval, Rosenbrock only by accuracy.
        auto m = test::compiled("param L = 1000\nstate a = 1\nstate b = 2\na' = -a\nb' = -L*(b - a) - a\n");
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 10, 0.5);
        const auto implicit = integrate::simulate(*m, r, test::tight(IntegrationMethod::Rosenbrock4, 1e-8, 1e-12));
        const auto explicitRun = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-8, 1e-12));
        for (std::size_t k = 0; k < r.times.size(); ++k) {
            const double t = r.times[k];
            QVERIFY(std::abs(implicit.states(static_cast<Eigen::Index>(k), 1) - (std::exp(-t) + std::exp(-1000 * t))) <
                    1e-8);
        }
        QVERIFY2(implicit.statistics.steps * 5 < explicitRun.statistics.steps,
                 qPrintable(QString("%1 vs %2").arg(implicit.statistics.steps).arg(explicitRun.statistics.steps)));
    }

    void forcedStiffProblemIsAccurate()
    {
        // Prothero-Robinson: y = cos t. Rosenbrock methods lose order here (stage order 1), so
        // this checks accuracy only.
        auto m = test::compiled("param L = 1000\nstate y = 1\ny' = -L*(y - cos(t)) - sin(t)\n");
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 10, 1);
        const auto tr = integrate::simulate(*m, r, test::tight(IntegrationMethod::Rosenbrock4, 1e-8, 1e-10));
        for (std::size_t k = 0; k < r.times.size(); ++k)
            QVERIFY(std::abs(tr.states(static_cast<Eigen::Index>(k), 0) - std::cos(r.times[k])) < 1e-7);
    }

    void inputOutputIsExactAtSamples()
    {
        auto m = test::compiled("input u\nstate x = 0\nx' = u\noutput x\noutput y = u\n");
        const std::vector<double> ts{0, 0.5, 1.0, 2.0, 2.25, 3.0};
        const std::vector<double> us{0, 1.0, -1.0, 3.0, 0.5, 0.5};
        integrate::InputSignals inputs({data::Signal(ts, us)});
        integrate::SimulationRequest r;
        r.times = ts;
        r.inputs = &inputs;
        const auto tr = integrate::simulate(*m, r, test::tight());
        double integral = 0;
        for (std::size_t k = 0; k < ts.size(); ++k) {
            if (k > 0)
                integral += 0.5 * (us[k] + us[k - 1]) * (ts[k] - ts[k - 1]);  // exact for a piecewise-linear input
            QCOMPARE(tr.outputs(static_cast<Eigen::Index>(k), 1), us[k]);
            QVERIFY(std::abs(tr.outputs(static_cast<Eigen::Index>(k), 0) - integral) < 1e-9);
        }
    }

    void sampledInputKeepsDefaultToleranceHonest_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("dopri5") << int(IntegrationMethod::Dopri5);
        QTest::newRow("dop853") << int(IntegrationMethod::Dop853);
        QTest::newRow("rosenbrock4") << int(IntegrationMethod::Rosenbrock4);
    }

    void sampledInputKeepsDefaultToleranceHonest()
    {
        // A forcing sampled every 0.01 s has a kink at every sample; restarting there keeps the
        // default tolerance's error near the tolerance instead of ~1e-6 from stepping across kinks.
        QFETCH(int, method);
        auto m = test::compiled("input f\nparam c = 0.3\nparam k = 40\nx'' = -c*x' - k*x + f\nx(0) = 0, 0\n"
                                "output x\noutput a = x''\n");
        std::vector<double> ts, fs;
        for (int i = 0; i <= 500; ++i) {
            ts.push_back(0.01 * i);
            fs.push_back(std::sin(3.0 * ts.back()) * std::cos(17.0 * ts.back()) + ((i / 37) % 2 ? 0.5 : -0.5));
        }
        integrate::InputSignals inputs({data::Signal(ts, fs)});
        integrate::SimulationRequest r;
        r.times = ts;
        r.inputs = &inputs;
        const auto reference = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-13, 1e-15));
        const auto standard = integrate::simulate(*m, r, test::tight(IntegrationMethod(method), 1e-8, 1e-10));
        const double err = (standard.outputs - reference.outputs).cwiseAbs().maxCoeff();
        // Rosenbrock's error estimate is coarser and it restarts 500 times: allow it 1e-6.
        const double bound = IntegrationMethod(method) == IntegrationMethod::Dopri5 ? 1e-7 : 1e-6;
        QVERIFY2(err < bound * reference.outputs.cwiseAbs().maxCoeff(), qPrintable(QString::number(err)));
    }

    void blowUpReportsTimeReached()
    {
        // y' = y^2, y(0) = 1 has y = 1/(1 - t): it blows up at t = 1.
        auto m = test::compiled("state y = 1\ny' = y^2\n");
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 2, 0.1);
        try {
            integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-8, 1e-10));
            QFAIL("expected an IntegrationError");
        } catch (const integrate::IntegrationError& e) {
            QVERIFY2(e.timeReached() > 0.99 && e.timeReached() <= 1.0 + 1e-6,
                     qPrintable(QString::number(e.timeReached())));
            QVERIFY(QString(e.what()).contains("t = "));
        }
    }

    void nonFiniteStateIsNamed()
    {
        // sqrt of a negative number: y reaches 0 at t = 1 and keeps falling under Euler.
        auto m = test::compiled("state level = 1\nlevel' = -2*sqrt(level) - 0.01\n");
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 3, 0.5);
        auto s = test::tight(IntegrationMethod::Euler);
        s.maxStep = 0.05;
        try {
            integrate::simulate(*m, r, s);
            QFAIL("expected an IntegrationError");
        } catch (const integrate::IntegrationError& e) {
            QCOMPARE(e.reason(), integrate::IntegrationError::Reason::NonFiniteState);
            QVERIFY(QString(e.what()).contains("state level"));
            QVERIFY(e.timeReached() > 0.9 && e.timeReached() < 1.5);
        }
    }

    void stepLimitAndCancellation()
    {
        auto m = test::compiled(oscillator());
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 100, 1);
        auto s = test::tight();
        s.maxSteps = 10;
        try {
            integrate::simulate(*m, r, s);
            QFAIL("expected TooManySteps");
        } catch (const integrate::IntegrationError& e) {
            QCOMPARE(e.reason(), integrate::IntegrationError::Reason::TooManySteps);
            QVERIFY(e.timeReached() > 0 && e.timeReached() < 100);
        }
        std::stop_source source;
        source.request_stop();
        r.stop = source.get_token();
        try {
            integrate::simulate(*m, r, test::tight());
            QFAIL("expected Cancelled");
        } catch (const integrate::IntegrationError& e) {
            QCOMPARE(e.reason(), integrate::IntegrationError::Reason::Cancelled);
        }
    }

    void badRequestsAreRejected()
    {
        auto m = test::compiled("input u\nstate x = 0\nx' = u\n");
        integrate::SimulationRequest r;
        r.times = {0, 1};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, integrate::simulate(*m, r, test::tight()));  // no input data
        auto free = test::compiled("state x = 0\nx' = 1\n");
        r.times = {0, 1, 1};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, integrate::simulate(*free, r, test::tight()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, integrate::uniformGrid(0, -1, 0.1));
    }
};

QTEST_APPLESS_MAIN(TestIntegration)
#include "test_integration.moc"
