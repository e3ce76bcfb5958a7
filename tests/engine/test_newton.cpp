// The damped Newton core shared by shooting and boundary value solvers.
#include "VectorTestSupport.h"

#include "engine/shooting/DampedNewton.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

using namespace sysid::shooting;
namespace core = sysid::core;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using sysid::test::vec;

namespace {

}  // namespace

class TestNewton : public QObject {
    Q_OBJECT
private slots:
    void rosenbrockRoot()
    {
        DenseNewtonSystem system(
            [](const VectorXd& x) {
                return vec({10.0 * (x(1) - x(0) * x(0)), 1.0 - x(0)});
            },
            [](const VectorXd& x) {
                MatrixXd J(2, 2);
                J << -20.0 * x(0), 10.0, -1.0, 0.0;
                return J;
            });
        const auto r = solveDampedNewton(system, vec({-1.2, 1.0}), {});
        QVERIFY(r.converged());
        QVERIFY(std::abs(r.x(0) - 1.0) < 1e-12);
        QVERIFY(std::abs(r.x(1) - 1.0) < 1e-12);
    }

    // Pure Newton on atan(x) = 0 diverges from |x0| > 1.39; the line search must rescue it.
    void lineSearchRescuesDivergentNewton()
    {
        DenseNewtonSystem system([](const VectorXd& x) { return vec({std::atan(x(0))}); },
                                 [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 1.0 / (1.0 + x(0) * x(0))); });
        std::size_t damped = 0;
        const auto r = solveDampedNewton(system, vec({10.0}), {}, [&](const NewtonIteration& it) {
            if (it.damping < 1.0)
                ++damped;
        });
        QVERIFY(r.converged());
        QVERIFY(std::abs(r.x(0)) < 1e-10);
        QVERIFY(damped > 0);
    }

    // A residual that throws (an integration that blew up) shortens the step instead of failing.
    void evaluationFailureShortensStep()
    {
        DenseNewtonSystem system(
            [](const VectorXd& x) {
                if (x(0) < -5.0)
                    throw std::runtime_error("blew up");
                return vec({std::atan(x(0))});
            },
            [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 1.0 / (1.0 + x(0) * x(0))); });
        const auto r = solveDampedNewton(system, vec({3.0}), {});
        QVERIFY(r.converged());
        QVERIFY(std::abs(r.x(0)) < 1e-10);
    }

    void chordModeReusesJacobian()
    {
        DenseNewtonSystem system(
            [](const VectorXd& x) {
                return vec({x(0) + 0.1 * x(0) * x(0) * x(0) - 2.0, x(1) - 0.5 * std::sin(x(0))});
            },
            [](const VectorXd& x) {
                MatrixXd J(2, 2);
                J << 1.0 + 0.3 * x(0) * x(0), 0.0, -0.5 * std::cos(x(0)), 1.0;
                return J;
            });
        NewtonSettings settings;
        settings.chordContraction = 0.5;
        std::size_t reused = 0;
        const auto r = solveDampedNewton(system, vec({1.0, 0.0}), settings, [&](const NewtonIteration& it) {
            if (it.jacobianReused)
                ++reused;
        });
        QVERIFY(r.converged());
        QVERIFY(reused > 0);
        QVERIFY(r.jacobianEvaluations < r.iterations);
        QVERIFY(std::abs(r.x(0) + 0.1 * std::pow(r.x(0), 3) - 2.0) < 1e-10);
    }

    // A factorisation handed in from an earlier solve (a previous tolerance stage) is used for
    // chord steps before any Jacobian is built; a poor one is replaced after one failed trial.
    void handedInFactorisationComesFirst()
    {
        std::size_t jacobians = 0;
        auto residual = [](const VectorXd& x) {
            return vec({x(0) + 0.1 * x(0) * x(0) * x(0) - 2.0, x(1) - 0.5 * std::sin(x(0))});
        };
        auto jacobian = [&](const VectorXd& x) {
            ++jacobians;
            MatrixXd J(2, 2);
            J << 1.0 + 0.3 * x(0) * x(0), 0.0, -0.5 * std::cos(x(0)), 1.0;
            return J;
        };
        DenseNewtonSystem system(residual, jacobian);
        const auto first = solveDampedNewton(system, vec({1.0, 0.0}), {});
        QVERIFY(first.converged());
        // The system holds the Jacobian of the root; a nearby problem starts from it.
        NewtonSettings settings;
        settings.reuseFactorisation = true;
        jacobians = 0;
        const auto near = solveDampedNewton(system, first.x + vec({1e-3, -1e-3}), settings);
        QVERIFY(near.converged());
        QCOMPARE(near.jacobianEvaluations, std::size_t(0));
        QCOMPARE(jacobians, std::size_t(0));
        QVERIFY((near.x - first.x).norm() < 1e-9);
        // A factorisation far from the root does not contract: Newton builds a Jacobian.
        DenseNewtonSystem fresh(residual, jacobian);
        fresh.linearise(vec({-3.0, 2.0}));
        const auto recovered = solveDampedNewton(fresh, vec({1.0, 0.0}), settings);
        QVERIFY(recovered.converged());
        QVERIFY(recovered.jacobianEvaluations > 0);
        QVERIFY((recovered.x - first.x).norm() < 1e-9);
    }

    void singularJacobianIsReported()
    {
        DenseNewtonSystem system(
            [](const VectorXd& x) {
                return vec({x(0) + x(1), x(0) + x(1) - 1.0});
            },
            [](const VectorXd&) { return MatrixXd::Ones(2, 2); });
        const auto r = solveDampedNewton(system, vec({0.0, 0.0}), {});
        QCOMPARE(r.termination.criterion, core::TerminationCriterion::SingularJacobian);
    }

    // x^2 + 1 has no real root: the solver must stop with a reason, not loop.
    void noRootStopsWithReason()
    {
        DenseNewtonSystem system([](const VectorXd& x) { return vec({x(0) * x(0) + 1.0}); },
                                 [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 2.0 * x(0)); });
        const auto r = solveDampedNewton(system, vec({0.7}), {});
        QVERIFY(!r.converged());
        QVERIFY(!r.termination.message.empty());
        QVERIFY(r.x.allFinite());
    }

    void cancelStopsBeforeIterating()
    {
        DenseNewtonSystem system([](const VectorXd& x) { return vec({x(0) - 1.0}); },
                                 [](const VectorXd&) { return MatrixXd::Identity(1, 1); });
        std::stop_source source;
        source.request_stop();
        const auto r = solveDampedNewton(system, vec({0.0}), {}, {}, source.get_token());
        QCOMPARE(r.termination.kind, core::TerminationKind::Cancelled);
        QCOMPARE(r.x(0), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestNewton)
#include "test_newton.moc"
