// The fixed-step schemes of seed 003 ch. 2: implicit Euler and Crank-Nicolson (Newton with a
// sparse LU, sensitivities of the discrete scheme) and the stability check of explicit Euler on
// field models. Known answers: the discrete solutions of the heat equation on an eigenvector of
// the difference operator (amplification factors 1/(1 + h lambda), (1 - h lambda/2)/(1 + h lambda/2),
// 1 - h lambda), the analytic solution of x' = -k x^3, the seed's limit dx^2/(2 max alpha) (eq.
// 2.19), central differences of the discrete solution, and a seed-003 fit recovering its truth.

#include "EstimateTestSupport.h"
#include "Seed003Models.h"

#include "engine/integrate/ExplicitEulerStability.h"
#include "engine/integrate/IntegrationError.h"

#include <QtTest>

#include <cmath>
#include <string>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

// s_t = a s_xx on [0, 1], zero ends, 9 nodes (dx = 0.1), s(x, 0) = sin(pi x): an eigenvector of
// the difference operator with eigenvalue -lambda, lambda = a (4/dx^2) sin^2(pi dx/2).
const char* sineRod = R"(
field s on x in [0, 1] nodes 9
param a = 0.5
s_t = a * s_xx
s(0, t) = 0 ; s(1, t) = 0
s(x, 0) = sin(pi*x)
output s
)";

double sineRodLambda(double a = 0.5, double dx = 0.1)
{
    const double s = std::sin(M_PI * dx / 2);
    return a * 4 / (dx * dx) * s * s;
}

integrate::IntegratorSettings fixedStep(IntegrationMethod method, double step, double rtol = 1e-12, double atol = 1e-14)
{
    integrate::IntegratorSettings s = test::tight(method, rtol, atol);
    s.maxStep = step;
    return s;
}

integrate::Trajectory simulate(eval::CompiledModel& m, const std::vector<double>& times,
                               const integrate::IntegratorSettings& settings, bool sensitivities = false)
{
    integrate::SimulationRequest request;
    request.times = times;
    if (sensitivities) {
        for (std::size_t p = 0; p < m.parameterCount(); ++p)
            request.sensitivityParameters.push_back(p);
        request.initialStateSensitivity = true;
    }
    return integrate::simulate(m, request, settings);
}

// Largest |s_j(T) - exact_j| over the nodes of the sine rod at the last sample.
double sineRodError(const integrate::Trajectory& r, double factor)
{
    const Eigen::Index last = r.states.rows() - 1;
    double worst = 0;
    for (Eigen::Index j = 0; j < r.states.cols(); ++j)
        worst =
            std::max(worst, std::abs(r.states(last, j) - factor * std::sin(M_PI * 0.1 * static_cast<double>(j + 1))));
    return worst;
}

// Heat rod on [0, 1] with 9 nodes, alpha per node: 1 everywhere but `peak` at x = 0.3.
const char* peakedRod = R"(
field s on x in [0, 1] nodes 9
param alpha(x) = 1 [0.001, 10]
s_t = alpha(x) * s_xx
s(0, t) = 0 ; s(1, t) = 0
s(x, 0) = x*(1 - x)
output s
)";

void setPeak(eval::CompiledModel& m, double peak)
{
    std::vector<double> p(m.parameters().begin(), m.parameters().end());
    p[test::parameter(m, "alpha[3]")] = peak;
    m.setParameters(p);
}

const char* cubicDecay = R"(
param k = 2
state x = 1
x' = -k*x^3
)";

// Reaction-diffusion with a cubic sink: nonlinear, so each implicit step needs several Newton iterations.
const char* cubicRod = R"(
field s on x in [0, 1] nodes 7
param a = 0.2
param c = 3
s_t = a * s_xx - c * s^3
s(0, t) = 0 ; s(1, t) = 1
s(x, 0) = 2*sin(pi*x) + x
output s
)";

}  // namespace

class TestFixedStepSchemes : public QObject {
    Q_OBJECT

private slots:
    void namesAndSettings()
    {
        QCOMPARE(integrate::parseIntegrationMethod("implicit-euler"), std::optional(IntegrationMethod::ImplicitEuler));
        QCOMPARE(integrate::parseIntegrationMethod("crank-nicolson"), std::optional(IntegrationMethod::CrankNicolson));
        QCOMPARE(integrate::methodName(IntegrationMethod::ImplicitEuler), std::string("implicit-euler"));
        QCOMPARE(integrate::methodName(IntegrationMethod::CrankNicolson), std::string("crank-nicolson"));
        QVERIFY(!integrate::isAdaptive(IntegrationMethod::ImplicitEuler));
        QVERIFY(!integrate::isAdaptive(IntegrationMethod::CrankNicolson));
        QVERIFY(!integrate::parseIntegrationMethod("crank-nicholson"));
    }

