// Forward sensitivities against the analytic solution of a damped oscillator (differentiated by
// complex step, exact to rounding) and against central finite differences of the integrator.
#include "IntegrationTestSupport.h"
#include "Rosenbrock4ControllerCheck.h"

#include "engine/integrate/ModelSystem.h"
#include "engine/integrate/SensitivitySystem.h"

#include <QtTest>

#include <cmath>
#include <complex>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

// x'' + c x' + k x = 0, underdamped: x = e^{-a t}(x0 cos(w t) + (v0 + a x0)/w sin(w t)), a = c/2, w = sqrt(k - a^2).
template <class T>
T dampedOscillator(T c, T k, T x0, T v0, double t)
{
    const T a = c / 2.0;
    const T w = std::sqrt(k - a * a);
    return std::exp(-a * t) * (x0 * std::cos(w * t) + (v0 + a * x0) / w * std::sin(w * t));
}

// Complex-step derivative (Squire & Trapp, SIAM Review 40(1), 1998): f'(p) = Im f(p + ih)/h.
double complexStep(int which, double c, double k, double x0, double v0, double t)
{
    const double h = 1e-30;
    std::complex<double> args[4] = {c, k, x0, v0};
    args[which] += std::complex<double>(0, h);
    return dampedOscillator(args[0], args[1], args[2], args[3], t).imag() / h;
}

// The hard-forced Duffing oscillator of Ueda (1980): its steps vary widely along a run.
constexpr const char* kForcedDuffing =
    "param k = 0.05\nparam B = 7.5\nparam a = 1\nx'' = -k*x' - a*x^3 + B*cos(t)\nx(0) = 3, 0\n";

double relativeError(double a, double b, double scale)
{
    return std::abs(a - b) / std::max(std::abs(b), scale);
}

}  // namespace

