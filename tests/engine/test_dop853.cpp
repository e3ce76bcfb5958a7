// DOP853 (Hairer, Norsett & Wanner 1993) against known answers: the order conditions of its
// published tableau, the order of convergence and of the dense output on an analytic solution,
// the step counts of SciPy's DOP853 on the same problems, and shooting with it.
#include "IntegrationTestSupport.h"

#include "engine/integrate/Dop853Tableau.h"
#include "engine/shooting/PeriodicShooting.h"

#include <QtTest>

#include <cmath>

using namespace sysid;
using integrate::IntegrationMethod;
namespace dop = integrate::dop853;

namespace {

const char* oscillator = "param w = 2\nx'' = -w^2*x\nx(0) = 1, 0\n";
// The cubic-oscillator fit's model at its true parameters, and Ueda's forced Duffing.
const char* cubic = "param gamma = 0.5\nparam Omega2 = 25\nparam k3 = 2.5\n"
                    "u'' = -2*gamma*u' - Omega2*u - k3*u^3\nu(0) = 0, 5\n";
const char* duffing = "param k = 0.05\nparam B = 7.5\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 3, 0\n";

double largestCosineError(const integrate::Trajectory& tr, double omega)
{
    double err = 0;
    for (std::size_t k = 0; k < tr.times.size(); ++k)
        err = std::max(err, std::abs(tr.states(static_cast<Eigen::Index>(k), 0) - std::cos(omega * tr.times[k])));
    return err;
}

// Steps of exactly h: tolerances so loose that every step passes, the step capped at h.
integrate::Trajectory fixedSteps(eval::CompiledModel& m, std::vector<double> times, double h)
{
    integrate::SimulationRequest r;
    r.times = std::move(times);
    r.initialStep = h;
    auto s = test::tight(IntegrationMethod::Dop853, 1.0, 1.0);
    s.maxStep = h;
    return integrate::simulate(m, r, s);
}

}  // namespace

class TestDop853 : public QObject {
    Q_OBJECT

private slots:
    void tableauSatisfiesTheOrderConditions()
    {
        // Rows: c_i = sum_j a_ij (every stage, the dense output's too).
        for (int i = 1; i < dop::kDenseStages; ++i) {
            double sum = 0;
            for (int j = 0; j < i; ++j)
                sum += dop::a[i][j];
            QVERIFY2(std::abs(sum - dop::c[static_cast<std::size_t>(i)]) < 1e-14, qPrintable(QString::number(i)));
        }
        const auto& b = dop::a[dop::kStages];
        // The bushy trees up to order 8: sum_i b_i c_i^(q-1) = 1/q; and the trees b A c^(q-1) =
        // 1/(q (q + 1)) up to order 8.
        for (int q = 1; q <= 8; ++q) {
            double quadrature = 0, nested = 0;
            for (int i = 0; i < dop::kStages; ++i) {
                quadrature += b[i] * std::pow(dop::c[static_cast<std::size_t>(i)], q - 1);
                if (q <= 7)
                    for (int j = 0; j < i; ++j)
                        nested += b[i] * dop::a[i][j] * std::pow(dop::c[static_cast<std::size_t>(j)], q - 1);
            }
            QVERIFY2(std::abs(quadrature - 1.0 / q) < 1e-13, qPrintable(QString("b c^%1").arg(q - 1)));
            if (q <= 7)
                QVERIFY2(std::abs(nested - 1.0 / (q * (q + 1))) < 1e-13, qPrintable(QString("b A c^%1").arg(q - 1)));
        }
        // The error estimates are differences of two consistent methods: the weights of the
        // fifth-order one sum to 0, those subtracted for the third-order one to 1.
        double e5 = 0, e3 = 0;
        for (std::size_t j = 0; j < dop::e5.size(); ++j) {
            e5 += dop::e5[j];
            e3 += dop::e3Offset[j];
        }
        QVERIFY(std::abs(e5) < 1e-14);
        QVERIFY(std::abs(e3 - 1) < 1e-14);
    }

    void convergesAtOrderEight()
    {
        // x = cos 2t at t = 10: halving the step divides the error by 2^8.
        auto m = test::compiled(oscillator);
        auto errorWith = [&](double h) { return largestCosineError(fixedSteps(*m, {0.0, 10.0}, h), 2.0); };
        const double coarse = errorWith(0.2), fine = errorWith(0.1);
        const double order = std::log2(coarse / fine);
        qInfo("error %.3e at h = 0.2, %.3e at h = 0.1: ratio %.1f, order %.2f", coarse, fine, coarse / fine, order);
        QVERIFY2(std::abs(order - 8) < 0.3, qPrintable(QString::number(order)));
        QVERIFY(fine < 1e-8);
    }