    // On the eigenvector each scheme multiplies the state by its amplification factor per step:
    // the discrete solution is known exactly, and halving h shows the order against exp(-lambda T).
    void heatEquationDiscreteSolutionAndOrder_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<double>("firstStep");
        QTest::addColumn<double>("order");
        QTest::newRow("implicit-euler") << static_cast<int>(IntegrationMethod::ImplicitEuler) << 0.02 << 1.0;
        QTest::newRow("crank-nicolson") << static_cast<int>(IntegrationMethod::CrankNicolson) << 0.02 << 2.0;
        // Below the limit dx^2/(2a) = 0.01.
        QTest::newRow("euler") << static_cast<int>(IntegrationMethod::Euler) << 0.005 << 1.0;
    }

    void heatEquationDiscreteSolutionAndOrder()
    {
        QFETCH(int, method);
        QFETCH(double, firstStep);
        QFETCH(double, order);
        auto m = test::compiled(sineRod);
        const double T = 0.4, lambda = sineRodLambda();
        const std::vector<double> times = integrate::uniformGrid(0, T, 0.04);
        std::vector<double> errors;
        for (double h = firstStep; h > firstStep / 9; h /= 2) {
            const auto r = simulate(*m, times, fixedStep(IntegrationMethod(method), h));
            const double steps = T / h;
            double g = 0;
            if (method == static_cast<int>(IntegrationMethod::ImplicitEuler))
                g = 1 / (1 + h * lambda);
            else if (method == static_cast<int>(IntegrationMethod::CrankNicolson))
                g = (1 - h * lambda / 2) / (1 + h * lambda / 2);
            else
                g = 1 - h * lambda;
            const double discrete = sineRodError(r, std::pow(g, steps));
            QVERIFY2(discrete < 1e-12,
                     qPrintable(QString("h = %1: %2 from the discrete solution").arg(h).arg(discrete)));
            QCOMPARE(r.statistics.steps, static_cast<std::size_t>(std::lround(steps)));
            errors.push_back(sineRodError(r, std::exp(-lambda * T)));
        }
        for (std::size_t i = 1; i < errors.size(); ++i) {
            const double measured = std::log2(errors[i - 1] / errors[i]);
            qInfo("%s: error %.3e -> %.3e, order %.3f", QTest::currentDataTag(), errors[i - 1], errors[i], measured);
            QVERIFY(std::abs(measured - order) < 0.05);
        }
    }

    // x' = -k x^3, x(0) = 1: x = 1/sqrt(1 + 2 k t). Newton solves each step's cubic; the step
    // equation's residual on the recorded samples (one step per sample) is a second check.
    void nonlinearOdeAnalyticOrderAndResidual_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<double>("theta");
        QTest::addColumn<double>("order");
        QTest::newRow("implicit-euler") << static_cast<int>(IntegrationMethod::ImplicitEuler) << 1.0 << 1.0;
        QTest::newRow("crank-nicolson") << static_cast<int>(IntegrationMethod::CrankNicolson) << 0.5 << 2.0;
    }

    void nonlinearOdeAnalyticOrderAndResidual()
    {
        QFETCH(int, method);
        QFETCH(double, theta);
        QFETCH(double, order);
        auto m = test::compiled(cubicDecay);
        const double k = 2, T = 2;
        std::vector<double> errors;
        for (double h : {0.04, 0.02, 0.01, 0.005}) {
            const auto times = integrate::uniformGrid(0, T, h);
            const auto r = simulate(*m, times, fixedStep(IntegrationMethod(method), 0));
            double residual = 0;
            for (Eigen::Index i = 1; i < r.states.rows(); ++i) {
                const double x0 = r.states(i - 1, 0), x1 = r.states(i, 0);
                residual = std::max(
                    residual, std::abs(x1 - x0 - h * (theta * -k * x1 * x1 * x1 + (1 - theta) * -k * x0 * x0 * x0)));
            }
            QVERIFY2(residual < 1e-13, qPrintable(QString("h = %1: step residual %2").arg(h).arg(residual)));
            errors.push_back(std::abs(r.states(r.states.rows() - 1, 0) - 1 / std::sqrt(1 + 2 * k * T)));
        }
        for (std::size_t i = 1; i < errors.size(); ++i) {
            const double measured = std::log2(errors[i - 1] / errors[i]);
            qInfo("%s on x' = -k x^3: error %.3e -> %.3e, order %.3f", QTest::currentDataTag(), errors[i - 1],
                  errors[i], measured);
            QVERIFY(std::abs(measured - order) < 0.1);
        }
    }

    // s_t = a s_xx - c s^3 by implicit Euler: each sample satisfies the implicit step equation,
    // and the solution converges at order 1 to sparse-implicit's (tight) one.
    void nonlinearFieldThroughNewton()
    {
        auto m = test::compiled(cubicRod);
        const auto times = integrate::uniformGrid(0, 1, 0.1);
        const auto reference = simulate(*m, times, test::tight(IntegrationMethod::SparseImplicit, 1e-11, 1e-13));
        std::vector<double> errors;
        for (double h : {0.01, 0.005, 0.0025}) {
            const auto r = simulate(*m, times, fixedStep(IntegrationMethod::ImplicitEuler, h));
            errors.push_back((r.states - reference.states).cwiseAbs().maxCoeff());
        }
        for (std::size_t i = 1; i < errors.size(); ++i) {
            const double measured = std::log2(errors[i - 1] / errors[i]);
            qInfo("s_t = a s_xx - c s^3, implicit Euler: error %.3e -> %.3e, order %.3f", errors[i - 1], errors[i],
                  measured);
            QVERIFY(std::abs(measured - 1) < 0.1);
        }
        // One step per sample: x1 - x0 - h f(t1, x1) = 0 with f evaluated by the compiled model.
        const double h = 0.05;
        const auto grid = integrate::uniformGrid(0, 0.5, h);
        const auto r = simulate(*m, grid, fixedStep(IntegrationMethod::ImplicitEuler, 0));
        std::vector<double> f(m->stateCount());
        double residual = 0;
        for (Eigen::Index i = 1; i < r.states.rows(); ++i) {
            const Eigen::VectorXd x1 = r.states.row(i).transpose();
            m->setPoint(grid[static_cast<std::size_t>(i)], x1.data(), nullptr);
            m->rhs(f.data());
            for (Eigen::Index j = 0; j < x1.size(); ++j)
                residual =
                    std::max(residual, std::abs(x1(j) - r.states(i - 1, j) - h * f[static_cast<std::size_t>(j)]));
        }
        QVERIFY2(residual < 1e-12, qPrintable(QString::number(residual)));
    }

    // The sensitivities are those of the discrete scheme: against central differences of the
    // discrete solution (same step), for the parameters and the initial state.
    void sensitivitiesAgainstCentralDifferences_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("step");
        const QString example1 = QString::fromStdString(test::seed003::example1 + "output s\n");
        QTest::newRow("implicit-euler, seed 003 example 1")
            << static_cast<int>(IntegrationMethod::ImplicitEuler) << example1 << 0.05;
        QTest::newRow("crank-nicolson, seed 003 example 1")
            << static_cast<int>(IntegrationMethod::CrankNicolson) << example1 << 0.05;
        QTest::newRow("implicit-euler, cubic sink")
            << static_cast<int>(IntegrationMethod::ImplicitEuler) << QString(cubicRod) << 0.02;
        QTest::newRow("crank-nicolson, cubic sink")
            << static_cast<int>(IntegrationMethod::CrankNicolson) << QString(cubicRod) << 0.02;
    }

    void sensitivitiesAgainstCentralDifferences()
    {
        QFETCH(int, method);
        QFETCH(QString, text);
        QFETCH(double, step);
        auto m = test::compiled(text.toStdString());
        std::vector<double> p(m->parameters().begin(), m->parameters().end());
        for (std::size_t j = 0; j < p.size(); ++j)
            p[j] *= 1 + 0.1 * static_cast<double>(j);  // distinct per node
        m->setParameters(p);
        const auto times = integrate::uniformGrid(0, 1, 0.1);
        const auto settings = fixedStep(IntegrationMethod(method), step, 1e-13, 1e-15);
        const auto r = simulate(*m, times, settings, true);
        QCOMPARE(r.stateParameterSensitivity.size(), times.size());
        double worst = 0, largest = 0;
        const double delta = 1e-6;
        for (std::size_t j = 0; j < p.size(); ++j) {
            auto shifted = p;
            shifted[j] = p[j] * (1 + delta);
            m->setParameters(shifted);
            const auto up = simulate(*m, times, settings);
            shifted[j] = p[j] * (1 - delta);
            m->setParameters(shifted);
            const auto down = simulate(*m, times, settings);
            for (std::size_t k = 0; k < times.size(); ++k) {
                const auto row = static_cast<Eigen::Index>(k);
                const Eigen::VectorXd fd = (up.states.row(row) - down.states.row(row)).transpose() / (2 * delta * p[j]);
                const Eigen::VectorXd an = r.stateParameterSensitivity[k].col(static_cast<Eigen::Index>(j));
                worst = std::max(worst, (fd - an).cwiseAbs().maxCoeff());
                largest = std::max(largest, an.cwiseAbs().maxCoeff());
            }
        }
        m->setParameters(p);
        // dx/dx0 column by column.
        std::vector<double> x0(m->stateCount());
        m->initialState(x0.data());
        double worstX0 = 0;
        for (std::size_t i = 0; i < x0.size(); ++i) {
            integrate::SimulationRequest request;
            request.times = times;
            auto shifted = x0;
            shifted[i] = x0[i] + 1e-6;
            request.initialState = shifted;
            const auto up = integrate::simulate(*m, request, settings);
            shifted[i] = x0[i] - 1e-6;
            request.initialState = shifted;
            const auto down = integrate::simulate(*m, request, settings);
            for (std::size_t k = 0; k < times.size(); ++k) {
                const auto row = static_cast<Eigen::Index>(k);
                const Eigen::VectorXd fd = (up.states.row(row) - down.states.row(row)).transpose() / 2e-6;
                worstX0 = std::max(
                    worstX0,
                    (fd - r.stateInitialSensitivity[k].col(static_cast<Eigen::Index>(i))).cwiseAbs().maxCoeff());
            }
        }
        qInfo("%s: max |dx/dp - central difference| = %.2e (largest %.2e), dx/dx0 %.2e", QTest::currentDataTag(), worst,
              largest, worstX0);
        QVERIFY(largest > 0.05);
        QVERIFY(worst < 1e-6 * largest);
        QVERIFY(worstX0 < 1e-6);
    }

    // The Gershgorin bound of df/dx for s_t = alpha(x) s_xx is 4 max alpha/dx^2 when the largest
    // alpha sits at a node with two state neighbours: the limit 2/bound is exactly the seed's
    // dx^2/(2 max alpha) (eq. 2.19).
    void explicitEulerLimitIsTheSeedFormula_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("expected");
        QTest::newRow("peak alpha 2 at x = 0.3, dx = 0.1") << QString(peakedRod) << 2.0 << 0.01 / (2 * 2);
        QTest::newRow("peak alpha 7.5 at x = 0.3, dx = 0.1") << QString(peakedRod) << 7.5 << 0.01 / (2 * 7.5);
        QTest::newRow("sine rod, a = 0.5") << QString(sineRod) << 0.0 << 0.01 / (2 * 0.5);
        QTest::newRow("seed 003 example 4 (dx = 0.2, alpha = 0.1)")
            << QString::fromStdString(test::seed003::example4PerNode) << 0.0 << 0.04 / (2 * 0.1);
    }

    void explicitEulerLimitIsTheSeedFormula()
    {
        QFETCH(QString, text);
        QFETCH(double, peak);
        QFETCH(double, expected);
        auto m = test::compiled(text.toStdString());
        if (peak > 0)
            setPeak(*m, peak);
        std::vector<double> x0(m->stateCount());
        m->initialState(x0.data());
        m->setPoint(0, x0.data(), nullptr);
        const auto limit = integrate::explicitEulerLimit(*m);
        QVERIFY2(std::abs(limit.largestStep - expected) < 1e-12 * expected,
                 qPrintable(QString("%1 vs %2").arg(limit.largestStep, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    }

    // Just below the limit explicit Euler runs and stays bounded (the maximum principle: the
    // rod never leaves [0, 0.25]); just above it is refused before any step, with the numbers.
    void explicitEulerJustBelowAndAboveTheLimit()
    {
        auto m = test::compiled(peakedRod);
        setPeak(*m, 2);
        const auto times = integrate::uniformGrid(0, 1, 0.05);
        const auto stable = simulate(*m, times, fixedStep(IntegrationMethod::Euler, 0.0025 * 0.99));
        QVERIFY(stable.states.maxCoeff() <= 0.25 + 1e-12);
        QVERIFY(stable.states.minCoeff() >= -1e-12);
        try {
            // One step per sample, 0.0026: 4 % above the limit.
            simulate(*m, integrate::uniformGrid(0, 0.26, 0.0026), fixedStep(IntegrationMethod::Euler, 0));
            QFAIL("a step above the explicit Euler limit was accepted");
        } catch (const integrate::IntegrationError& e) {
            const QString message = e.what();
            qInfo("%s", e.what());
            QCOMPARE(e.reason(), integrate::IntegrationError::Reason::UnstableStep);
            QCOMPARE(e.timeReached(), 0.0);
            for (const char* part :
                 {"step 0.0026 ", "dx^2/(2 max alpha) = 0.0025", "field s", "dx = 0.1", "max alpha = 2", "at x = 0.3",
                  "use a step <= 0.0025", "implicit-euler", "crank-nicolson"})
                QVERIFY2(message.contains(part), qPrintable(QString("'%1' missing from: %2").arg(part, message)));
        }
        // The limit the message gives, typed back, passes.
        QVERIFY(simulate(*m, times, fixedStep(IntegrationMethod::Euler, 0.0025)).states.allFinite());
        // Without a step (one per sample, 0.05) the default is refused too; the implicit schemes take it.
        QVERIFY_THROWS_EXCEPTION(integrate::IntegrationError,
                                 simulate(*m, times, fixedStep(IntegrationMethod::Euler, 0)));
        QVERIFY(simulate(*m, times, fixedStep(IntegrationMethod::ImplicitEuler, 0)).states.allFinite());
        QVERIFY(simulate(*m, times, fixedStep(IntegrationMethod::CrankNicolson, 0)).states.allFinite());
    }

    // A 2-D field: the message names the node by both coordinates and states 2/|lambda|max.
    void explicitEulerLimitOnATwoDimensionalField()
    {
        auto m = test::compiled(test::seed003::example5);
        // r = v = 0.2, dx = dy = 0.2: bound 4 (0.2 + 0.2)/0.04 = 40, limit 0.05.
        const auto times = integrate::uniformGrid(0, 1, 0.1);
        try {
            simulate(*m, times, fixedStep(IntegrationMethod::Euler, 0.1));
            QFAIL("a step above the explicit Euler limit was accepted");
        } catch (const integrate::IntegrationError& e) {
            const QString message = e.what();
            qInfo("%s", e.what());
            for (const char* part : {"2/|lambda|max = 0.05", "|lambda| <= 40", "of field s (x = 0.4, y = 0.4)"})
                QVERIFY2(message.contains(part), qPrintable(QString("'%1' missing from: %2").arg(part, message)));
        }
        QVERIFY(simulate(*m, times, fixedStep(IntegrationMethod::Euler, 0.05)).states.allFinite());
    }

    // Models without fields keep explicit Euler unchecked (its old behaviour).
    void odeModelsAreNotChecked()
    {
        auto m = test::compiled("param k = 100\nstate x = 1\nx' = -k*x\n");
        const auto r = simulate(*m, integrate::uniformGrid(0, 0.1, 0.05), fixedStep(IntegrationMethod::Euler, 0));
        QVERIFY(std::abs(r.states(1, 0) + 4) < 1e-12);  // 1 + h lambda = -4: unstable, but computed
    }

    // The stiffest mode of the 9-node rod, sin(9 pi x) (lambda = 0.5 (4/dx^2) sin^2(0.45 pi) = 195),
    // with h = 0.1: Crank-Nicolson's factor (1 - h lambda/2)/(1 + h lambda/2) = -0.81 flips its
    // sign every step (A-stable, not L-stable), implicit Euler's 1/(1 + h lambda) = 0.05 damps it.
    void crankNicolsonOscillatesOnAStiffModeWithALargeStep()
    {
        std::string text = sineRod;
        text.replace(text.find("sin(pi*x)"), 9, "sin(9*pi*x)");
        auto m = test::compiled(text);
        const double h = 0.1, lambda = 0.5 * 400 * std::pow(std::sin(0.45 * M_PI), 2);
        const auto times = integrate::uniformGrid(0, 0.5, h);
        const auto cn = simulate(*m, times, fixedStep(IntegrationMethod::CrankNicolson, 0));
        const auto ie = simulate(*m, times, fixedStep(IntegrationMethod::ImplicitEuler, 0));
        const double gCN = (1 - h * lambda / 2) / (1 + h * lambda / 2), gIE = 1 / (1 + h * lambda);
        QVERIFY(gCN < -0.8);
        for (Eigen::Index k = 0; k < cn.states.rows(); ++k) {
            const double node1 = std::sin(0.9 * M_PI);  // s[1] at x = 0.1
            QVERIFY(std::abs(cn.states(k, 0) - std::pow(gCN, static_cast<double>(k)) * node1) < 1e-12);
            QVERIFY(std::abs(ie.states(k, 0) - std::pow(gIE, static_cast<double>(k)) * node1) < 1e-12);
            QVERIFY(ie.states(k, 0) > 0);
            if (k > 0)
                QVERIFY(cn.states(k, 0) * cn.states(k - 1, 0) < 0);
        }
    }

    // x' = x^2 from 1: the implicit Euler equation x1 - h x1^2 = 1 has no real root for h > 1/4.
    // At h = 1/2 Newton's matrix 1 - 2 h x is singular at the start; at h = 0.4 it is not, and
    // the iteration finds no root.
    void newtonFailureIsAnIntegrationError_data()
    {
        QTest::addColumn<double>("end");
        QTest::addColumn<QString>("expected");
        QTest::newRow("singular") << 0.5 << "implicit Euler step to t = 0.5 is singular";
        QTest::newRow("no root") << 0.4 << "implicit Euler step to t = 0.4";
    }

    void newtonFailureIsAnIntegrationError()
    {
        QFETCH(double, end);
        QFETCH(QString, expected);
        auto m = test::compiled("state x = 1\nx' = x^2\n");
        try {
            simulate(*m, {0.0, end}, fixedStep(IntegrationMethod::ImplicitEuler, 0));
            QFAIL("a step without a solution was accepted");
        } catch (const integrate::IntegrationError& e) {
            qInfo("%s", e.what());
            QCOMPARE(e.reason(), integrate::IntegrationError::Reason::SolverFailure);
            QVERIFY2(QString(e.what()).contains(expected), e.what());
            QVERIFY(QString(e.what()).contains("--max-step"));
        }
        // With h = 0.1 each step has a root: the solution stays finite up to t = 0.5.
        QVERIFY(simulate(*m, {0.0, 0.5}, fixedStep(IntegrationMethod::ImplicitEuler, 0.1)).states.allFinite());
    }

    // Seed 003 example 1: data made with crank-nicolson (h = 0.01) from alpha = (0.1, 0.15, 0.18),
    // fitted with the same scheme from the seed's start (0.2, 0.2, 0.2): the truth comes back.
    void seed003Example1WithCrankNicolson()
    {
        const auto source = eval::compileModel(model::parseModel(test::seed003::example1 + "output s\n"));
        const std::vector<double> truth{0.1, 0.15, 0.18};
        const auto times = integrate::uniformGrid(0, 2, 0.05);
        const auto settings = fixedStep(IntegrationMethod::CrankNicolson, 0.01, 1e-12, 1e-14);
        eval::CompiledModel m(source);
        m.setParameters(truth);
        estimate::Experiment e;
        e.name = "crank-nicolson";
        e.times = times;
        e.measured = simulate(m, times, settings).outputs;
        e.outputMeasured.assign(m.outputCount(), true);
        estimate::FitSettings fs;
        fs.integrator = settings;
        for (const auto& name : source->outputNames)
            fs.outputWeights[name] = 1.0;
        const auto r = estimate::fit(source, {0.2, 0.2, 0.2}, {e}, fs);
        double worst = 0;
        for (std::size_t j = 0; j < truth.size(); ++j)
            worst = std::max(worst, test::relativeError(r.parameters[j].value, truth[j]));
        qInfo("seed 003 example 1 (crank-nicolson data and model): %zu iterations, alpha = (%.8f, %.8f, %.8f), worst "
              "relative error %.2e, %s",
              r.iterations, r.parameters[0].value, r.parameters[1].value, r.parameters[2].value, worst,
              r.termination.message.c_str());
        QVERIFY(r.converged());
        QVERIFY(worst < 1e-6);
    }
};

QTEST_GUILESS_MAIN(TestFixedStepSchemes)
#include "test_fixed_step_schemes.moc"
