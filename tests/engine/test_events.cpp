// Switches and resets located by the integrator: the switched form of sign/abs/min/max, Coulomb
// friction with sticking (Filippov sliding) against its closed form, a bouncing ball against its
// closed form, and sensitivities across switches and resets against finite differences of the
// event-located flow, for every integrator.
#include "IntegrationTestSupport.h"

#include "engine/integrate/IntegrationError.h"
#include "engine/job/FitJob.h"
#include "engine/job/JobError.h"
#include "engine/model/SymbolicFunctions.h"

#include <QtTest/QtTest>

#include <cmath>
#include <numbers>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

constexpr double pi = std::numbers::pi;

// m x'' + k x + Fc sign(x') = 0 with m = 1: from rest at x0 the mass moves in half cycles of
// length pi/sqrt(k) about +-Fc/k, each reversal 2 Fc/k closer to the origin, until it stops at a
// reversal with |x| <= Fc/k (static friction Fc).
const std::string kCoulomb = "param k = 1 [0.1, 10]\nparam Fc = 0.1 [0, 1]\nparam x0 = 1.05\n"
                             "x'' = -k*x - Fc*sign(x')\nx(0) = x0, 0\noutput x\n";

std::pair<double, double> coulombExact(double t, double k, double Fc, double x0)
{
    const double w = std::sqrt(k), half = pi / w, c = Fc / k;
    double x = x0;
    for (double start = 0;; start += half) {
        if (std::abs(x) <= c)
            return {x, 0.0};  // stuck for good
        const double centre = x > 0 ? c : -c;
        if (t <= start + half) {
            const double s = t - start;
            return {centre + (x - centre) * std::cos(w * s), -(x - centre) * w * std::sin(w * s)};
        }
        x = 2 * centre - x;
    }
}

integrate::Trajectory run(eval::CompiledModel& model, const std::vector<double>& times,
                          const integrate::IntegratorSettings& settings, std::vector<std::size_t> parameters = {},
                          bool initialStates = false)
{
    integrate::SimulationRequest request;
    request.times = times;
    request.sensitivityParameters = std::move(parameters);
    request.initialStateSensitivity = initialStates;
    return integrate::simulate(model, request, settings);
}

// The state at the last sample for parameter p shifted by h (relative).
double endState(eval::CompiledModel& model, const std::vector<double>& times,
                const integrate::IntegratorSettings& settings, std::size_t p, double h, std::size_t state)
{
    std::vector<double> values(model.parameters().begin(), model.parameters().end());
    const double saved = values[p];
    values[p] = saved + h;
    model.setParameters(values);
    const auto trajectory = run(model, times, settings);
    values[p] = saved;
    model.setParameters(values);
    return trajectory.states(trajectory.states.rows() - 1, static_cast<Eigen::Index>(state));
}

// A bouncing ball x'' = -g with `when x < 0 : x' = -e*x'` built directly (the model language's
// statement fills the same Model::events).
std::shared_ptr<const eval::CompiledModelSource> bouncingBall()
{
    auto m = model::parseModel("param g = 9.81 [1, 20]\nparam e = 0.8 [0, 1]\nparam h = 1\n"
                               "x'' = -g\nx(0) = h, 0\noutput x\n",
                               "<ball>");
    model::Event event;
    const std::size_t x = m.stateIndex("x"), v = m.stateIndex("x'");
    event.condition = m.states[x].symbol;
    event.direction = -1;
    event.assignments.push_back({v, -m.parameterSymbols[m.parameterIndex("e")] * m.states[v].symbol});
    event.text = "when x < 0";
    event.where = {5, 1};
    m.events.push_back(event);
    return eval::compileModel(m);
}

// Apex heights h e^(2k) and impact times t_k = sqrt(2h/g) (1 + 2 e (1 - e^k)/(1 - e)).
double impactTime(std::size_t k, double g, double e, double h)
{
    const double first = std::sqrt(2 * h / g);
    return first * (1 + 2 * e * (1 - std::pow(e, static_cast<double>(k))) / (1 - e));
}

}  // namespace

