// State resets (`when CONDITION : STATE = EXPR`) against closed forms:
//   - A ball dropped from h0 = 1 onto a fixed floor, x'' = -g, when x < 0 : x' = -e*x'. Impact n
//     (n >= 1) is at t_n = T0 (1 + 2 (e + ... + e^(n-1))), T0 = sqrt(2 h0/g), with velocity
//     e^(n-1) V0, V0 = g T0; the apex after it is at t_n + e^n T0 with height e^(2n) h0; the impacts
//     accumulate at T0 (1 + e)/(1 - e) (Zeno). Impact times, apex heights and dx/de, dx/dg against
//     the closed form and its derivatives; sensitivities against central differences for every
//     integrator; a fit of e and g from sampled heights; the integration stopped at the
//     accumulation point.
//   - A forced cart hitting a wall with a coefficient of restitution (Shaw and Holmes 1983):
//     x'' + c x' + k x = F cos(w t), when x > d : x' = -r*x'. Its 1-periodic orbit by single and
//     multiple shooting; the Floquet multipliers of both and of central differences of the
//     one-period map agree, and their product is r^2 exp(-c T) (each impact's saltation matrix has
//     determinant r^2).
#include "SensitivityCheck.h"
#include "ValidationSupport.h"

#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

const char* kBall = "param g = 9.81 [1, 20]\n"
                    "param e = 0.8 [0, 1]\n"
                    "x'' = -g\n"
                    "when x < 0 : x' = -e*x'\n"
                    "x(0) = 1, 0\n"
                    "output x\n";

// The closed-form bouncing ball from rest at height h0.
struct BouncingBall {
    double g, e, h0;

    double T0() const { return std::sqrt(2 * h0 / g); }  // time to the first impact
    double V0() const { return g * T0(); }  // speed at the first impact
    // e + e^2 + ... + e^(n-1) and its derivative in e.
    double S(int n) const
    {
        double s = 0.0;
        for (int j = 1; j < n; ++j)
            s += std::pow(e, j);
        return s;
    }
    double dS(int n) const
    {
        double s = 0.0;
        for (int j = 1; j < n; ++j)
            s += j * std::pow(e, j - 1);
        return s;
    }
    double impact(int n) const { return T0() * (1 + 2 * S(n)); }  // t_n, n >= 1
    double apexTime(int n) const { return impact(n) + std::pow(e, n) * T0(); }
    double apexHeight(int n) const { return std::pow(e, 2 * n) * h0; }
    double accumulation() const { return T0() * (1 + e) / (1 - e); }
    int impactsBefore(double t) const
    {
        int n = 0;
        while (impact(n + 1) <= t)
            ++n;
        return n;
    }

    // x, x', dx/de, dx'/de, dx/dg, dx'/dg at t (not at an impact).
    std::array<double, 6> at(double t) const
    {
        const int n = impactsBefore(t);
        if (n == 0)
            return {h0 - g * t * t / 2, -g * t, 0.0, 0.0, -t * t / 2, -t};
        const double tn = impact(n), tau = t - tn, Vn = std::pow(e, n) * V0();
        const double dtauDe = -2 * T0() * dS(n);  // -dt_n/de
        const double dtauDg = tn / (2 * g);  // t_n ~ g^(-1/2)
        const double dVnDe = n * std::pow(e, n - 1) * V0(), dVnDg = Vn / (2 * g);
        const double v = Vn - g * tau;
        return {Vn * tau - g * tau * tau / 2,
                v,
                dVnDe * tau + v * dtauDe,
                dVnDe - g * dtauDe,
                dVnDg * tau - tau * tau / 2 + v * dtauDg,
                dVnDg - tau - g * dtauDg};
    }
};

const BouncingBall kBallClosedForm{9.81, 0.8, 1.0};

