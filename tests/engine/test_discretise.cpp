// Periodic solutions by time discretisation (seed 000, ch. 3) against analytic orbits, shooting
// references and published periods.
#include "engine/discretise/DiscretisedPeriodicSystem.h"
#include "engine/discretise/PeriodicDiscretisation.h"

#include "IntegrationTestSupport.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace sysid;
using discretise::DiscretisationSettings;
using discretise::PeriodicScheme;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

constexpr double pi = std::numbers::pi;

struct Guess {
    std::vector<double> times;
    MatrixXd states;
};

// The last `span` time units of a transient from the model's x(0): a guess of the whole orbit.
Guess lastSpan(eval::CompiledModel& model, double tEnd, double span)
{
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, tEnd, span / 400.0);
    const auto tr = integrate::simulate(model, request, test::tight());
    Guess g;
    Eigen::Index first = 0;
    while (tr.times[static_cast<std::size_t>(first)] < tEnd - span - 1e-9)
        ++first;
    g.times.assign(tr.times.begin() + first, tr.times.end());
    g.states = tr.states.bottomRows(tr.states.rows() - first);
    return g;
}

// Reference periodic state by simple shooting: x(T; s) - s = 0, dense Newton on the monodromy.
VectorXd shootingReference(eval::CompiledModel& model, const VectorXd& start, double period)
{
    auto flow = [&](const VectorXd& s) {
        integrate::SimulationRequest request;
        request.times = {0.0, period};
        request.initialState = std::vector<double>(s.data(), s.data() + s.size());
        request.initialStateSensitivity = true;
        return integrate::simulate(model, request, test::tight());
    };
    shooting::DenseNewtonSystem system(
        [&](const VectorXd& s) -> VectorXd { return flow(s).states.row(1).transpose() - s; },
        [&](const VectorXd& s) -> MatrixXd {
            return flow(s).stateInitialSensitivity.back() - MatrixXd::Identity(s.size(), s.size());
        });
    const auto r = shooting::solveDampedNewton(system, start, {});
    if (!r.converged())
        throw std::runtime_error("reference shooting failed: " + r.termination.message);
    return r.x;
}

// Largest node error against an exact orbit x(t) (all states).
template <class Exact>
double nodeError(const shooting::PeriodicSolution& s, Exact exact)
{
    double err = 0.0;
    for (std::size_t j = 0; j < s.times.size(); ++j) {
        const VectorXd x = exact(s.times[j]);
        err = std::max(err, (s.states.row(static_cast<Eigen::Index>(j)).transpose() - x).cwiseAbs().maxCoeff());
    }
    return err;
}

// Observed orders log2(e_N / e_2N) as the nodes double.
template <class Solve>
std::vector<double> observedOrders(const std::vector<std::size_t>& nodes, Solve solve)
{
    std::vector<double> errors, orders;
    for (auto n : nodes)
        errors.push_back(solve(n));
    for (std::size_t i = 1; i < errors.size(); ++i)
        orders.push_back(std::log2(errors[i - 1] / errors[i]));
    return orders;
}

QString list(const std::vector<double>& v)
{
    QStringList s;
    for (double x : v)
        s << QString::number(x, 'g', 4);
    return s.join(", ");
}

const char* cartModel(double stiffness, double gamma = 1.0)
{
    static std::string text;
    text = "param b = 2\nparam kw = " + std::to_string(stiffness) + "\nparam g = " + std::to_string(gamma) +
        "\n"
        "x'' = -b*(1 + sign(abs(x) - 1))/2*x' - kw*(max(x - 1, 0) + min(x + 1, 0)) + g*sin(t)\n"
        "x(0) = 0, 0\n";
    return text.c_str();
}

}  // namespace

class TestDiscretise : public QObject {
    Q_OBJECT