class EventsTest : public QObject {
    Q_OBJECT

private slots:
    void switchesOfSignAbsMinMaxAndTheirWrittenForm()
    {
        const auto source = test::compiledSource("param c = 1\ninput u\nx'' = -c*sign(x') - abs(x) + "
                                                 "min(max(u - x, -1), 1) + sign(c)\nx(0) = 1, 0\n");
        QCOMPARE(source->switchCount(), std::size_t(4));  // sign(c) is constant along a solution
        std::size_t friction = source->switchCount();
        for (std::size_t i = 0; i < source->switchCount(); ++i)
            if (source->switches.written[i] == "sign(x')")
                friction = i;
        QVERIFY(friction < source->switchCount());
        eval::CompiledModel model(source);
        // Released, the model is evaluated as written; held on modes, on their branches.
        const double x[] = {0.5, -0.2}, u[] = {3.0};
        model.setPoint(0, x, u);
        double f[2];
        model.rhs(f);
        QCOMPARE(f[1], 1 - 0.5 + 1 + 1.0);
        std::vector<double> modes(source->switchCount(), 1.0);  // all on the branch they are on but sign(x')
        model.holdModes(modes.data());
        model.rhs(f);
        QCOMPARE(f[1], -1 - 0.5 + 1 + 1.0);
        std::vector<double> g(source->switchCount());
        model.switchingFunctions(g.data());
        for (std::size_t i = 0; i < g.size(); ++i)
            QVERIFY(i == friction ? g[i] < 0 : g[i] > 0);
        modes[friction] = -1;
        model.holdModes(modes.data());
        model.rhs(f);
        QCOMPARE(f[1], 1 - 0.5 + 1 + 1.0);
        model.releaseModes();
        model.rhs(f);
        QCOMPARE(f[1], 1 - 0.5 + 1 + 1.0);
    }

