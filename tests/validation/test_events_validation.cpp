// Switches located as events (sign, abs, min, max of the state), against closed forms and
// finite differences:
//   - Coulomb-friction oscillator m x'' + k x + Fc sign(x') = 0 released from rest: each half
//     cycle is a harmonic arc about +-Fc/k, the amplitude falls by 2 Fc/k per half cycle, and the
//     mass sticks for good at the first reversal with |x| < Fc/k (Den Hartog 1931; Filippov 1988
//     for the sliding motion). The simulation matches the closed form at default tolerances,
//     sticks without chattering, and its sensitivities at rest equal the closed form's derivatives.
//   - Sensitivities across switches (Coulomb friction, a saturated controller, the impacting
//     cart's abs/sign/min/max) against central differences of the event-located simulation for
//     every integrator.
//   - The impacting cart (resources/examples/impact_cart.model): periodic orbits for wall
//     stiffness 1 ... 3000 converge with the default integrator tolerances, to the orbits of rtol 1e-12.
#include "SensitivityCheck.h"
#include "ValidationSupport.h"

#include "../engine/VectorTestSupport.h"

#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

constexpr double pi = std::numbers::pi;

// m = 2, k = 8 (omega = 2), Fc = 1 (Fc/k = 0.125), released from x0 = 1.03: the reversals are at
// |x| = 0.78, 0.53, 0.28, 0.03; it sticks at the fourth, x = +0.03, t = 2 pi (none is near the
// threshold 0.125, where sticking and sliding through are hard to tell apart).
const char* kCoulomb = "param m = 2\n"
                       "param k = 8\n"
                       "param Fc = 1\n"
                       "x'' = -(k*x + Fc*sign(x'))/m\n"
                       "x(0) = 1.03, 0\n"
                       "output x\n";

// The closed-form motion of m x'' + k x + Fc sign(x') = 0 from rest at x0 (static friction = Fc).
struct CoulombOscillator {
    double m, k, Fc, x0;

    double omega() const { return std::sqrt(k / m); }
    double band() const { return Fc / k; }  // |x| at or below which the spring cannot overcome friction
    // Half cycles before it sticks: the first n with |x0| - 2 n Fc/k <= Fc/k.
    int halfCycles() const { return std::max(0, static_cast<int>(std::ceil((std::abs(x0) - band()) / (2 * band())))); }
    double stickTime() const { return halfCycles() * pi / omega(); }
    // The reversal points x_n = (-1)^n sign(x0) (|x0| - 2 n Fc/k).
    double reversal(int n) const
    {
        return (n % 2 == 0 ? 1.0 : -1.0) * std::copysign(std::abs(x0) - 2 * n * band(), x0);
    }
    // (x, x') at time t: half cycle n is a harmonic arc about sign(x_n) Fc/k.
    std::pair<double, double> at(double t) const
    {
        const int n = static_cast<int>(std::floor(t * omega() / pi));
        if (n >= halfCycles())
            return {reversal(halfCycles()), 0.0};
        const double xn = reversal(n);
        const double centre = std::copysign(band(), xn);
        const double phase = omega() * (t - n * pi / omega());
        return {centre + (xn - centre) * std::cos(phase), -omega() * (xn - centre) * std::sin(phase)};
    }
    // d x_rest / d(Fc, k, x0) with the number of half cycles N fixed: x_N = (-1)^N (x0 - 2 N Fc/k).
    std::array<double, 3> restDerivatives() const
    {
        const int N = halfCycles();
        const double s = N % 2 == 0 ? 1.0 : -1.0;
        return {s * (-2.0 * N / k), s * (2.0 * N * Fc / (k * k)), s};
    }
};

const CoulombOscillator kCoulombClosedForm{2.0, 8.0, 1.0, 1.03};

// A second-order loop whose controller saturates at +-L: it leaves and re-enters saturation as it
// overshoots, so min and max each switch several times.
const char* kSaturation = "param c = 0.4\n"
                          "param k = 1\n"
                          "param K = 20\n"
                          "param L = 2\n"
                          "x'' = -c*x' - k*x + min(max(K*(1 - x), -L), L)\n"
                          "x(0) = 0.2, 0\n"
                          "output x\n";

struct SensitivityCase {
    const char* label;
    std::string text;
    std::vector<std::string> parameters;
    std::vector<std::size_t> initialStates;  // the states whose initial value is perturbed
    double tEnd;
    // The differences' step relative to the parameter: truncation ~ step^2, integration noise ~
    // 1e-12/step (the implicit methods' Newton solves add to it).
    double differenceStep;
    std::vector<std::pair<std::string, double>> changes;  // parameter values other than the model's
};

