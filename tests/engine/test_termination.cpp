// One termination for every solver: each minimiser, the damped Newton, the equation-error Newton
// and continuation stop with a kind (converged, iteration limit, cancelled, failed) and a
// criterion, on small problems built to reach each one.
#include "EstimateTestSupport.h"
#include "IntegrationTestSupport.h"
#include "LinearTestProblem.h"
#include "VectorTestSupport.h"

#include "engine/core/Termination.h"
#include "engine/estimate/DampedGaussNewton.h"
#include "engine/estimate/Fit.h"
#include "engine/estimate/LevenbergMarquardt.h"
#include "engine/estimate/SteepestDescent.h"
#include "engine/shooting/Continuation.h"
#include "engine/shooting/DampedNewton.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

using namespace sysid;
using core::TerminationCriterion;
using core::TerminationKind;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using test::LinearProblem;
using test::matrix3x2;
using test::vec;

Q_DECLARE_METATYPE(sysid::core::TerminationKind)
Q_DECLARE_METATYPE(sysid::core::TerminationCriterion)

namespace {

// y = exp(a t) with a = 0.5 and noise: nonlinear, so every minimiser needs several steps, each gaining less.
class Exponential : public estimate::LeastSquaresProblem {
public:
    VectorXd theta = vec({0.2}), pending;
    VectorXd parameters() const override { return theta; }
    VectorXd lower() const override { return vec({-10}); }
    VectorXd upper() const override { return vec({10}); }
    bool evaluate(const VectorXd& step, estimate::Linearization& out, std::string&, std::stop_token) override
    {
        pending = theta + step;
        out.residuals.resize(5);
        out.jacobian.resize(5, 1);
        for (int i = 0; i < 5; ++i) {
            const double t = 0.25 * i, y = std::exp(0.5 * t) + (i % 2 ? 0.01 : -0.01);
            out.residuals(i) = y - std::exp(pending(0) * t);
            out.jacobian(i, 0) = -t * std::exp(pending(0) * t);
        }
        out.merit = 0.5 * out.residuals.squaredNorm();
        return true;
    }
    void accept() override { theta = pending; }
};

// At its optimum, with the noise of a cost an integration computes: J'r is zero, so a step's
// predicted decrease is zero, while every evaluation lowers the cost by about 2e-14.
class NoisyOptimum : public estimate::LeastSquaresProblem {
public:
    VectorXd theta = vec({1.0}), pending;
    std::size_t evaluations = 0;
    VectorXd parameters() const override { return theta; }
    VectorXd lower() const override { return vec({-10}); }
    VectorXd upper() const override { return vec({10}); }
    bool evaluate(const VectorXd& step, estimate::Linearization& out, std::string&, std::stop_token) override
    {
        pending = theta + step;
        const double a = 1.0 - 1e-14 * static_cast<double>(evaluations++);
        out.residuals = vec({a, a});
        out.jacobian.resize(2, 1);
        out.jacobian << 1.0, -1.0;
        out.merit = 0.5 * out.residuals.squaredNorm();
        return true;
    }
    void accept() override { theta = pending; }
};

const VectorXd b3 = vec({1.0, -2.0, 0.5});

// The least-squares solution of M theta = b: where a minimiser that starts has nothing left to do.
VectorXd optimum()
{
    const MatrixXd m = matrix3x2();
    return (m.transpose() * m).ldlt().solve(m.transpose() * b3);
}

// Tolerances that never pass (a negative tolerance), so one test at a time can be switched on.
estimate::StoppingTolerances noTests(std::size_t iterations = 100)
{
    estimate::StoppingTolerances t;
    t.maxIterations = iterations;
    t.costTolerance = t.stepTolerance = t.gradientTolerance = -1.0;
    return t;
}

enum class Minimiser { LevenbergMarquardt, GaussNewton, SteepestDescent };

estimate::MinimiserOutcome minimise(Minimiser which, estimate::LeastSquaresProblem& problem,
                                    const estimate::StoppingTolerances& tolerances, std::stop_token stop = {},
                                    double gain = 0.1)
{
    switch (which) {
    case Minimiser::LevenbergMarquardt: {
        estimate::LevenbergMarquardtOptions options;
        static_cast<estimate::StoppingTolerances&>(options) = tolerances;
        // Below the default 1e20 a failing model's steps are not yet lost in rounding.
        options.maxDamping = 1e6;
        return estimate::levenbergMarquardt(problem, options, stop, {});
    }
    case Minimiser::GaussNewton: {
        estimate::GaussNewtonOptions options;
        static_cast<estimate::StoppingTolerances&>(options) = tolerances;
        return estimate::dampedGaussNewton(problem, options, stop, {});
    }
    case Minimiser::SteepestDescent:
        return estimate::steepestDescent(problem, vec({1, 1, 1}), gain, tolerances, stop, {});
    }
    throw std::logic_error("no such minimiser");
}

void addMinimisers()
{
    QTest::addColumn<int>("minimiser");
    QTest::newRow("levenberg-marquardt") << int(Minimiser::LevenbergMarquardt);
    QTest::newRow("gauss-newton") << int(Minimiser::GaussNewton);
    QTest::newRow("steepest-descent") << int(Minimiser::SteepestDescent);
}

void checkTermination(const core::Termination& t, TerminationKind kind, TerminationCriterion criterion)
{
    QVERIFY2(t.kind == kind && t.criterion == criterion, core::describe(t).c_str());
    QVERIFY(!t.message.empty());
}

}  // namespace

