// The damped Newton core shared by shooting and boundary value solvers.
#include "VectorTestSupport.h"

#include "engine/core/SolverStatistics.h"
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
        NewtonSettings plain;
        plain.modifiedSteps = false;
        const auto r = solveDampedNewton(system, vec({0.0, 0.0}), plain);
        QCOMPARE(r.termination.criterion, core::TerminationCriterion::SingularJacobian);
        // x0 + x1 = 0 and = 1 at once has no solution: modified steps reach the least-squares line
        // x0 + x1 = 1/2, a minimum of ||F|| that is not a root, and say so.
        const auto modified = solveDampedNewton(system, vec({0.0, 0.0}), {});
        QCOMPARE(modified.termination.kind, core::TerminationKind::Failed);
        QCOMPARE(modified.termination.criterion, core::TerminationCriterion::SingularJacobian);
        QVERIFY2(modified.termination.message.find("local minimum") != std::string::npos,
                 modified.termination.message.c_str());
        QVERIFY(std::abs(modified.x(0) + modified.x(1) - 0.5) < 1e-7);  // mu leaves a relative 2e-8
        QVERIFY(modified.modifiedSteps > 0);
    }

    // F = [x0 + x1 - 2, (x0 - x1)^2 + 1e-15 (x0 - x1)]: the root (1, 1) (and one 1e-15 from it)
    // where J is singular to working precision on the whole line x0 = x1. From (0, 0) plain Newton
    // stops at once ("singular Jacobian"); Gay's modified step moves along the line to the root.
    void modifiedStepSolvesNearlySingularSystem()
    {
        DenseNewtonSystem system(
            [](const VectorXd& x) {
                const double d = x(0) - x(1);
                return vec({x(0) + x(1) - 2.0, d * d + 1e-15 * d});
            },
            [](const VectorXd& x) {
                const double d = x(0) - x(1);
                MatrixXd J(2, 2);
                J << 1.0, 1.0, 2.0 * d + 1e-15, -2.0 * d - 1e-15;
                return J;
            });
        NewtonSettings plain;
        plain.modifiedSteps = false;
        const auto stopped = solveDampedNewton(system, vec({0.0, 0.0}), plain);
        QCOMPARE(stopped.termination.criterion, core::TerminationCriterion::SingularJacobian);
        QCOMPARE(stopped.iterations, std::size_t(0));

        std::size_t modifiedSeen = 0;
        const auto r = solveDampedNewton(system, vec({0.0, 0.0}), {}, [&](const NewtonIteration& it) {
            if (it.modified)
                ++modifiedSeen;
        });
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY(std::abs(r.x(0) - 1.0) < 1e-12 && std::abs(r.x(1) - 1.0) < 1e-12);
        QVERIFY(r.modifiedSteps > 0);
        QCOMPARE(modifiedSeen, r.modifiedSteps);
        // mu = sqrt(2 eps) ||J^T J||_1 leaves x0 + x1 - 2 a factor mu / (2 + mu) ~ 4e-8 per step.
        QVERIFY(r.iterations <= 3);
    }

    // A root where J is exactly singular (the double root of x1^2 at x1 = 0): from x1 = 0 plain
    // Newton cannot start; modified steps solve the regular part and keep x1 there.
    void modifiedStepsAtAnExactlySingularStart()
    {
        DenseNewtonSystem system(
            [](const VectorXd& x) {
                return vec({x(0) * x(0) - 4.0, x(1) * x(1)});
            },
            [](const VectorXd& x) {
                MatrixXd J = MatrixXd::Zero(2, 2);
                J(0, 0) = 2.0 * x(0);
                J(1, 1) = 2.0 * x(1);
                return J;
            });
        const auto r = solveDampedNewton(system, vec({3.0, 0.0}), {});
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY(std::abs(r.x(0) - 2.0) < 1e-10);
        QCOMPARE(r.x(1), 0.0);
        QVERIFY(r.modifiedSteps > 0);
    }

    // The re-use rule (Vankan 1992, eq. 4.42): near the root the old factorisation's correction
    // shrinks fast enough, so fewer Jacobians are built for the same root.
    void reuseRuleBuildsFewerJacobians()
    {
        std::size_t built = 0;
        auto residual = [](const VectorXd& x) {
            return vec({x(0) + 0.1 * x(0) * x(0) * x(0) - 2.0, x(1) - 0.5 * std::sin(x(0)) + 0.01 * x(1) * x(1)});
        };
        auto jacobian = [&](const VectorXd& x) {
            ++built;
            MatrixXd J(2, 2);
            J << 1.0 + 0.3 * x(0) * x(0), 0.0, -0.5 * std::cos(x(0)), 1.0 + 0.02 * x(1);
            return J;
        };
        NewtonSettings settings;
        settings.residualTolerance = 1e-13;
        DenseNewtonSystem every(residual, jacobian);
        const auto plain = solveDampedNewton(every, vec({1.4, 0.3}), settings);
        const std::size_t plainBuilt = built;
        settings.reuseJacobian = true;
        built = 0;
        DenseNewtonSystem reusing(residual, jacobian);
        std::size_t reusedSeen = 0;
        const auto r = solveDampedNewton(reusing, vec({1.4, 0.3}), settings, [&](const NewtonIteration& it) {
            if (it.jacobianReused)
                ++reusedSeen;
        });
        QVERIFY(plain.converged() && r.converged());
        QVERIFY((r.x - plain.x).cwiseAbs().maxCoeff() < 1e-12);
        QCOMPARE(plain.jacobianReuses, std::size_t(0));
        QCOMPARE(plainBuilt, plain.jacobianEvaluations);
        QCOMPARE(built, r.jacobianEvaluations);
        QVERIFY(r.jacobianReuses > 0);
        QCOMPARE(reusedSeen, r.jacobianReuses);
        QVERIFY(r.jacobianEvaluations < plain.jacobianEvaluations);
        qInfo("every iteration: %zu iterations, %zu Jacobians; re-use rule: %zu iterations, %zu Jacobians, %zu "
              "re-used",
              plain.iterations, plain.jacobianEvaluations, r.iterations, r.jacobianEvaluations, r.jacobianReuses);
    }

    // A step on the old factorisation that does not decrease ||F|| is dropped: the solve then
    // builds a Jacobian at the same point and still converges.
    void reusedStepThatFailsIsDropped()
    {
        DenseNewtonSystem system([](const VectorXd& x) { return vec({x(0) * x(0) - 2.0}); },
                                 [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 2.0 * x(0)); });
        // The factorisation at x = -3 (slope -6) points the wrong way at x = 1 (slope 2).
        system.linearise(vec({-3.0}));
        NewtonSettings settings;
        settings.reuseJacobian = true;
        settings.reuseFactorisation = true;
        const auto r = solveDampedNewton(system, vec({1.0}), settings);
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY(std::abs(r.x(0) - std::sqrt(2.0)) < 1e-10);
        QVERIFY(r.jacobianEvaluations > 0);
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

    // A run's statistics count the Newton work of every solve in it.
    void statisticsCountTheNewtonWork()
    {
        DenseNewtonSystem system(
            [](const VectorXd& x) {
                return vec({x(0) * x(0) - 4.0, x(1) * x(1)});
            },
            [](const VectorXd& x) {
                MatrixXd J = MatrixXd::Zero(2, 2);
                J(0, 0) = 2.0 * x(0);
                J(1, 1) = 2.0 * x(1);
                return J;
            });
        core::RunStatistics statistics;
        NewtonResult a, b;
        {
            const core::StatisticsScope scope(&statistics);
            a = solveDampedNewton(system, vec({3.0, 0.0}), {});
            NewtonSettings reuse;
            reuse.reuseJacobian = true;
            b = solveDampedNewton(system, vec({3.0, 1.0}), reuse);
        }
        const auto s = statistics.snapshot().newton;
        QCOMPARE(s.iterations, a.iterations + b.iterations);
        QCOMPARE(s.jacobianBuilds, a.jacobianEvaluations + b.jacobianEvaluations);
        QCOMPARE(s.jacobianReuses, a.jacobianReuses + b.jacobianReuses);
        QCOMPARE(s.modifiedSteps, a.modifiedSteps + b.modifiedSteps);
        QVERIFY(s.modifiedSteps > 0);
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