std::vector<SensitivityCase> sensitivityCases()
{
    return {
        // Released from rest, on the surface x' = 0: the flow is not differentiable in x'(0) there
        // (a push either way starts on another branch), so only x(0) is perturbed.
        {"Coulomb friction", kCoulomb, {"Fc", "k"}, {0}, 8.0, 1e-4, {}},
        {"saturation", kSaturation, {"K", "L", "c"}, {0, 1}, 8.0, 1e-4, {}},
        // From rest it reaches the right wall near t = 1.5 and the left one later: abs, sign,
        // max and min all switch. Its dx'/dgamma grows to 36 over two periods, and so do the
        // higher derivatives: a smaller step keeps the truncation error below 1e-6.
        {"impacting cart",
         validation::readText(validation::examplePath("impact_cart.model")),
         {"kc", "b", "gamma"},
         {0, 1},
         4 * pi,
         1e-5,
         {{"gamma", 1.8}}},
    };
}

// Sample times not on a round grid: a sample that falls within the difference step's shift of a
// switching time would compare a one-sided quotient.
std::vector<double> sensitivityTimes(double tEnd)
{
    return integrate::uniformGrid(0.0, tEnd, tEnd / 97.3);
}

// The impacting cart's orbits with rtol 1e-12 (as test_periodic_validation runs them) and with the defaults.
shooting::PeriodicSettings cartSettings(bool tight)
{
    shooting::PeriodicSettings s;
    s.period = 2 * pi;
    if (tight) {
        s.integrator.relativeTolerance = 1e-12;
        s.integrator.absoluteTolerance = 1e-14;
        s.newton.residualTolerance = 1e-9;
    }
    return s;
}

}  // namespace

class TestEventsValidation : public QObject {
    Q_OBJECT

private slots:
    void coulombClosedFormIsConsistent()
    {
        const auto& c = kCoulombClosedForm;
        QCOMPARE(c.halfCycles(), 4);
        QVERIFY(std::abs(c.reversal(4) - 0.03) < 1e-15);
        for (int n = 0; n < 4; ++n)  // continuous at the reversals, at rest there
            for (double side : {-1e-9, 1e-9}) {
                const auto [x, v] = c.at((n + 1) * pi / c.omega() + side);
                QVERIFY(std::abs(x - c.reversal(n + 1)) < 1e-8);
                QVERIFY(std::abs(v) < 1e-8);
            }
    }