    // x'' + c x' + k x = F cos(w t): x = A cos wt + B sin wt.
    double linearOscillatorError(PeriodicScheme scheme, std::size_t nodes)
    {
        const double c = 0.3, k = 2.0, F = 1.0, w = 1.3;
        auto m = test::compiled("param c = 0.3\nparam k = 2\nparam F = 1\nparam w = 1.3\n"
                                "x'' = -c*x' - k*x + F*cos(w*t)\nx(0) = 0, 0\n");
        const double D = (k - w * w) * (k - w * w) + c * c * w * w;
        const double A = F * (k - w * w) / D, B = F * c * w / D;
        DiscretisationSettings s;
        s.period = 2.0 * pi / w;
        s.nodes = nodes;
        s.scheme = scheme;
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Zero(1, 2), s);
        if (!r.converged())
            throw std::runtime_error(r.newton.termination.message);
        return nodeError(r, [&](double t) {
            VectorXd x(2);
            x << A * std::cos(w * t) + B * std::sin(w * t), w * (B * std::cos(w * t) - A * std::sin(w * t));
            return x;
        });
    }

    // y' = -a y + cos t (genuinely first order: trapezoidal rule under CentralDifference).
    double firstOrderError(PeriodicScheme scheme, std::size_t nodes)
    {
        const double a = 0.5;
        auto m = test::compiled("param a = 0.5\nstate y = 0\ny' = -a*y + cos(t)\n");
        DiscretisationSettings s;
        s.period = 2.0 * pi;
        s.nodes = nodes;
        s.scheme = scheme;
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Zero(1, 1), s);
        if (!r.converged())
            throw std::runtime_error(r.newton.termination.message);
        return nodeError(
            r, [&](double t) { return VectorXd::Constant(1, (a * std::cos(t) + std::sin(t)) / (1.0 + a * a)); });
    }