// Sample times at least `gap` away from every impact before tEnd.
std::vector<double> awayFromImpacts(const BouncingBall& b, double tEnd, double dt, double gap)
{
    std::vector<double> times;
    for (double t : integrate::uniformGrid(0.0, tEnd, dt)) {
        const int n = b.impactsBefore(t);
        if ((n == 0 || t - b.impact(n) > gap) && b.impact(n + 1) - t > gap)
            times.push_back(t);
    }
    return times;
}

// The forced cart with a wall at x = d and restitution r; T = 2 pi / w.
const char* kRestitutionCart = "param c = 0.1\n"
                               "param k = 1\n"
                               "param F = 1\n"
                               "param w = 1.2 fixed\n"
                               "param d = 0.5\n"
                               "param r = 0.8\n"
                               "x'' = -c*x' - k*x + F*cos(w*t)\n"
                               "when x > d : x' = -r*x'\n"
                               "x(0) = 0, 0\n"
                               "output x\n";
constexpr double kCartPeriod = 2 * std::numbers::pi / 1.2;
// x(0) on the orbit by SciPy's solve_ivp (DOP853, rtol 1e-12, event location, 200 periods settled).
const std::array<double, 2> kCartOrbitScipy{0.288839768197, 1.674861661885};

integrate::IntegratorSettings tightSettings()
{
    integrate::IntegratorSettings s;
    s.relativeTolerance = 1e-12;
    s.absoluteTolerance = 1e-14;
    return s;
}

// The one-period map's Jacobian by central differences of tight simulations.
Eigen::MatrixXd differencedMonodromy(eval::CompiledModel& model, const Eigen::VectorXd& x0, double period)
{
    const std::vector<double> p(model.parameters().begin(), model.parameters().end());
    const std::vector<double> times{0.0, period};
    Eigen::MatrixXd M(x0.size(), x0.size());
    const double h = 1e-6;
    for (Eigen::Index j = 0; j < x0.size(); ++j) {
        std::vector<double> up(x0.data(), x0.data() + x0.size()), down = up;
        up[static_cast<std::size_t>(j)] += h;
        down[static_cast<std::size_t>(j)] -= h;
        M.col(j) = (validation::statesAt(model, p, times, tightSettings(), &up).row(1) -
                    validation::statesAt(model, p, times, tightSettings(), &down).row(1))
                       .transpose() /
            (2 * h);
    }
    return M;
}

}  // namespace

class TestEventsResetValidation : public QObject {
    Q_OBJECT

private slots:
    void ballClosedFormIsConsistent()
    {
        const auto& b = kBallClosedForm;
        for (int n = 1; n < 6; ++n) {
            const auto before = b.at(b.impact(n) - 1e-9), after = b.at(b.impact(n) + 1e-9);
            QVERIFY(std::abs(before[0]) < 1e-8 && std::abs(after[0]) < 1e-8);
            QVERIFY(std::abs(after[1] + b.e * before[1]) < 1e-7);
            QVERIFY(std::abs(b.at(b.apexTime(n))[1]) < 1e-12);
            QVERIFY(std::abs(b.at(b.apexTime(n))[0] - b.apexHeight(n)) < 1e-12);
        }
        // The derivatives against central differences of the closed form itself.
        for (double t : {0.3, 1.0, 1.7, 2.5, 3.3}) {
            const double h = 1e-6;
            const auto x = b.at(t);
            const BouncingBall eUp{b.g, b.e + h, b.h0}, eDown{b.g, b.e - h, b.h0};
            const BouncingBall gUp{b.g + h, b.e, b.h0}, gDown{b.g - h, b.e, b.h0};
            for (int i = 0; i < 2; ++i) {
                QVERIFY(std::abs(x[2 + i] - (eUp.at(t)[i] - eDown.at(t)[i]) / (2 * h)) < 1e-6);
                QVERIFY(std::abs(x[4 + i] - (gUp.at(t)[i] - gDown.at(t)[i]) / (2 * h)) < 1e-6);
            }
        }
    }