    void coulombFrictionAgainstClosedForm()
    {
        try {
            eval::CompiledModel model(validation::compiledText(kCoulomb, "coulomb"));
            const auto& c = kCoulombClosedForm;
            integrate::SimulationRequest r;
            r.times = integrate::uniformGrid(0.0, 10.0, 0.01);
            const integrate::IntegratorSettings defaults;
            const auto tr = integrate::simulate(model, r, defaults);
            double worstX = 0.0, worstV = 0.0;
            for (std::size_t k = 0; k < r.times.size(); ++k) {
                const auto [x, v] = c.at(r.times[k]);
                worstX = std::max(worstX, std::abs(tr.states(static_cast<Eigen::Index>(k), 0) - x));
                worstV = std::max(worstV, std::abs(tr.states(static_cast<Eigen::Index>(k), 1) - v));
            }
            qInfo("Coulomb oscillator, default tolerances: max |x - closed form| = %.2e, max |x' - closed form| = %.2e "
                  "over "
                  "%zu samples; %zu steps, %zu rejected; sticks at t = %.6f, x = %.6f",
                  worstX, worstV, r.times.size(), tr.statistics.steps, tr.statistics.rejectedSteps, c.stickTime(),
                  c.reversal(c.halfCycles()));
            QVERIFY2(worstX < 1e-7, qPrintable(QString::number(worstX)));
            QVERIFY2(worstV < 1e-7, qPrintable(QString::number(worstV)));
            // At rest: the sliding motion on x' = 0 is integrated, not chattered across.
            const Eigen::Index last = tr.states.rows() - 1;
            QVERIFY(std::abs(tr.states(last, 1)) < 1e-12);
            QVERIFY(std::abs(tr.states(last, 0) - 0.03) < 1e-7);
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    // Sticking costs a few steps however long it lasts: chattering across x' = 0 would cost
    // steps (and switches) in proportion to the time.
    void coulombStickingDoesNotChatter()
    {
        try {
            eval::CompiledModel model(validation::compiledText(kCoulomb, "coulomb"));
            const double stick = kCoulombClosedForm.stickTime();
            const integrate::IntegratorSettings defaults;
            std::size_t steps[2]{}, events[2]{};
            double x[2]{};
            for (int i = 0; i < 2; ++i) {
                integrate::SimulationRequest r;
                r.times = {0.0, stick + 0.5, stick + (i == 0 ? 1.0 : 1000.0)};
                const auto tr = integrate::simulate(model, r, defaults);
                steps[i] = tr.statistics.steps;
                events[i] = tr.statistics.events;
                x[i] = tr.states(2, 0);
                QVERIFY(std::abs(tr.states(2, 1)) < 1e-12);
            }
            qInfo("Coulomb oscillator: %zu steps and %zu switches to 0.5 time units after it sticks, %zu and %zu to "
                  "1000 after; it moved %.1e meanwhile",
                  steps[0], events[0], steps[1], events[1], std::abs(x[1] - x[0]));
            QVERIFY2(steps[1] < steps[0] + 50, qPrintable(QStringLiteral("%1 vs %2").arg(steps[1]).arg(steps[0])));
            // The reversals and the start of sticking, nothing after.
            QCOMPARE(events[0], std::size_t(kCoulombClosedForm.halfCycles()));
            QCOMPARE(events[1], events[0]);
            QVERIFY(std::abs(x[1] - x[0]) < 1e-9);
            QVERIFY(steps[0] < 1000);
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    // At rest, x = x_N depends on Fc, k and x0 in closed form; the sensitivities must say the same.
    void coulombSensitivitiesAtRestEqualClosedForm()
    {
        try {
            eval::CompiledModel model(validation::compiledText(kCoulomb, "coulomb"));
            integrate::SimulationRequest r;
            r.times = {0.0, kCoulombClosedForm.stickTime() + 1.0};
            r.sensitivityParameters = {test::parameter(model, "Fc"), test::parameter(model, "k")};
            r.initialStateSensitivity = true;
            const auto tr = integrate::simulate(model, r, integrate::IntegratorSettings{});
            const auto expected = kCoulombClosedForm.restDerivatives();
            const double dFc = tr.stateParameterSensitivity[1](0, 0), dk = tr.stateParameterSensitivity[1](0, 1),
                         dx0 = tr.stateInitialSensitivity[1](0, 0);
            qInfo("at rest: dx/dFc = %.10f (closed form %.10f), dx/dk = %.10f (%.10f), dx/dx0 = %.10f (%.10f)", dFc,
                  expected[0], dk, expected[1], dx0, expected[2]);
            QVERIFY(std::abs(dFc - expected[0]) < 1e-6 * std::abs(expected[0]));
            QVERIFY(std::abs(dk - expected[1]) < 1e-6 * std::abs(expected[1]));
            QVERIFY(std::abs(dx0 - expected[2]) < 1e-6);
            for (const auto* S : {&tr.stateParameterSensitivity[1], &tr.stateInitialSensitivity[1]})
                QVERIFY(S->row(1).cwiseAbs().maxCoeff() < 1e-9);  // the velocity stays 0 whatever the parameters
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    void sensitivitiesAcrossSwitches_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("model");
        const auto cases = sensitivityCases();
        for (const auto& method : integrate::kIntegrationMethods.entries())
            for (std::size_t c = 0; c < cases.size(); ++c) {
                const QString name = QString::fromUtf8(method.name.data(), static_cast<qsizetype>(method.name.size()));
                QTest::newRow(qPrintable(name + QStringLiteral(", ") + QString::fromLatin1(cases[c].label)))
                    << static_cast<int>(method.value) << static_cast<int>(c);
            }
    }

    void sensitivitiesAcrossSwitches()
    {
        try {
            QFETCH(int, method);
            QFETCH(int, model);
            const auto c = sensitivityCases()[static_cast<std::size_t>(model)];
            eval::CompiledModel m(validation::compiledText(c.text, c.label));
            m.setParameters(validation::valuesWith(m.source(), c.changes));
            const auto settings = validation::sensitivitySettings(static_cast<IntegrationMethod>(method));
            const auto times = sensitivityTimes(c.tEnd);
            const double tolerance = validation::sensitivityTolerance(settings.method);
            for (const auto& name : c.parameters) {
                const auto e = validation::parameterSensitivityMismatch(m, test::parameter(m, name), times, settings,
                                                                        c.differenceStep);
                qInfo("  d%s/d%s: worst relative difference %.2e at t = %.4f (scale %.3g)",
                      m.source().stateNames[e.state].c_str(), name.c_str(), e.worst, times[e.sample], e.scale);
                QVERIFY2(e.worst < tolerance, qPrintable(QStringLiteral("d/d%1: %2").arg(name.c_str()).arg(e.worst)));
            }
            for (const std::size_t state : c.initialStates) {
                const auto e = validation::initialSensitivityMismatch(m, state, times, settings, c.differenceStep);
                qInfo("  d%s/d%s(0): worst relative difference %.2e at t = %.4f (scale %.3g)",
                      m.source().stateNames[e.state].c_str(), m.source().stateNames[state].c_str(), e.worst,
                      times[e.sample], e.scale);
                QVERIFY2(
                    e.worst < tolerance,
                    qPrintable(QStringLiteral("d/d%1(0): %2").arg(m.source().stateNames[state].c_str()).arg(e.worst)));
            }
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    // Today's orbits at rtol 1e-12 (test_periodic_validation) and the same with the default
    // tolerances: with the walls located, both converge to the same orbit (kc = 1: below).
    void cartConvergesWithDefaultTolerances()
    {
        try {
            eval::CompiledModel model(validation::compiledExample("impact_cart.model"));
            for (double kc : {3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0}) {
                model.setParameters(validation::valuesWith(model.source(), {{"kc", kc}, {"gamma", 1.0}}));
                const auto tight = shooting::findPeriodicSolution(model, test::vec({-0.5, 0.5}), cartSettings(true));
                const auto defaults =
                    shooting::findPeriodicSolution(model, test::vec({-0.5, 0.5}), cartSettings(false));
                QVERIFY2(tight.converged(),
                         qPrintable(QStringLiteral("kc = %1, rtol 1e-12: %2")
                                        .arg(kc)
                                        .arg(tight.newton.termination.message.c_str())));
                QVERIFY2(defaults.converged(),
                         qPrintable(QStringLiteral("kc = %1, default tolerances: %2")
                                        .arg(kc)
                                        .arg(defaults.newton.termination.message.c_str())));
                const double difference = (defaults.initialState - tight.initialState).cwiseAbs().maxCoeff();
                qInfo("cart kc = %6g: x(0) = (%.8f, %.8f), |default - rtol 1e-12| = %.1e, %zu / %zu Newton iterations, "
                      "%s",
                      kc, defaults.initialState(0), defaults.initialState(1), difference, defaults.newton.iterations,
                      tight.newton.iterations, defaults.floquet.verdict.c_str());
                QVERIFY2(difference < 1e-6, qPrintable(QStringLiteral("kc = %1: %2").arg(kc).arg(difference)));
                for (std::size_t i = 0; i < defaults.floquet.multipliers.size(); ++i)
                    QVERIFY(std::abs(defaults.floquet.multipliers[i] - tight.floquet.multipliers[i]) < 1e-5);
            }
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    // At kc = 1 shooting from (-0.5, 0.5) finds x = -sin t, which exists for every kc: it touches
    // both walls with zero velocity (grazing) and never enters them. Between the walls the cart is
    // a free mass, so the variational monodromy matrix is [[1, 2 pi], [0, 1]] and the shooting
    // Jacobian M - I is singular on this orbit: plain Newton stops. Modified steps (Gay 1976, the
    // default) converge with it; differences of the flow see the walls from one side and converge
    // too, to within the grazing orbit's non-smoothness (the automatic Jacobian's fallback for a
    // model with switches when the variational one fails).
    void cartGrazingOrbitAtUnitStiffness()
    {
        try {
            eval::CompiledModel model(validation::compiledExample("impact_cart.model"));
            model.setParameters(validation::valuesWith(model.source(), {{"kc", 1.0}, {"gamma", 1.0}}));
            auto settings = cartSettings(false);
            settings.jacobian = shooting::ShootingJacobian::Variational;
            settings.newton.modifiedSteps = false;
            QVERIFY(!shooting::findPeriodicSolution(model, test::vec({-0.5, 0.5}), settings).converged());
            settings.newton.modifiedSteps = true;
            for (const auto jacobian : {shooting::ShootingJacobian::Variational, shooting::ShootingJacobian::Automatic,
                                        shooting::ShootingJacobian::FiniteDifferences}) {
                settings.jacobian = jacobian;
                const auto s = shooting::findPeriodicSolution(model, test::vec({-0.5, 0.5}), settings);
                QVERIFY2(s.converged(), s.newton.termination.message.c_str());
                qInfo("cart kc = 1, default tolerances, %s Jacobian: x(0) = (%.2e, %.10f) (x = -sin t: (0, -1)), max "
                      "|x| = %.6f, %zu Newton iterations, %zu modified steps",
                      jacobian == shooting::ShootingJacobian::FiniteDifferences
                          ? "differenced"
                          : (jacobian == shooting::ShootingJacobian::Variational ? "variational" : "automatic"),
                      s.initialState(0), s.initialState(1), s.states.col(0).cwiseAbs().maxCoeff(), s.newton.iterations,
                      s.newton.modifiedSteps);
                QVERIFY(std::abs(s.initialState(0)) < 1e-3);
                QVERIFY(std::abs(s.initialState(1) + 1.0) < 1e-6);
            }
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestEventsValidation)
#include "test_events_validation.moc"