class TestTermination : public QObject {
    Q_OBJECT
private slots:
    // Each spelling once, parse(name(v)) == v, and the JSON words of the issue.
    void spellingsAreComplete()
    {
        std::set<std::string_view> names;
        for (const auto& e : core::terminationKinds.entries()) {
            QVERIFY(names.insert(e.name).second);
            QCOMPARE(core::terminationKinds.parse(e.name), std::optional{e.value});
            QVERIFY(!e.description.empty());
        }
        QCOMPARE(names, (std::set<std::string_view>{"converged", "iteration_limit", "cancelled", "failed"}));
        names.clear();
        for (const auto& e : core::terminationCriteria.entries()) {
            QVERIFY(names.insert(e.name).second);
            QCOMPARE(core::terminationCriteria.parse(e.name), std::optional{e.value});
            QVERIFY(!e.description.empty());
        }
        QCOMPARE(names.size(), static_cast<std::size_t>(TerminationCriterion::InvalidSetting) + 1);
        const auto t = core::Termination::convergence(TerminationCriterion::CostTolerance, "small change");
        QVERIFY(t.converged() && !t.cancelled());
        QCOMPARE(core::describe(t), std::string("converged (cost_tolerance): small change"));
        QCOMPARE(core::describe(core::Termination::cancel()), std::string("cancelled: cancelled"));
    }