    void coulombFrictionSticksWhereTheClosedFormSays_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("dopri5") << int(IntegrationMethod::Dopri5);
        QTest::newRow("dop853") << int(IntegrationMethod::Dop853);
        QTest::newRow("rosenbrock4") << int(IntegrationMethod::Rosenbrock4);
    }
    void coulombFrictionSticksWhereTheClosedFormSays()
    {
        QFETCH(int, method);
        auto model = test::compiled(kCoulomb);
        const auto times = integrate::uniformGrid(0, 20, 0.05);
        const auto trajectory = run(*model, times, test::tight(IntegrationMethod(method), 1e-10, 1e-12));
        double worst = 0;
        for (std::size_t k = 0; k < times.size(); ++k) {
            const auto [x, v] = coulombExact(times[k], 1, 0.1, 1.05);
            const auto row = static_cast<Eigen::Index>(k);
            worst = std::max({worst, std::abs(trajectory.states(row, 0) - x), std::abs(trajectory.states(row, 1) - v)});
        }
        qInfo("largest error %.2e; %zu steps, %zu events", worst, trajectory.statistics.steps,
              trajectory.statistics.events);
        QVERIFY(worst < 1e-7);
        // Stuck at the fifth reversal.
        QVERIFY(std::abs(trajectory.states(trajectory.states.rows() - 1, 0) + 0.05) < 1e-8);
        // Sticking without chattering: a few events (five reversals, the sticking) and few steps.
        QVERIFY(trajectory.statistics.events <= 8);
        QVERIFY(trajectory.statistics.steps < 3000);
    }

    // dx/dp and dx/dx0 from the sensitivity equations with their saltation jumps equal central
    // differences of the event-located flow, for every integrator, across reversals of the
    // friction, its sticking, and a saturation.
    void sensitivitiesAcrossSwitchesEqualFiniteDifferences_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("end");
        QTest::addColumn<double>("tolerance");
        const QString saturated = "param k = 4 [0.1, 10]\nparam Fc = 0.3 [0, 1]\nparam x0 = 1\n"
                                  "x'' = min(max(-k*x - 0.2*x', -Fc), 2*Fc) + 0.1*abs(x)\nx(0) = x0, 0\noutput x\n";
        for (auto [method, name, tolerance] :
             {std::tuple{IntegrationMethod::Dopri5, "dopri5", 1e-6}, {IntegrationMethod::Dop853, "dop853", 1e-6},
              {IntegrationMethod::Rosenbrock4, "rosenbrock4", 1e-6},
              {IntegrationMethod::SparseImplicit, "sparse-implicit", 1e-5}, {IntegrationMethod::RK4, "rk4", 1e-6},
              {IntegrationMethod::Euler, "euler", 2e-2}, {IntegrationMethod::ImplicitEuler, "implicit-euler", 2e-2},
              {IntegrationMethod::CrankNicolson, "crank-nicolson", 1e-5}}) {
            QTest::newRow((std::string(name) + ", friction while moving").c_str())
                << int(method) << QString::fromStdString(kCoulomb) << 7.0 << tolerance;
            // First-order methods: the saltation of the continuous flow differs from the jump of
            // the discrete one by O(h) (within 1e-3 at h = 1e-5, measured); long runs cost too much.
            if (tolerance < 1e-3)
                QTest::newRow((std::string(name) + ", friction stuck").c_str())
                    << int(method) << QString::fromStdString(kCoulomb) << 17.0 << tolerance;
            QTest::newRow((std::string(name) + ", saturation").c_str()) << int(method) << saturated << 6.0 << tolerance;
        }
    }
    void sensitivitiesAcrossSwitchesEqualFiniteDifferences()
    {
        QFETCH(int, method);
        QFETCH(QString, model);
        QFETCH(double, end);
        QFETCH(double, tolerance);
        auto compiled = test::compiled(model.toStdString());
        const auto m = IntegrationMethod(method);
        auto settings = test::tight(m, 1e-12, 1e-14);
        if (!integrate::isAdaptive(m))
            settings.maxStep = m == IntegrationMethod::Euler || m == IntegrationMethod::ImplicitEuler ? 1e-4 : 1e-3;
        const std::vector<double> times = integrate::uniformGrid(0, end, end / 10);
        const std::size_t np = compiled->parameterCount();
        std::vector<std::size_t> all(np);
        for (std::size_t p = 0; p < np; ++p)
            all[p] = p;
        const auto trajectory = run(*compiled, times, settings, all);
        QVERIFY(trajectory.statistics.events > 0);
        const Eigen::MatrixXd& S = trajectory.stateParameterSensitivity.back();
        for (std::size_t p = 0; p < np; ++p) {
            const double h = 1e-6 * std::max(1.0, std::abs(compiled->parameters()[p]));
            for (std::size_t i = 0; i < 2; ++i) {
                const double fd = (endState(*compiled, times, settings, p, h, i) -
                                   endState(*compiled, times, settings, p, -h, i)) /
                    (2 * h);
                const double exact = S(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(p));
                QVERIFY2(std::abs(exact - fd) <= tolerance * std::max(1.0, std::abs(fd)),
                         qPrintable(QString("d%1/d%2: sensitivity %3, finite differences %4")
                                        .arg(QString::fromStdString(compiled->source().stateNames[i]),
                                             QString::fromStdString(compiled->source().parameterNames[p]))
                                        .arg(exact, 0, 'g', 10)
                                        .arg(fd, 0, 'g', 10)));
            }
        }
    }

    void bouncingBallAgainstItsClosedForm()
    {
        eval::CompiledModel model(bouncingBall());
        const double g = 9.81, e = 0.8, h = 1.0;
        const std::vector<double> times = integrate::uniformGrid(0, 3.5, 0.01);
        const auto trajectory = run(model, times, test::tight(), {test::parameter(model, "e"), test::parameter(model, "g")});
        // Between impacts k and k+1 the ball flies up at v_k = e^k sqrt(2 g h) e.
        double worst = 0, worstDe = 0;
        for (std::size_t s = 0; s < times.size(); ++s) {
            const double t = times[s];
            double x = h - g * t * t / 2, dxde = 0;
            for (std::size_t k = 0; impactTime(k, g, e, h) <= t; ++k) {
                const double tk = impactTime(k, g, e, h), v = std::pow(e, k + 1.0) * std::sqrt(2 * g * h);
                const double s2 = t - tk;
                x = v * s2 - g * s2 * s2 / 2;
                // d/de of v s2 - g s2^2/2 with tk and v depending on e.
                const double dtk = k == 0 ? 0.0
                                          : std::sqrt(2 * h / g) * 2 *
                        ((1 - std::pow(e, double(k))) / (1 - e) +
                         e * (-(double(k)) * std::pow(e, k - 1.0) * (1 - e) + (1 - std::pow(e, double(k)))) /
                             ((1 - e) * (1 - e)));
                const double dv = (k + 1.0) * std::pow(e, double(k)) * std::sqrt(2 * g * h);
                dxde = dv * s2 - (v - g * s2) * dtk;
            }
            const auto row = static_cast<Eigen::Index>(s);
            worst = std::max(worst, std::abs(trajectory.states(row, 0) - x));
            worstDe = std::max(worstDe, std::abs(trajectory.stateParameterSensitivity[s](0, 0) - dxde));
        }
        qInfo("bouncing ball: largest error %.2e in x, %.2e in dx/de; %zu events", worst, worstDe,
              trajectory.statistics.events);
        QVERIFY(worst < 1e-8);
        QVERIFY(worstDe < 1e-6);
    }

    void zenoBehaviourStopsWithAMessageNamingTheEvent()
    {
        eval::CompiledModel model(bouncingBall());
        const double accumulation = impactTime(0, 9.81, 0.8, 1) + std::sqrt(2 / 9.81) * 2 * 0.8 / 0.2;
        try {
            run(model, integrate::uniformGrid(0, 6, 0.01), test::tight());
            QFAIL("the integration went past the accumulation of impacts");
        } catch (const integrate::IntegrationError& error) {
            const QString message = error.what();
            QVERIFY2(message.contains("when x < 0") && message.contains("line 5") && message.contains("Zeno"),
                     qPrintable(message));
            QCOMPARE(error.reason(), integrate::IntegrationError::Reason::Zeno);
            QVERIFY2(std::abs(error.timeReached() - accumulation) < 1e-3,
                     qPrintable(QString("stopped at %1, impacts accumulate at %2")
                                    .arg(error.timeReached(), 0, 'g', 10)
                                    .arg(accumulation, 0, 'g', 10)));
        }
    }

    // Methods that evaluate f without integrating it cannot apply a reset: they refuse the model.
    void methodsThatDoNotIntegrateRefuseResets()
    {
        const auto ball = test::compiledSource("param g = 9.81\nparam e = 0.8 [0, 1]\nx'' = -g\n"
                                               "when x < 0 : x' = -e*x'\nx(0) = 1, 0\noutput x\n");
        estimate::FitSettings settings;
        settings.method = estimate::EstimationMethod::Multistep;
        try {
            job::checkFitSettings(*ball, settings);
            QFAIL("the multistep method accepted a model with a reset");
        } catch (const job::JobError& error) {
            const QString message = error.what();
            QVERIFY2(message.contains("when x < 0") && message.contains("line 4"), qPrintable(message));
        }
        settings.method = estimate::EstimationMethod::OutputError;
        job::checkFitSettings(*ball, settings);
    }
};

QTEST_GUILESS_MAIN(EventsTest)
#include "test_events.moc"