    void ballImpactsAndApexesAgainstClosedForm()
    {
        try {
            const auto& b = kBallClosedForm;
            eval::CompiledModel model(validation::compiledText(kBall, "bouncing ball"));
            const double tEnd = 3.5;  // nine impacts, well before they accumulate at 4.064
            const int impacts = b.impactsBefore(tEnd);
            QCOMPARE(impacts, 9);
            integrate::SimulationRequest r;
            for (int n = 1; n <= impacts; ++n)
                r.times.insert(r.times.end(), {b.impact(n) - 1e-3, b.impact(n), b.apexTime(n)});
            r.times.insert(r.times.begin(), 0.0);
            const auto tr = integrate::simulate(model, r, integrate::IntegratorSettings{});
            double worstImpact = 0.0, worstApex = 0.0;
            for (int n = 1; n <= impacts; ++n) {
                const auto k = static_cast<Eigen::Index>(3 * n - 2);
                // Just before the impact the ball falls at e^(n-1) V0; x there says when it lands.
                const double speed = std::pow(b.e, n - 1) * b.V0();
                const double impactError = std::abs(tr.states(k, 0) - b.at(b.impact(n) - 1e-3)[0]) / speed;
                const double apexError = std::abs(tr.states(k + 2, 0) - b.apexHeight(n));
                worstImpact = std::max(worstImpact, impactError);
                worstApex = std::max(worstApex, apexError);
                QVERIFY2(std::abs(tr.states(k + 1, 0)) < 1e-7,
                         qPrintable(QStringLiteral("x(t_%1) = %2").arg(n).arg(tr.states(k + 1, 0))));
                QVERIFY(std::abs(tr.states(k + 2, 1)) < 1e-7);  // at rest at the apex
            }
            qInfo("bouncing ball, default tolerances: %d impacts, impact times within %.1e s, apex heights within "
                  "%.1e; %zu "
                  "steps",
                  impacts, worstImpact, worstApex, tr.statistics.steps);
            QVERIFY2(worstImpact < 1e-8, qPrintable(QString::number(worstImpact)));
            QVERIFY2(worstApex < 1e-8, qPrintable(QString::number(worstApex)));
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    void ballSensitivitiesAgainstAnalyticDerivatives()
    {
        try {
            const auto& b = kBallClosedForm;
            eval::CompiledModel model(validation::compiledText(kBall, "bouncing ball"));
            integrate::SimulationRequest r;
            r.times = awayFromImpacts(b, 3.5, 0.01, 1e-6);
            r.sensitivityParameters = {test::parameter(model, "e"), test::parameter(model, "g")};
            const auto tr = integrate::simulate(model, r, tightSettings());
            // Per column and state: the largest difference relative to the largest derivative.
            Eigen::Matrix2d worst = Eigen::Matrix2d::Zero(), scale = Eigen::Matrix2d::Zero();
            for (std::size_t k = 0; k < r.times.size(); ++k) {
                const auto x = b.at(r.times[k]);
                const auto& S = tr.stateParameterSensitivity[k];
                for (int state = 0; state < 2; ++state)
                    for (int column = 0; column < 2; ++column) {
                        const double exact = x[static_cast<std::size_t>(2 + 2 * column + state)];
                        worst(state, column) = std::max(worst(state, column), std::abs(S(state, column) - exact));
                        scale(state, column) = std::max(scale(state, column), std::abs(exact));
                    }
            }
            const Eigen::Matrix2d relative = worst.cwiseQuotient(scale);
            qInfo("bouncing ball: relative difference from the analytic derivatives: dx/de %.1e, dx'/de %.1e, dx/dg "
                  "%.1e, "
                  "dx'/dg %.1e (largest |dx/de| %.3g, |dx/dg| %.3g)",
                  relative(0, 0), relative(1, 0), relative(0, 1), relative(1, 1), scale(0, 0), scale(0, 1));
            QVERIFY2(relative.maxCoeff() < 1e-6, qPrintable(QString::number(relative.maxCoeff())));
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    void ballSensitivitiesAgainstDifferences_data()
    {
        QTest::addColumn<int>("method");
        for (const auto& method : integrate::kIntegrationMethods.entries())
            QTest::newRow(std::string(method.name).c_str()) << static_cast<int>(method.value);
    }

    void ballSensitivitiesAgainstDifferences()
    {
        try {
            QFETCH(int, method);
            eval::CompiledModel model(validation::compiledText(kBall, "bouncing ball"));
            const auto s = validation::sensitivitySettings(static_cast<IntegrationMethod>(method));
            const double tolerance = validation::sensitivityTolerance(s.method);
            // 10 ms from the closed form's impacts: Euler's impacts are up to 2 ms off them. The
            // step 1e-5 moves the sixth impact by about 6e-5 s (dt_6/de = 7.3 s). Over six impacts, not nine:
            // the first-order methods' O(h) mismatch grows with every impact (7e-2 at the ninth).
            const auto times = awayFromImpacts(kBallClosedForm, 2.5, 2.5 / 97.3, 1e-2);
            const double step = 1e-5;
            for (const char* name : {"e", "g"}) {
                const auto e =
                    validation::parameterSensitivityMismatch(model, test::parameter(model, name), times, s, step);
                qInfo("  d%s/d%s: worst relative difference %.2e at t = %.4f",
                      model.source().stateNames[e.state].c_str(), name, e.worst, times[e.sample]);
                QVERIFY2(e.worst < tolerance, qPrintable(QStringLiteral("d/d%1: %2").arg(name).arg(e.worst)));
            }
            for (const std::size_t state : {0, 1}) {
                const auto e = validation::initialSensitivityMismatch(model, state, times, s, step);
                qInfo("  d%s/d%s(0): worst relative difference %.2e at t = %.4f",
                      model.source().stateNames[e.state].c_str(), model.source().stateNames[state].c_str(), e.worst,
                      times[e.sample]);
                QVERIFY2(e.worst < tolerance, qPrintable(QString::number(e.worst)));
            }
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    // Output error from noise-free heights sampled every 0.01 s over 2 s (six impacts), from
    // e = 0.7 and g = 9 (their impacts accumulate at 2.67 s, after the record).
    void ballFitRecoversRestitutionAndGravity()
    {
        try {
            const auto source = validation::compiledText(kBall, "bouncing ball");
            const auto truth = validation::valuesWith(*source, {{"e", 0.8}, {"g", 9.81}});
            const auto record = validation::simulatedRecord(source, truth, integrate::uniformGrid(0.0, 2.0, 0.01), 0.0,
                                                            1, data::NoiseDistribution::Gaussian);
            estimate::FitSettings settings;
            settings.integrator = validation::fitIntegrator();
            const auto start = validation::valuesWith(*source, {{"e", 0.7}, {"g", 9.0}});
            const auto r = validation::fitOrReport(source, start, {record}, settings);
            QVERIFY2(r.converged(), r.termination.message.c_str());
            const double e = validation::estimateOf(r, "e").value, g = validation::estimateOf(r, "g").value;
            qInfo("bouncing ball fit from e = 0.7, g = 9: e = %.10f, g = %.10f after %zu iterations", e, g,
                  r.iterations);
            QVERIFY2(validation::relativeError(e, 0.8) < 1e-6, qPrintable(QString::number(e, 'g', 12)));
            QVERIFY2(validation::relativeError(g, 9.81) < 1e-6, qPrintable(QString::number(g, 'g', 12)));
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    // Past the accumulation point the impacts come infinitely fast: the integration stops there
    // and says which event and when.
    void ballZenoStopsAtTheAccumulationTime()
    {
        try {
            const auto& b = kBallClosedForm;
            eval::CompiledModel model(validation::compiledText(kBall, "bouncing ball"));
            integrate::SimulationRequest r;
            r.times = integrate::uniformGrid(0.0, 6.0, 0.01);
            try {
                integrate::simulate(model, r, integrate::IntegratorSettings{});
                QFAIL("the simulation went past the accumulation of the impacts");
            } catch (const integrate::IntegrationError& e) {
                const std::string message = e.what();
                qInfo("bouncing ball past %.6f: stopped at %.6f: %s", b.accumulation(), e.timeReached(),
                      message.c_str());
                QVERIFY2(message.find("when x < 0") != std::string::npos, message.c_str());
                QVERIFY2(std::abs(e.timeReached() - b.accumulation()) < 1e-2, message.c_str());
            }
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }

    void restitutionCartSingleVersusMultipleShooting()
    {
        try {
            eval::CompiledModel model(validation::compiledText(kRestitutionCart, "restitution cart"));
            // The guess: 50 periods settled from rest.
            integrate::SimulationRequest settle;
            settle.times = {0.0, 50 * kCartPeriod};
            const Eigen::VectorXd guess = integrate::simulate(model, settle, tightSettings()).states.row(1).transpose();

            shooting::PeriodicSettings s;  // default integrator tolerances
            s.period = kCartPeriod;
            const auto single = shooting::findPeriodicSolution(model, guess, s);
            s.intervals = 4;
            const auto multiple = shooting::findPeriodicSolution(model, guess, s);
            QVERIFY2(single.converged(), single.newton.termination.message.c_str());
            QVERIFY2(multiple.converged(), multiple.newton.termination.message.c_str());
            const Eigen::MatrixXd differenced = differencedMonodromy(model, single.initialState, kCartPeriod);
            const auto byDifferences = shooting::analyseFloquet(differenced, false);
            qInfo("restitution cart: x(0) = (%.9f, %.9f) single, (%.9f, %.9f) multiple, SciPy (%.9f, %.9f); %zu / %zu "
                  "Newton iterations; %s",
                  single.initialState(0), single.initialState(1), multiple.initialState(0), multiple.initialState(1),
                  kCartOrbitScipy[0], kCartOrbitScipy[1], single.newton.iterations, multiple.newton.iterations,
                  single.floquet.verdict.c_str());
            for (std::size_t i = 0; i < 2; ++i)
                qInfo("  mu%zu = %.8f%+.8fi single, %.8f%+.8fi multiple, %.8f%+.8fi by differences", i + 1,
                      single.floquet.multipliers[i].real(), single.floquet.multipliers[i].imag(),
                      multiple.floquet.multipliers[i].real(), multiple.floquet.multipliers[i].imag(),
                      byDifferences.multipliers[i].real(), byDifferences.multipliers[i].imag());
            QVERIFY((single.initialState - multiple.initialState).cwiseAbs().maxCoeff() < 1e-7);
            for (int i = 0; i < 2; ++i)
                QVERIFY(std::abs(single.initialState(i) - kCartOrbitScipy[static_cast<std::size_t>(i)]) < 1e-6);
            QVERIFY(single.floquet.stable && multiple.floquet.stable);
            for (std::size_t i = 0; i < 2; ++i) {
                QVERIFY(std::abs(single.floquet.multipliers[i] - multiple.floquet.multipliers[i]) < 1e-6);
                QVERIFY(std::abs(single.floquet.multipliers[i] - byDifferences.multipliers[i]) < 1e-5);
            }
            const double product = std::abs(single.floquet.multipliers[0] * single.floquet.multipliers[1]);
            QVERIFY2(std::abs(product - 0.64 * std::exp(-0.1 * kCartPeriod)) < 1e-6,
                     qPrintable(QString::number(product)));
        } catch (const std::exception& e) {  // one failing case fails its row, not the suite
            QFAIL(e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestEventsResetValidation)
#include "test_events_reset_validation.moc"