class TestSensitivity : public QObject {
    Q_OBJECT

private slots:
    void linearOscillatorAgainstAnalytic_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("dopri5") << int(IntegrationMethod::Dopri5);
        QTest::newRow("dop853") << int(IntegrationMethod::Dop853);
        QTest::newRow("rosenbrock4") << int(IntegrationMethod::Rosenbrock4);
    }

    void linearOscillatorAgainstAnalytic()
    {
        QFETCH(int, method);
        const double c = 0.4, k = 4.0, x0 = 1.0, v0 = 0.5;
        auto m = test::compiled("param c = 0.4\nparam k = 4\nx'' = -c*x' - k*x\nx(0) = 1 estimate, 0.5 estimate\n");
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 8, 0.25);
        r.sensitivityParameters = {test::parameter(*m, "c"), test::parameter(*m, "k"), test::parameter(*m, "x(0)"),
                                   test::parameter(*m, "x'(0)")};
        r.initialStateSensitivity = true;
        const auto tr = integrate::simulate(*m, r, test::tight(IntegrationMethod(method), 1e-12, 1e-14));
        double worst = 0;
        for (std::size_t s = 0; s < r.times.size(); ++s) {
            const double t = r.times[s];
            QVERIFY(std::abs(tr.states(static_cast<Eigen::Index>(s), 0) - dampedOscillator(c, k, x0, v0, t)) < 1e-9);
            for (int p = 0; p < 4; ++p) {
                const double analytic = complexStep(p, c, k, x0, v0, t);
                worst = std::max(worst, relativeError(tr.stateParameterSensitivity[s](0, p), analytic, 1e-2));
                // The output is x itself, so dy/dp must equal dx/dp.
                QCOMPARE(tr.outputParameterSensitivity[s](0, p), tr.stateParameterSensitivity[s](0, p));
            }
            // dx/dx0 columns equal the sensitivities to the estimated initial values.
            QVERIFY(std::abs(tr.stateInitialSensitivity[s](0, 0) - tr.stateParameterSensitivity[s](0, 2)) < 1e-9);
            QVERIFY(std::abs(tr.stateInitialSensitivity[s](0, 1) - tr.stateParameterSensitivity[s](0, 3)) < 1e-9);
        }
        QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    }

    // Outputs whose Jacobians are numbers (a state, a scaled state) are differentiated at the first
    // sample only; every sample's dy/dp must still be dy/dx S, bit for bit, for one output and several.
    void constantOutputJacobiansAtEverySample_data()
    {
        QTest::addColumn<QString>("outputs");
        QTest::newRow("x") << "output x\n";
        QTest::newRow("x, 2 x', x") << "output x\noutput v2 = 2*x'\noutput y = x\n";
    }

    void constantOutputJacobiansAtEverySample()
    {
        QFETCH(QString, outputs);
        auto m =
            test::compiled("param c = 0.4\nparam k = 4\nx'' = -c*x' - k*x\nx(0) = 1, 0.5\n" + outputs.toStdString());
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 4, 0.25);
        r.sensitivityParameters = {test::parameter(*m, "c"), test::parameter(*m, "k")};
        r.recordStateSensitivity = true;
        const auto tr = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-10, 1e-12));
        const Eigen::Index ny = tr.outputs.cols();
        QCOMPARE(ny, Eigen::Index(outputs.count(QLatin1Char('\n'))));
        for (std::size_t s = 0; s < r.times.size(); ++s) {
            const Eigen::MatrixXd& dy = tr.outputParameterSensitivity[s];
            const Eigen::MatrixXd& S = tr.stateParameterSensitivity[s];
            for (Eigen::Index p = 0; p < 2; ++p) {
                QVERIFY(S(0, p) != 0.0 || s == 0);
                QVERIFY2(dy(0, p) == S(0, p), qPrintable(QString("sample %1").arg(s)));
                if (ny > 1) {
                    QVERIFY2(dy(1, p) == 2 * S(1, p), qPrintable(QString("sample %1").arg(s)));
                    QVERIFY2(dy(2, p) == S(0, p), qPrintable(QString("sample %1").arg(s)));
                }
            }
        }
    }

    // CVODES' errconS = false: the steps are chosen for x alone. They can only be as many or fewer,
    // and the sensitivities, computed on them, stay within a small multiple of the tolerance.
    void sensitivitiesOutOfTheErrorControl_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<double>("rtol");
        for (const double rtol : {1e-6, 1e-8}) {
            QTest::addRow("dopri5 %g", rtol) << int(IntegrationMethod::Dopri5) << rtol;
            QTest::addRow("dop853 %g", rtol) << int(IntegrationMethod::Dop853) << rtol;
            QTest::addRow("rosenbrock4 %g", rtol) << int(IntegrationMethod::Rosenbrock4) << rtol;
        }
    }

    void sensitivitiesOutOfTheErrorControl()
    {
        QFETCH(int, method);
        QFETCH(double, rtol);
        const double c = 0.4, k = 4.0, x0 = 1.0, v0 = 0.5;
        auto m = test::compiled("param c = 0.4\nparam k = 4\nx'' = -c*x' - k*x\nx(0) = 1 estimate, 0.5 estimate\n");
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 8, 0.25);
        r.sensitivityParameters = {test::parameter(*m, "c"), test::parameter(*m, "k"), test::parameter(*m, "x(0)"),
                                   test::parameter(*m, "x'(0)")};
        auto settings = test::tight(IntegrationMethod(method), rtol, rtol / 100);
        settings.sensitivityErrorControl = integrate::SensitivityErrorControl::Include;
        const auto included = integrate::simulate(*m, r, settings);
        settings.sensitivityErrorControl = integrate::SensitivityErrorControl::Exclude;
        const auto excluded = integrate::simulate(*m, r, settings);
        QVERIFY2(excluded.statistics.steps < included.statistics.steps,
                 qPrintable(QString("%1 steps without, %2 with the sensitivities")
                                .arg(excluded.statistics.steps)
                                .arg(included.statistics.steps)));
        double worstState = 0, worstIncluded = 0, worstExcluded = 0;
        for (std::size_t s = 0; s < r.times.size(); ++s) {
            const double t = r.times[s];
            worstState = std::max(worstState, std::abs(excluded.states(static_cast<Eigen::Index>(s), 0) -
                                                       dampedOscillator(c, k, x0, v0, t)));
            for (int p = 0; p < 4; ++p) {
                const double analytic = complexStep(p, c, k, x0, v0, t);
                worstIncluded =
                    std::max(worstIncluded, relativeError(included.stateParameterSensitivity[s](0, p), analytic, 1e-1));
                worstExcluded =
                    std::max(worstExcluded, relativeError(excluded.stateParameterSensitivity[s](0, p), analytic, 1e-1));
            }
        }
        const QString figures = QString("state error %1, sensitivity error with %2, without %3")
                                    .arg(worstState)
                                    .arg(worstIncluded)
                                    .arg(worstExcluded);
        qInfo("%s; %zu steps without, %zu with the sensitivities", qPrintable(figures), excluded.statistics.steps,
              included.statistics.steps);
        QVERIFY2(worstState < 10 * rtol, qPrintable(figures));
        QVERIFY2(worstExcluded < 100 * rtol, qPrintable(figures));

        // Without sensitivities the setting changes nothing.
        integrate::SimulationRequest plain;
        plain.times = r.times;
        const auto a = integrate::simulate(*m, plain, settings);
        settings.sensitivityErrorControl = integrate::SensitivityErrorControl::Include;
        const auto b = integrate::simulate(*m, plain, settings);
        QCOMPARE(a.statistics.steps, b.statistics.steps);
        QVERIFY(a.states == b.states);
    }

    // With the sensitivities in the norm, rosenbrock4's controller is odeint's: every attempt, accepted
    // or rejected, gives the bits of odeint's rosenbrock4_controller, with and without a step limit.
    void rosenbrock4ControllerIsOdeintsWithTheSensitivitiesIncluded_data()
    {
        QTest::addColumn<double>("rtol");
        QTest::addColumn<double>("maxStep");
        QTest::newRow("1e-6") << 1e-6 << 0.0;
        QTest::newRow("1e-9") << 1e-9 << 0.0;
        QTest::newRow("1e-8, max step 0.05") << 1e-8 << 0.05;
    }

    void rosenbrock4ControllerIsOdeintsWithTheSensitivitiesIncluded()
    {
        QFETCH(double, rtol);
        QFETCH(double, maxStep);
        auto m = test::compiled(kForcedDuffing);
        integrate::ModelSystem ode(*m);
        integrate::SensitivitySystem system(ode, {0, 1, 2}, true);
        std::vector<double> z0(system.size());
        const double x0[2] = {3.0, 0.0};
        system.initialState(x0, nullptr, z0.data());
        // A first step far too long, so that the first attempts are rejected.
        const auto run = test::compareWithOdeintController(system, z0, 0.0, 6.0, 1.0, rtol / 100, rtol, maxStep);
        qInfo("%zu attempts, %zu accepted, %zu rejected", run.attempts, run.accepted, run.rejected);
        QVERIFY2(run.difference.empty(), run.difference.c_str());
        QVERIFY(run.rejected > 0);
        QVERIFY(run.accepted > 20);
    }

    // rosenbrock4 with the sensitivities left out, on a nonlinear forced problem against dopri5 at
    // rtol 1e-12: x as accurate as the tolerance asks, the sensitivities computed on x's steps
    // within a tolerance-scaled distance too, fewer steps than with them in the norm; without
    // sensitivity columns the steps of a plain run.
    void rosenbrock4WithoutSensitivitiesInTheErrorControl_data()
    {
        QTest::addColumn<double>("rtol");
        QTest::newRow("1e-6") << 1e-6;
        QTest::newRow("1e-8") << 1e-8;
    }

    void rosenbrock4WithoutSensitivitiesInTheErrorControl()
    {
        QFETCH(double, rtol);
        auto m = test::compiled(kForcedDuffing);
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 10, 0.05);
        r.sensitivityParameters = {0, 1, 2};
        r.initialStateSensitivity = true;
        r.recordStateSensitivity = true;
        const auto reference = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-12, 1e-14));
        auto settings = test::tight(IntegrationMethod::Rosenbrock4, rtol, rtol / 100);
        const auto included = integrate::simulate(*m, r, settings);
        settings.sensitivityErrorControl = integrate::SensitivityErrorControl::Exclude;
        const auto excluded = integrate::simulate(*m, r, settings);
        integrate::SimulationRequest plain;
        plain.times = r.times;
        const auto states = integrate::simulate(*m, plain, settings);

        double scaleX = 0, scaleS = 0;
        for (std::size_t s = 0; s < r.times.size(); ++s) {
            scaleX = std::max(scaleX, reference.states.row(static_cast<Eigen::Index>(s)).cwiseAbs().maxCoeff());
            scaleS = std::max(scaleS, reference.stateParameterSensitivity[s].cwiseAbs().maxCoeff());
            scaleS = std::max(scaleS, reference.stateInitialSensitivity[s].cwiseAbs().maxCoeff());
        }
        auto errors = [&](const integrate::Trajectory& tr) {
            double x = 0, S = 0;
            for (std::size_t s = 0; s < r.times.size(); ++s) {
                const auto i = static_cast<Eigen::Index>(s);
                x = std::max(x, (tr.states.row(i) - reference.states.row(i)).cwiseAbs().maxCoeff());
                S = std::max(S, (tr.stateParameterSensitivity[s] - reference.stateParameterSensitivity[s])
                                    .cwiseAbs()
                                    .maxCoeff());
                S = std::max(S, (tr.stateInitialSensitivity[s] - reference.stateInitialSensitivity[s])
                                    .cwiseAbs()
                                    .maxCoeff());
            }
            return std::pair{x / scaleX, S / scaleS};
        };
        const auto [xIncluded, sIncluded] = errors(included);
        const auto [xExcluded, sExcluded] = errors(excluded);
        const QString figures = QString("steps %1 with, %2 without the sensitivities; x error %3 / %4, S error %5 / %6 "
                                        "(relative to the largest value, with / without)")
                                    .arg(included.statistics.steps)
                                    .arg(excluded.statistics.steps)
                                    .arg(xIncluded)
                                    .arg(xExcluded)
                                    .arg(sIncluded)
                                    .arg(sExcluded);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(excluded.statistics.steps < included.statistics.steps, qPrintable(figures));
        QCOMPARE(excluded.statistics.steps, states.statistics.steps);
        QVERIFY(excluded.states == states.states);
        QVERIFY2(xExcluded < 10 * rtol, qPrintable(figures));
        QVERIFY2(sExcluded < 100 * rtol, qPrintable(figures));
    }

    void nonlinearForcedAgainstFiniteDifferences_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("method");
        const QString duffing = QString(kForcedDuffing) + "output x\noutput e = x*x' + B\n";
        const QString drag = "param c = 0.3\nparam w2 = 25\nparam Q = 5\n"
                             "u'' = -c*u'*abs(u') - w2*u - 0.5*sin(u)\nu(0) = 0, Q\n";
        QTest::newRow("duffing dopri5") << duffing << int(IntegrationMethod::Dopri5);
        QTest::newRow("duffing dop853") << duffing << int(IntegrationMethod::Dop853);
        QTest::newRow("duffing rosenbrock4") << duffing << int(IntegrationMethod::Rosenbrock4);
        // u'|u'| is not smooth where the velocity reverses: adaptive step sequences then shift
        // between the perturbed runs and blur the finite differences; a fixed-step method
        // differentiates exactly.
        QTest::newRow("drag rk4") << drag << int(IntegrationMethod::RK4);
    }

    void nonlinearForcedAgainstFiniteDifferences()
    {
        QFETCH(QString, model);
        QFETCH(int, method);
        auto m = test::compiled(model.toStdString());
        auto settings = test::tight(IntegrationMethod(method), 1e-12, 1e-14);
        settings.maxStep = IntegrationMethod(method) == IntegrationMethod::RK4 ? 1e-3 : 0.0;
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 3, 0.1);
        for (std::size_t p = 0; p < m->parameterCount(); ++p)
            r.sensitivityParameters.push_back(p);
        const auto tr = integrate::simulate(*m, r, settings);
        const std::vector<double> nominal(m->parameters().begin(), m->parameters().end());
        integrate::SimulationRequest plain = r;
        plain.sensitivityParameters.clear();
        double worst = 0;
        // Five-point central difference, truncation error O(h^4) (Abramowitz & Stegun 25.3.6).
        auto simulateWith = [&](std::size_t p, double value) {
            auto shifted = nominal;
            shifted[p] = value;
            m->setParameters(shifted);
            auto result = integrate::simulate(*m, plain, settings);
            m->setParameters(nominal);
            return result.outputs;
        };
        for (std::size_t p = 0; p < nominal.size(); ++p) {
            const double h = 1e-3 * std::max(1.0, std::abs(nominal[p]));
            const Eigen::MatrixXd fd = (-simulateWith(p, nominal[p] + 2 * h) + 8 * simulateWith(p, nominal[p] + h) -
                                        8 * simulateWith(p, nominal[p] - h) + simulateWith(p, nominal[p] - 2 * h)) /
                (12 * h);
            for (std::size_t s = 0; s < r.times.size(); ++s)
                for (Eigen::Index y = 0; y < tr.outputs.cols(); ++y) {
                    const double scale = 1e-3 * fd.col(y).cwiseAbs().maxCoeff();
                    worst = std::max(worst,
                                     relativeError(tr.outputParameterSensitivity[s](y, static_cast<Eigen::Index>(p)),
                                                   fd(static_cast<Eigen::Index>(s), y), std::max(scale, 1e-8)));
                }
        }
        QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    }

    void inputDrivenSensitivityWithRosenbrockMatchesDopri5()
    {
        // The Rosenbrock Jacobian uses du/dt of the input and second derivatives in (x, t, u).
        auto m = test::compiled("input f\nparam c = 0.2\nparam k = 3\nparam g = 0.5\n"
                                "x'' = -c*x' - k*x - g*x^3 + f*(1 + 0.1*x)\nx(0) = 0.1, 0\n");
        std::vector<double> ts, fs;
        for (int i = 0; i <= 200; ++i) {
            ts.push_back(i * 0.025);
            fs.push_back(std::sin(2.0 * ts.back()) + 0.3 * std::cos(7.0 * ts.back()));
        }
        integrate::InputSignals inputs({data::Signal(ts, fs)});
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 5, 0.25);
        r.inputs = &inputs;
        r.sensitivityParameters = {0, 1, 2};
        r.initialStateSensitivity = true;
        const auto a = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-12, 1e-14));
        const auto b = integrate::simulate(*m, r, test::tight(IntegrationMethod::Rosenbrock4, 1e-12, 1e-14));
        for (std::size_t s = 0; s < r.times.size(); ++s) {
            QVERIFY((a.stateParameterSensitivity[s] - b.stateParameterSensitivity[s]).cwiseAbs().maxCoeff() < 1e-7);
            QVERIFY((a.stateInitialSensitivity[s] - b.stateInitialSensitivity[s]).cwiseAbs().maxCoeff() < 1e-7);
        }
    }
};

QTEST_APPLESS_MAIN(TestSensitivity)
#include "test_sensitivity.moc"