    void minimiserStopsOnIterationLimit_data() { addMinimisers(); }
    void minimiserStopsOnIterationLimit()
    {
        QFETCH(int, minimiser);
        Exponential problem;
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, noTests(2));
        checkTermination(out.termination, TerminationKind::IterationLimit, TerminationCriterion::None);
        QCOMPARE(out.iterations, std::size_t{2});
        QVERIFY(out.evaluations >= 3);
    }

    void minimiserStopsWhenCancelled_data() { addMinimisers(); }
    void minimiserStopsWhenCancelled()
    {
        QFETCH(int, minimiser);
        LinearProblem problem(matrix3x2(), b3, vec({3.0, -1.0}));
        std::stop_source source;
        source.request_stop();
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, noTests(), source.get_token());
        checkTermination(out.termination, TerminationKind::Cancelled, TerminationCriterion::None);
        QCOMPARE(out.iterations, std::size_t{0});
    }

    void minimiserConvergesByCost_data() { addMinimisers(); }
    void minimiserConvergesByCost()
    {
        QFETCH(int, minimiser);
        Exponential problem;
        auto tolerances = noTests();
        tolerances.costTolerance = 1e-6;
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, tolerances, {}, 1.0);
        checkTermination(out.termination, TerminationKind::Converged, TerminationCriterion::CostTolerance);
        QVERIFY(std::abs(problem.theta(0) - 0.5) < 0.05);
    }

    // At the least-squares solution the scaled gradient is at rounding level.
    void minimiserConvergesByGradient_data() { addMinimisers(); }
    void minimiserConvergesByGradient()
    {
        QFETCH(int, minimiser);
        LinearProblem problem(matrix3x2(), b3, optimum());
        auto tolerances = noTests();
        tolerances.gradientTolerance = 1e-8;
        tolerances.costTolerance = 0.0;  // LM and Gauss-Newton also ask that a zero step gains nothing
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, tolerances);
        checkTermination(out.termination, TerminationKind::Converged, TerminationCriterion::GradientTolerance);
    }

    // There too, with the gradient test off, the next step is at rounding level.
    void minimiserConvergesByStep_data() { addMinimisers(); }
    void minimiserConvergesByStep()
    {
        QFETCH(int, minimiser);
        LinearProblem problem(matrix3x2(), b3, optimum());
        auto tolerances = noTests();
        tolerances.stepTolerance = 1e-10;
        tolerances.costTolerance = 1e-12;  // the step tests also ask for no predicted gain
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, tolerances);
        checkTermination(out.termination, TerminationKind::Converged, TerminationCriterion::StepTolerance);
    }

    void minimiserReportsAnExactFit_data() { addMinimisers(); }
    void minimiserReportsAnExactFit()
    {
        QFETCH(int, minimiser);
        LinearProblem problem(MatrixXd::Identity(3, 2), vec({1.0, 2.0, 0.0}), vec({1.0, 2.0}));
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, noTests());
        checkTermination(out.termination, TerminationKind::Converged, TerminationCriterion::ExactFit);
    }

    // A step that lowers the cost by less than the tolerance ends the run even where its predicted
    // decrease is zero (or, by rounding, negative), instead of raising the damping evaluation after
    // evaluation until it fails.
    void levenbergMarquardtEndsOnAStepWithinRounding()
    {
        NoisyOptimum problem;
        auto tolerances = noTests();
        tolerances.costTolerance = 1e-10;
        const auto out = minimise(Minimiser::LevenbergMarquardt, problem, tolerances);
        checkTermination(out.termination, TerminationKind::Converged, TerminationCriterion::CostTolerance);
        QCOMPARE(problem.evaluations, std::size_t{2});  // the start and the one step
        QCOMPARE(out.iterations, std::size_t{1});
    }

    void gaussNewtonStopsAtRoundingLevel()
    {
        LinearProblem problem(matrix3x2(), b3, optimum());
        estimate::GaussNewtonOptions options;
        static_cast<estimate::StoppingTolerances&>(options) = noTests();
        const auto out = estimate::dampedGaussNewton(problem, options, {}, {});
        checkTermination(out.termination, TerminationKind::Converged, TerminationCriterion::RoundingLevel);
    }

    // A Jacobian that is not finite leaves no step: the normal equations are singular.
    void singularNormalEquations_data()
    {
        QTest::addColumn<int>("minimiser");
        QTest::newRow("levenberg-marquardt") << int(Minimiser::LevenbergMarquardt);
        QTest::newRow("gauss-newton") << int(Minimiser::GaussNewton);
    }
    void singularNormalEquations()
    {
        QFETCH(int, minimiser);
        LinearProblem problem(matrix3x2(), b3, vec({3.0, -1.0}), LinearProblem::Fault::NanJacobian);
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, noTests());
        checkTermination(out.termination, TerminationKind::Failed, TerminationCriterion::SingularJacobian);
    }

    // The linearization promises a decrease that no step delivers: LM raises its damping to the
    // limit, Gauss-Newton halves its step to the limit.
    void noStepReducesTheCost_data()
    {
        QTest::addColumn<int>("minimiser");
        QTest::newRow("levenberg-marquardt") << int(Minimiser::LevenbergMarquardt);
        QTest::newRow("gauss-newton") << int(Minimiser::GaussNewton);
    }
    void noStepReducesTheCost()
    {
        QFETCH(int, minimiser);
        LinearProblem problem(matrix3x2(), b3, vec({3.0, -1.0}), LinearProblem::Fault::CostRises);
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, noTests());
        checkTermination(out.termination, TerminationKind::Failed, TerminationCriterion::LineSearch);
        QCOMPARE(problem.parameters(), vec({3.0, -1.0}));
    }

    void modelCannotBeEvaluated_data()
    {
        QTest::addColumn<int>("minimiser");
        QTest::addColumn<TerminationCriterion>("criterion");
        QTest::newRow("levenberg-marquardt")
            << int(Minimiser::LevenbergMarquardt) << TerminationCriterion::EvaluationFailed;
        // Gauss-Newton's line search halves the step until it gives up.
        QTest::newRow("gauss-newton") << int(Minimiser::GaussNewton) << TerminationCriterion::LineSearch;
        QTest::newRow("steepest-descent") << int(Minimiser::SteepestDescent) << TerminationCriterion::EvaluationFailed;
    }
    void modelCannotBeEvaluated()
    {
        QFETCH(int, minimiser);
        QFETCH(TerminationCriterion, criterion);
        LinearProblem problem(matrix3x2(), b3, vec({3.0, -1.0}), LinearProblem::Fault::CannotEvaluate);
        const auto out = minimise(static_cast<Minimiser>(minimiser), problem, noTests());
        checkTermination(out.termination, TerminationKind::Failed, criterion);
        QVERIFY2(out.termination.message.find("blew up") != std::string::npos, out.termination.message.c_str());
    }

    void steepestDescentGainTooLarge()
    {
        LinearProblem problem(matrix3x2(), b3, vec({3.0, -1.0}));
        const auto out = estimate::steepestDescent(problem, vec({1, 1, 1}), 10.0, noTests(), {}, {});
        checkTermination(out.termination, TerminationKind::Failed, TerminationCriterion::GainTooLarge);
    }

    void newtonConvergesByResidual()
    {
        shooting::DenseNewtonSystem system([](const VectorXd& x) { return vec({x(0) * x(0) - 2.0}); },
                                           [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 2.0 * x(0)); });
        const auto r = shooting::solveDampedNewton(system, vec({1.0}), {});
        checkTermination(r.termination, TerminationKind::Converged, TerminationCriterion::ResidualTolerance);
        QVERIFY(std::abs(r.x(0) - std::sqrt(2.0)) < 1e-10);
        // A start that already satisfies the equations converges at once, by the same test.
        const auto at = shooting::solveDampedNewton(system, r.x, {});
        checkTermination(at.termination, TerminationKind::Converged, TerminationCriterion::ResidualTolerance);
        QCOMPARE(at.iterations, std::size_t{0});
    }

    void newtonConvergesByStep()
    {
        shooting::DenseNewtonSystem system([](const VectorXd& x) { return vec({x(0) * x(0) - 2.0}); },
                                           [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 2.0 * x(0)); });
        shooting::NewtonSettings settings;
        settings.residualTolerance = -1.0;  // never: only the step test can end it
        const auto r = shooting::solveDampedNewton(system, vec({1.0}), settings);
        checkTermination(r.termination, TerminationKind::Converged, TerminationCriterion::StepTolerance);
    }

    void newtonIterationLimitAndLineSearch()
    {
        shooting::DenseNewtonSystem system([](const VectorXd& x) { return vec({x(0) * x(0) - 2.0}); },
                                           [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 2.0 * x(0)); });
        shooting::NewtonSettings settings;
        settings.maxIterations = 2;
        const auto limited = shooting::solveDampedNewton(system, vec({100.0}), settings);
        checkTermination(limited.termination, TerminationKind::IterationLimit, TerminationCriterion::None);
        // x^2 + 1 has no real root: the damping shrinks below its minimum.
        shooting::DenseNewtonSystem noRoot([](const VectorXd& x) { return vec({x(0) * x(0) + 1.0}); },
                                           [](const VectorXd& x) { return MatrixXd::Constant(1, 1, 2.0 * x(0)); });
        shooting::NewtonSettings plain;
        plain.modifiedSteps = false;
        const auto r = shooting::solveDampedNewton(noRoot, vec({0.7}), plain);
        checkTermination(r.termination, TerminationKind::Failed, TerminationCriterion::LineSearch);
        // With modified steps (the default) Newton goes on to x = 0, where J^T F = 0 while F = 1: a
        // minimum of |F| that is no root, where the (square) Jacobian is singular.
        const auto modified = shooting::solveDampedNewton(noRoot, vec({0.7}), {});
        checkTermination(modified.termination, TerminationKind::Failed, TerminationCriterion::SingularJacobian);
        QVERIFY(std::abs(modified.x(0)) < 1e-5);
    }

    void newtonCannotEvaluateTheStart()
    {
        shooting::DenseNewtonSystem system(
            [](const VectorXd&) -> VectorXd { throw std::runtime_error("integration blew up"); },
            [](const VectorXd&) { return MatrixXd::Identity(1, 1); });
        const auto r = shooting::solveDampedNewton(system, vec({1.0}), {});
        checkTermination(r.termination, TerminationKind::Failed, TerminationCriterion::EvaluationFailed);
    }

    // The equation-error Newton through estimate::fit: converged, iteration limit, cancelled.
    void equationErrorNewton()
    {
        const auto source = test::compiledSource("param k = 0.5 [0.01, 10]\nparam c = 0.1\n"
                                                 "x'' = -c*x' - k*x\nx(0) = 1, 0\noutput x\noutput x'\n");
        std::vector<double> times;
        for (int i = 0; i <= 200; ++i)
            times.push_back(0.02 * i);
        const auto data = test::simulatedExperiment(source, {2.0, 0.1}, times);
        estimate::FitSettings settings;
        settings.method = estimate::EstimationMethod::Multistep;
        const auto converged = estimate::fit(source, {0.5, 0.1}, {data}, settings);
        QVERIFY2(converged.converged(), core::describe(converged.termination).c_str());
        QVERIFY(converged.termination.criterion == TerminationCriterion::StepTolerance ||
                converged.termination.criterion == TerminationCriterion::CostTolerance ||
                converged.termination.criterion == TerminationCriterion::RoundingLevel);
        QVERIFY(converged.evaluations > converged.iterations);
        QVERIFY(converged.derivativeEvaluations >= converged.iterations);

        settings.maxIterations = 1;
        settings.stepTolerance = 0.0;
        settings.costTolerance = 0.0;
        const auto limited = estimate::fit(source, {0.5, 0.1}, {data}, settings);
        checkTermination(limited.termination, TerminationKind::IterationLimit, TerminationCriterion::None);

        std::stop_source source2;
        source2.request_stop();
        const auto cancelled = estimate::fit(source, {0.5, 0.1}, {data}, settings, nullptr, source2.get_token());
        checkTermination(cancelled.termination, TerminationKind::Cancelled, TerminationCriterion::None);
        QVERIFY(cancelled.cancelled());
    }

    // Continuation: the parameter range reached, the point limit, a bad setting.
    void continuationTerminations()
    {
        auto model = test::compiled("param c = 0.2\nparam w = 1\nx'' = -c*x' - x + 0.7*cos(w*t)\nx(0) = 0, 0\n"
                                    "output x\n");
        shooting::ContinuationSettings s;
        s.parameter = test::parameter(*model, "w");
        s.start = 0.5;
        s.end = 0.7;
        s.initialStep = 0.05;
        s.maxStep = 0.05;
        s.periodOf = shooting::forcingPeriodOfFrequency();
        const auto full = shooting::continuePeriodicSolutions(*model, VectorXd::Zero(2), s);
        checkTermination(full.termination, TerminationKind::Converged, TerminationCriterion::ParameterRange);
        QVERIFY(full.completed());
        s.maxPoints = 2;
        const auto limited = shooting::continuePeriodicSolutions(*model, VectorXd::Zero(2), s);
        checkTermination(limited.termination, TerminationKind::IterationLimit, TerminationCriterion::None);
        QCOMPARE(limited.points.size(), std::size_t{2});
        s.amplitudeState = 5;
        const auto refused = shooting::continuePeriodicSolutions(*model, VectorXd::Zero(2), s);
        checkTermination(refused.termination, TerminationKind::Failed, TerminationCriterion::InvalidSetting);
    }
};

QTEST_GUILESS_MAIN(TestTermination)
#include "test_termination.moc"