private slots:
    void centralDifferenceIsSecondOrder()
    {
        const auto orders = observedOrders({20, 40, 80, 160, 320}, [&](std::size_t n) {
            return linearOscillatorError(PeriodicScheme::CentralDifference, n);
        });
        qInfo("central difference, linear oscillator, orders %s", qPrintable(list(orders)));
        for (std::size_t i = 1; i < orders.size(); ++i)
            QVERIFY2(std::abs(orders[i] - 2.0) < 0.05, qPrintable(list(orders)));
    }

    void hermiteSimpsonIsFourthOrder()
    {
        const auto orders = observedOrders({10, 20, 40, 80, 160}, [&](std::size_t n) {
            return linearOscillatorError(PeriodicScheme::HermiteSimpson, n);
        });
        qInfo("Hermite-Simpson, linear oscillator, orders %s", qPrintable(list(orders)));
        for (std::size_t i = 1; i < orders.size(); ++i)
            QVERIFY2(std::abs(orders[i] - 4.0) < 0.1, qPrintable(list(orders)));
    }

    void firstOrderStatesConvergeWithoutSawtooth()
    {
        const auto trapezoid = observedOrders(
            {20, 40, 80, 160}, [&](std::size_t n) { return firstOrderError(PeriodicScheme::CentralDifference, n); });
        const auto hermite = observedOrders(
            {10, 20, 40, 80}, [&](std::size_t n) { return firstOrderError(PeriodicScheme::HermiteSimpson, n); });
        qInfo("first-order state: trapezoid orders %s, Hermite-Simpson orders %s", qPrintable(list(trapezoid)),
              qPrintable(list(hermite)));
        for (std::size_t i = 1; i < trapezoid.size(); ++i) {
            QVERIFY2(std::abs(trapezoid[i] - 2.0) < 0.05, qPrintable(list(trapezoid)));
            QVERIFY2(std::abs(hermite[i] - 4.0) < 0.1, qPrintable(list(hermite)));
        }
    }

    // Ueda's Duffing x'' + 0.2 x' + x^3 = 0.3 cos t.
    void duffingMatchesShootingAndReturnsToItself()
    {
        auto m = test::compiled("param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\n");
        const double T = 2.0 * pi;
        const auto guess = lastSpan(*m, 2.0 * T, T);
        const VectorXd reference = shootingReference(*m, guess.states.row(guess.states.rows() - 1).transpose(), T);

        DiscretisationSettings s;
        s.period = T;
        s.nodes = 400;
        s.scheme = PeriodicScheme::HermiteSimpson;
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, guess.times, guess.states, s);
        QVERIFY2(r.converged(), r.newton.termination.message.c_str());
        const double hermiteError = (r.initialState - reference).cwiseAbs().maxCoeff();
        QVERIFY2(hermiteError < 1e-6, qPrintable(QString::number(hermiteError)));
        QCOMPARE(r.times.size(), std::size_t{401});
        QVERIFY(std::abs(r.times.back() - T) < 1e-12);
        QVERIFY((r.states.row(400) - r.states.row(0)).cwiseAbs().maxCoeff() == 0.0);
        QCOMPARE(r.monodromy.rows(), 2);
        QVERIFY(r.floquet.stable);

        // Ten periods of a tight simulation from the discretised state stay on the orbit.
        integrate::SimulationRequest request;
        request.times = integrate::uniformGrid(0.0, 10.0 * T, T);
        request.initialState = std::vector<double>(r.initialState.data(), r.initialState.data() + 2);
        const auto tr = integrate::simulate(*m, request, test::tight());
        double drift = 0.0;
        for (Eigen::Index k = 1; k < tr.states.rows(); ++k)
            drift = std::max(drift, (tr.states.row(k).transpose() - r.initialState).cwiseAbs().maxCoeff());
        QVERIFY2(drift < 1e-6, qPrintable(QString::number(drift)));

        s.scheme = PeriodicScheme::CentralDifference;
        s.nodes = 2000;
        const auto c = discretise::findPeriodicSolutionByDiscretisation(*m, guess.times, guess.states, s);
        QVERIFY2(c.converged(), c.newton.termination.message.c_str());
        const double centralError = (c.initialState - reference).cwiseAbs().maxCoeff();
        qInfo("Duffing: Hermite-Simpson 400 nodes error %.3g, drift over 10 periods %.3g; "
              "central difference 2000 nodes error %.3g (%zu Newton iterations)",
              hermiteError, drift, centralError, c.newton.iterations);
        QVERIFY2(centralError < 1e-4, qPrintable(QString::number(centralError)));
    }

    void vanDerPolPeriod()
    {
        auto m = test::compiled("param mu = 1\nx'' = mu*(1 - x^2)*x' - x\nx(0) = 2, 0\n");
        const auto guess = lastSpan(*m, 40.0, 7.0);
        const double published = 6.6632868593231;
        DiscretisationSettings s;
        s.period = 7.0;  // deliberately off
        s.nodes = 400;
        s.scheme = PeriodicScheme::HermiteSimpson;
        s.startTime = guess.times.front();
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, guess.times, guess.states, s);
        QVERIFY2(r.converged(), r.newton.termination.message.c_str());
        QVERIFY2(std::abs(r.period - published) < 1e-6, qPrintable(QString::number(r.period, 'g', 15)));

        // Liouville: the product of the multipliers is exp(integral of div f) = exp(integral of 1 - x^2),
        // and the trivial one is 1; the periodic trapezoidal rule is spectrally accurate here.
        double integral = 0.0;
        for (Eigen::Index j = 0; j + 1 < r.states.rows(); ++j)
            integral += (1.0 - r.states(j, 0) * r.states(j, 0)) * r.period / double(r.states.rows() - 1);
        QCOMPARE(r.floquet.multipliers.size(), std::size_t{2});
        QVERIFY(std::abs(r.floquet.multipliers[0] - 1.0) < 1e-6);
        QVERIFY2(std::abs(r.floquet.multipliers[1] - std::exp(integral)) < 1e-6,
                 qPrintable(QString::number(std::abs(r.floquet.multipliers[1])) + " vs " +
                            QString::number(std::exp(integral))));
        QVERIFY(r.floquet.stable);

        s.scheme = PeriodicScheme::CentralDifference;
        s.nodes = 2000;
        const auto c = discretise::findPeriodicSolutionByDiscretisation(*m, guess.times, guess.states, s);
        QVERIFY2(c.converged(), c.newton.termination.message.c_str());
        qInfo("Van der Pol: Hermite-Simpson 400 nodes period %.14g, central difference 2000 nodes %.14g", r.period,
              c.period);
        QVERIFY2(std::abs(c.period - published) < 1e-4, qPrintable(QString::number(c.period, 'g', 15)));
    }

    // Seed 000's cart (b = 2, gamma = 1): the damping b(x) x' jumps where the cart meets a wall, so
    // the discrete equations are discontinuous and whether Newton reaches a root depends on where
    // the nodes fall. These are the measured converging cases, checked against references.
    void impactingCartSoftWalls()
    {
        const double T = 2.0 * pi;
        // k = 1: the attractor is the grazing orbit x = -sin t (|x| <= 1, no wall force), exact for any k.
        {
            auto m = test::compiled(cartModel(1.0));
            const auto guess = lastSpan(*m, 30.0 * T, T);
            DiscretisationSettings s;
            s.period = T;
            s.nodes = 200;
            const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, guess.times, guess.states, s);
            QVERIFY2(r.converged(), r.newton.termination.message.c_str());
            const double err = nodeError(r, [](double t) {
                VectorXd x(2);
                x << -std::sin(t), -std::cos(t);
                return x;
            });
            qInfo("cart k = 1, 200 nodes: %zu iterations, error vs x = -sin t %.3g", r.newton.iterations, err);
            QVERIFY2(err < 2e-4, qPrintable(QString::number(err)));
        }
        struct Case {
            double k;
            std::size_t nodes;
            double tolerance;
        };
        for (const Case c :
             {Case{10.0, 400, 3e-3}, Case{30.0, 200, 2e-2}, Case{30.0, 2000, 1e-4}, Case{100.0, 1000, 1e-2}}) {
            auto m = test::compiled(cartModel(c.k));
            const auto guess = lastSpan(*m, 30.0 * T, T);
            const VectorXd reference = shootingReference(*m, guess.states.row(guess.states.rows() - 1).transpose(), T);
            DiscretisationSettings s;
            s.period = T;
            s.nodes = c.nodes;
            const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, guess.times, guess.states, s);
            QVERIFY2(r.converged(), r.newton.termination.message.c_str());
            const double err = (r.initialState - reference).cwiseAbs().maxCoeff();
            qInfo("cart k = %g, %zu nodes: %zu iterations, error vs shooting %.3g", c.k, c.nodes, r.newton.iterations,
                  err);
            QVERIFY2(err < c.tolerance, qPrintable(QString::number(err)));
        }
    }

    // Seed 000: time discretisation fails above wall stiffness ~45. Required: a message, no crash.
    void impactingCartStiffWalls()
    {
        for (double k : {100.0, 3000.0}) {
            for (std::size_t nodes : {200, 400, 2000}) {
                auto m = test::compiled(cartModel(k));
                const double T = 2.0 * pi;
                const auto guess = lastSpan(*m, 30.0 * T, T);
                DiscretisationSettings s;
                s.period = T;
                s.nodes = nodes;
                const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, guess.times, guess.states, s);
                qInfo("cart k = %g, %zu nodes: %s after %zu iterations, |F| = %.3g: %s", k, nodes,
                      r.converged() ? "converged" : "not converged", r.newton.iterations, r.newton.residualNorm,
                      r.newton.termination.message.c_str());
                QVERIFY(r.newton.termination.message.find("time discretisation") == 0);
                QVERIFY(r.converged() || r.newton.residualNorm > s.newton.residualTolerance);
                QVERIFY(r.newton.x.allFinite());
            }
        }
    }

    // The analytic sparse Jacobian (through eliminated velocities, the wrap, the period column and
    // the anchor row) against central differences of the residual: solve(dF) must give back dX.
    void jacobianMatchesFiniteDifferences()
    {
        // A second-order pair, a first-order state coupled to it, explicit time dependence.
        auto m = test::compiled("param c = 0.3\nstate z = 0.1\nx'' = -c*x' - x^3 + z + 0.5*cos(t)\n"
                                "z' = -z + x*x' + 0.2*sin(t)\nx(0) = 0.2, 0\n");
        for (auto scheme : {PeriodicScheme::CentralDifference, PeriodicScheme::HermiteSimpson}) {
            for (bool autonomous : {false, true}) {
                const std::size_t M = 13;
                const double P = 6.0;
                std::optional<discretise::DiscretisedPeriodicSystem::Anchor> anchor;
                if (autonomous) {
                    discretise::DiscretisedPeriodicSystem::Anchor a;
                    a.point = VectorXd::Constant(3, 0.1);
                    a.direction = VectorXd::LinSpaced(3, 0.3, 0.9).normalized();
                    anchor = a;
                }
                discretise::DiscretisedPeriodicSystem system(*m, scheme, M, 0.4, P, anchor);
                MatrixXd states(static_cast<Eigen::Index>(M), 3);
                for (Eigen::Index j = 0; j < states.rows(); ++j)
                    states.row(j) << std::sin(0.5 * double(j)), 0.3 * std::cos(double(j)),
                        0.2 + 0.1 * std::sin(double(j));
                const VectorXd X = system.pack(states, P);
                const VectorXd v = VectorXd::LinSpaced(X.size(), -1.0, 1.0).array().sin();
                const double eps = 1e-6;
                const VectorXd dF = (system.residual(X + eps * v) - system.residual(X - eps * v)) / (2.0 * eps);
                system.residual(X);
                system.linearise(X);
                const double err = (system.solve(dF) - v).cwiseAbs().maxCoeff();
                QVERIFY2(err < 1e-6,
                         qPrintable(QString("scheme %1 autonomous %2: %3").arg(int(scheme)).arg(autonomous).arg(err)));
            }
        }
    }

    // A subharmonic request (periods = 2) of a linear oscillator returns its T-periodic orbit over 2T.
    void subharmonicRequestCoversSeveralPeriods()
    {
        auto m = test::compiled("param c = 0.3\nparam k = 2\nx'' = -c*x' - k*x + cos(t)\nx(0) = 0, 0\n");
        DiscretisationSettings s;
        s.period = 2.0 * pi;
        s.periods = 2;
        s.nodes = 100;
        s.scheme = PeriodicScheme::HermiteSimpson;
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Zero(1, 2), s);
        QVERIFY2(r.converged(), r.newton.termination.message.c_str());
        QCOMPARE(r.times.size(), std::size_t{201});
        QVERIFY(std::abs(r.period - 4.0 * pi) < 1e-12);
        QVERIFY((r.states.row(100) - r.states.row(0)).cwiseAbs().maxCoeff() < 1e-6);
        const double D = 1.0 + 0.09;  // (k - 1)^2 + c^2 for w = 1
        QVERIFY(std::abs(r.states(0, 0) - 1.0 / D) < 1e-5);
    }

    void badRequestsAreReported()
    {
        auto m = test::compiled("param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\n");
        DiscretisationSettings s;
        s.period = 2.0 * pi;
        s.nodes = 2;
        auto r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Zero(1, 2), s);
        QVERIFY(!r.converged());
        QVERIFY2(r.newton.termination.message.find("nodes must be at least 3") != std::string::npos,
                 r.newton.termination.message.c_str());

        s.nodes = 50;
        r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Zero(1, 3), s);
        QVERIFY2(r.newton.termination.message.find("3 columns") != std::string::npos,
                 r.newton.termination.message.c_str());

        r = discretise::findPeriodicSolutionByDiscretisation(*m, {0.0, 0.0}, MatrixXd::Zero(2, 2), s);
        QVERIFY2(r.newton.termination.message.find("strictly increasing") != std::string::npos,
                 r.newton.termination.message.c_str());

        s.period = 0.0;
        r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Zero(1, 2), s);
        QVERIFY2(r.newton.termination.message.find("period must be positive") != std::string::npos,
                 r.newton.termination.message.c_str());

        auto withInput = test::compiled("input u\nx'' = -x + u\nx(0) = 0, 0\n");
        r = discretise::findPeriodicSolutionByDiscretisation(*withInput, {}, MatrixXd::Zero(1, 2), s);
        QVERIFY2(r.newton.termination.message.find("inputs (u)") != std::string::npos,
                 r.newton.termination.message.c_str());

        // An autonomous guess sitting on an equilibrium fixes no phase.
        auto vdp = test::compiled("param mu = 1\nx'' = mu*(1 - x^2)*x' - x\nx(0) = 2, 0\n");
        s.period = 6.0;
        r = discretise::findPeriodicSolutionByDiscretisation(*vdp, {}, MatrixXd::Zero(1, 2), s);
        QVERIFY2(r.newton.termination.message.find("equilibrium") != std::string::npos,
                 r.newton.termination.message.c_str());
    }

    // x'' = c with a forced period: the discrete Laplacian around the period annihilates constants,
    // so J is singular (and for c != 0 there is no periodic solution at all).
    void singularJacobianIsReported()
    {
        auto m = test::compiled("param c = 1\nx'' = c\nx(0) = 0, 0\n");
        DiscretisationSettings s;
        s.period = 1.0;
        s.nodes = 50;
        s.kind = shooting::PeriodKind::Forced;
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Zero(1, 2), s);
        QCOMPARE(r.newton.termination.criterion, core::TerminationCriterion::SingularJacobian);
    }

    void cancelledBeforeIterating()
    {
        auto m = test::compiled("param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\n");
        DiscretisationSettings s;
        s.period = 2.0 * pi;
        std::stop_source source;
        source.request_stop();
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, MatrixXd::Constant(1, 2, 0.5), s, {},
                                                                        source.get_token());
        QCOMPARE(r.newton.termination.kind, core::TerminationKind::Cancelled);
        QVERIFY(r.floquet.multipliers.empty());
    }

    void nonConvergenceIsReported()
    {
        auto m = test::compiled("param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\n");
        DiscretisationSettings s;
        s.period = 2.0 * pi;
        s.newton.maxIterations = 1;
        MatrixXd far(1, 2);
        far << 5.0, 0.0;
        const auto r = discretise::findPeriodicSolutionByDiscretisation(*m, {}, far, s);
        QCOMPARE(r.newton.termination.kind, core::TerminationKind::IterationLimit);
        QVERIFY(!r.newton.termination.message.empty());
    }
};

QTEST_GUILESS_MAIN(TestDiscretise)
#include "test_discretise.moc"