    void denseOutputIsOfOrderSeven()
    {
        // Samples between the steps (at 0.3 and 0.7 of each coarse step) come from the
        // continuous extension alone; its error is O(h^8) per step, the solution's O(h^8): the
        // ratio on halving is at least 2^7.
        auto m = test::compiled(oscillator);
        auto errorWith = [&](double h) {
            std::vector<double> times{0.0};
            for (double t0 = 0; t0 < 9.9; t0 += 0.4)
                for (double f : {0.3, 0.7})
                    times.push_back(t0 + f * 0.4);
            return largestCosineError(fixedSteps(*m, times, h), 2.0);
        };
        const double coarse = errorWith(0.4), fine = errorWith(0.2);
        const double order = std::log2(coarse / fine);
        qInfo("dense output error %.3e at h = 0.4, %.3e at h = 0.2: order %.2f", coarse, fine, order);
        QVERIFY2(order > 6.8, qPrintable(QString::number(order)));

        // Adaptive at rtol 1e-10: every point of a grid 100 times finer than the steps within 1e-9.
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, 20, 0.005);
        const auto tr = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dop853, 1e-10, 1e-12));
        qInfo("adaptive at rtol 1e-10: %zu steps for %zu samples, largest error %.2e", tr.statistics.steps,
              tr.times.size(), largestCosineError(tr, 2.0));
        QVERIFY(tr.statistics.steps * 20 < tr.times.size());
        QVERIFY(largestCosineError(tr, 2.0) < 1e-9);
    }

    void takesTheStepsOfScipysDop853_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("end");
        QTest::addColumn<int>("scipySteps");
        // tests/bench/dop853_steps_scipy.py, SciPy 1.10.1, rtol 1e-8, atol 1e-10.
        QTest::newRow("cubic oscillator") << QString(cubic) << 5.0 << 48;
        QTest::newRow("forced Duffing") << QString(duffing) << 20.0 << 144;
    }

    void takesTheStepsOfScipysDop853()
    {
        QFETCH(QString, model);
        QFETCH(double, end);
        QFETCH(int, scipySteps);
        auto m = test::compiled(model.toStdString());
        integrate::SimulationRequest r;
        r.times = integrate::uniformGrid(0, end, 0.01);
        const auto tr = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dop853, 1e-8, 1e-10));
        const auto dopri = integrate::simulate(*m, r, test::tight(IntegrationMethod::Dopri5, 1e-8, 1e-10));
        qInfo("%zu steps (%zu rejected, %zu evaluations); SciPy's DOP853 %d; dopri5 %zu", tr.statistics.steps,
              tr.statistics.rejectedSteps, tr.statistics.rhsEvaluations, scipySteps, dopri.statistics.steps);
        QVERIFY(std::abs(double(tr.statistics.steps) - scipySteps) <= 0.2 * scipySteps);
        QVERIFY(tr.statistics.steps * 3 < dopri.statistics.steps);
    }

    void periodicOrbitByShootingEqualsDopri5s()
    {
        // The Duffing orbit x'' + 0.2 x' + x^3 = 0.3 cos t, by single and multiple shooting: the
        // variational equations integrated by DOP853 give the orbit and multipliers of dopri5.
        auto model = test::compiled("param k = 0.2\nparam B = 0.3\nx'' = -k*x' - x^3 + B*cos(t)\nx(0) = 0, 0\n"
                                    "output x\n");
        for (std::size_t intervals : {std::size_t(1), std::size_t(4)}) {
            shooting::PeriodicSettings s;
            s.period = 2 * std::acos(-1.0);
            s.intervals = intervals;
            s.newton.residualTolerance = 1e-11;
            s.integrator = test::tight(IntegrationMethod::Dopri5, 1e-12, 1e-14);
            const auto reference = shooting::findPeriodicSolution(*model, Eigen::Vector2d(0.3, 0.0), s);
            s.integrator = test::tight(IntegrationMethod::Dop853, 1e-10, 1e-12);
            const auto orbit = shooting::findPeriodicSolution(*model, Eigen::Vector2d(0.3, 0.0), s);
            QVERIFY(orbit.converged() && reference.converged());
            QVERIFY2((orbit.initialState - reference.initialState).norm() < 1e-9,
                     qPrintable(QString::number((orbit.initialState - reference.initialState).norm())));
            QVERIFY((orbit.monodromy - reference.monodromy).cwiseAbs().maxCoeff() < 1e-8);
        }
    }
};

QTEST_GUILESS_MAIN(TestDop853)
#include "test_dop853.moc"
