// Validation of the multiple shooting TPBVP solver on the two properties seed 001 (ch. 3, 5)
// relies on: a stiff and unstable problem is solved with a stiff integrator per interval, and
// the Newton iteration count does not grow with the number of shooting points.
#include "../engine/BvpTestSupport.h"

#include "engine/shooting/BoundaryValueProblem.h"

#include <QString>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace sysid;
using namespace sysid::shooting;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using integrate::IntegrationMethod;

namespace {

// y'' = L^2 y (unstable: e^{L t} grows by e^20 over [0, 1]) together with the stiff
// z' = -K (z - cos t), K = 1e5; y(0) = 0, z(0) = 1, y(1) = 1.
constexpr double kL = 20.0, kK = 1e5;
double y(double t)
{
    return std::sinh(kL * t) / std::sinh(kL);
}
double dy(double t)
{
    return kL * std::cosh(kL * t) / std::sinh(kL);
}
// Exact: z = (K^2 cos t + K sin t)/(K^2 + 1) + e^{-K t}/(K^2 + 1).
double z(double t)
{
    return (kK * kK * std::cos(t) + kK * std::sin(t) + std::exp(-kK * t)) / (kK * kK + 1);
}

test::LambdaOde stiffUnstable()
{
    return test::LambdaOde(
        3,
        [](double t, const double* x, double* f) {
            f[0] = x[1];
            f[1] = kL * kL * x[0];
            f[2] = -kK * (x[2] - std::cos(t));
        },
        [](double t, const double*, double* J, double* dfdt) {
            std::fill(J, J + 9, 0.0);
            J[0 + 3 * 1] = 1.0;
            J[1 + 3 * 0] = kL * kL;
            J[2 + 3 * 2] = -kK;
            dfdt[0] = dfdt[1] = 0.0;
            dfdt[2] = -kK * std::sin(t);
        });
}

BoundaryConditions stiffConditions()
{
    BoundaryConditions bc;
    bc.leftCount = 2;
    bc.left = [](const VectorXd& x) {
        VectorXd r(2);
        r << x(0), x(2) - 1.0;
        return r;
    };
    bc.leftJacobian = [](const VectorXd&) {
        MatrixXd J(2, 3);
        J << 1, 0, 0, 0, 0, 1;
        return J;
    };
    bc.right = [](const VectorXd& x) { return VectorXd::Constant(1, x(0) - 1.0); };
    bc.rightJacobian = [](const VectorXd&) {
        MatrixXd J(1, 3);
        J << 1, 0, 0;
        return J;
    };
    return bc;
}

BvpResult solveStiff(IntegrationMethod method, std::size_t maxSteps)
{
    BvpSettings s;
    s.shootingPoints = uniformShootingPoints(0, 1, 21);
    auto stage = test::stage(method, 1e-10, 1e-12);
    stage.integrator.maxSteps = maxSteps;
    s.stages = {stage};
    s.threads = 2;
    return solveBoundaryValueProblem(stiffUnstable(), stiffConditions(), MatrixXd::Zero(21, 3), s);
}

}  // namespace

class TestBvpValidation : public QObject {
    Q_OBJECT
private slots:
    void stiffUnstableProblemWithRosenbrock()
    {
        const auto stiff = solveStiff(IntegrationMethod::Rosenbrock4, 1000);
        QVERIFY2(stiff.converged(), stiff.message.c_str());
        double ey = 0, ez = 0;
        for (std::size_t i = 0; i < stiff.shootingPoints.size(); ++i) {
            const double t = stiff.shootingPoints[i];
            const auto r = static_cast<Eigen::Index>(i);
            ey = std::max({ey, std::abs(stiff.nodes(r, 0) - y(t)), std::abs(stiff.nodes(r, 1) - dy(t)) / kL});
            ez = std::max(ez, std::abs(stiff.nodes(r, 2) - z(t)));
        }
        qInfo("stiff/unstable (L = 20, K = 1e5, 21 points), rosenbrock4: %zu iterations, max error y %.2e, z %.2e",
              stiff.totalIterations, ey, ez);
        QVERIFY2(ey < 1e-7, qPrintable(QString::number(ey)));
        QVERIFY2(ez < 1e-7, qPrintable(QString::number(ez)));

        // The explicit method needs about K * 0.05 / 3.3 = 1500 steps per interval for stability
        // alone: with the same 1000-step budget it has to give up and say why.
        const auto explicitRun = solveStiff(IntegrationMethod::Dopri5, 1000);
        qInfo("dopri5 with the same step budget: %s", explicitRun.message.c_str());
        QVERIFY(!explicitRun.converged());
        QVERIFY2(explicitRun.message.find("more than 1000 steps") != std::string::npos, explicitRun.message.c_str());
    }

    // Newton on the discretised problem sees the same function space for every m: the
    // iteration count from a linear guess must not grow with the number of shooting points.
    void newtonIterationsDoNotGrowWithM()
    {
        const auto ode =
            test::secondOrder([](double, double v) { return 1.5 * v * v; }, [](double, double v) { return 3.0 * v; });
        std::vector<std::size_t> iterations;
        for (std::size_t m : {6, 11, 21, 41, 81, 161, 321}) {
            BvpSettings s;
            s.shootingPoints = uniformShootingPoints(0, 1, m);
            s.stages = {test::stage(IntegrationMethod::Dopri5)};
            s.threads = 2;
            const auto r =
                solveBoundaryValueProblem(ode, test::dirichlet(4, 1), test::linearGuess(s.shootingPoints, 4, 1), s);
            QVERIFY2(r.converged(), r.message.c_str());
            double e = 0;
            for (std::size_t i = 0; i < m; ++i) {
                const double t = s.shootingPoints[i];
                e = std::max(e, std::abs(r.nodes(static_cast<Eigen::Index>(i), 0) - 4 / ((1 + t) * (1 + t))));
            }
            QVERIFY(e < 1e-8);
            qInfo("y'' = 1.5 y^2, m = %3zu: %zu Newton iterations, max error %.1e", m, r.totalIterations, e);
            iterations.push_back(r.totalIterations);
        }
        const auto [low, high] = std::minmax_element(iterations.begin(), iterations.end());
        QVERIFY2(*high <= *low + 1, qPrintable(QString("%1..%2").arg(*low).arg(*high)));
    }
};

QTEST_APPLESS_MAIN(TestBvpValidation)
#include "test_bvp_validation.moc"
