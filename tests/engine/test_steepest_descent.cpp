// Steepest descent with the seed's fixed gain (seed 003, Bordan 1971 sec. 4.1):
// theta <- theta - (K/2) dJ/dtheta (eq. 4.22), J = sum_r c_r r_r^2 (a quadrature of the squared errors).
#include "LinearTestProblem.h"
#include "VectorTestSupport.h"

#include "engine/estimate/Fit.h"
#include "engine/estimate/SteepestDescent.h"
#include "engine/model/ModelBuilder.h"

#include <QtTest>

#include <cmath>
#include <stdexcept>

using namespace sysid;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using test::LinearProblem;
using test::matrix3x2;
using test::vec;

// With test::LinearProblem, r(theta) = b - M theta, J = sum c_r r_r^2 is a quadratic whose
// steepest-descent iterates are theta_k = theta* + (I - K M'CM)^k (theta_0 - theta*) (the seed's
// step is (K/2) dJ/dtheta), theta* = (M'CM)^-1 M'Cb.
class TestSteepestDescent : public QObject {
    Q_OBJECT
private slots:
    void quadraticIteratesInClosedForm()
    {
        const MatrixXd m = matrix3x2();
        const VectorXd b = vec({1.0, -2.0, 0.5});
        const VectorXd c = vec({0.5, 1.0, 2.0});
        const VectorXd start = vec({3.0, -1.0});
        LinearProblem problem(m, b, start);
        estimate::StoppingTolerances settings;
        settings.maxIterations = 25;
        settings.costTolerance = 0.0;
        settings.stepTolerance = 0.0;
        settings.gradientTolerance = 0.0;
        const double gain = 0.1;
        const auto out = estimate::steepestDescent(problem, c, gain, settings, {}, nullptr);
        QCOMPARE(out.iterations, std::size_t{25});
        QVERIFY(!out.termination.converged());
        QCOMPARE(out.termination.kind, core::TerminationKind::IterationLimit);

        const MatrixXd h = m.transpose() * c.asDiagonal() * m;
        const VectorXd optimum = h.ldlt().solve(m.transpose() * c.asDiagonal() * b);
        const MatrixXd iteration = MatrixXd::Identity(2, 2) - gain * h;
        VectorXd error = start - optimum;
        QCOMPARE(out.history.size(), std::size_t{26});
        for (std::size_t k = 0; k < out.history.size(); ++k) {
            const VectorXd expected = optimum + error;
            const VectorXd r = b - m * expected;
            const double cost = (c.array() * r.array().square()).sum();
            QVERIFY2(std::abs(out.history[k].parameters[0] - expected(0)) < 1e-12, qPrintable(QString::number(k)));
            QVERIFY2(std::abs(out.history[k].parameters[1] - expected(1)) < 1e-12, qPrintable(QString::number(k)));
            QVERIFY2(std::abs(out.history[k].cost - cost) < 1e-12 * (1 + cost), qPrintable(QString::number(k)));
            error = iteration * error;
        }
        QVERIFY(std::abs(out.final.merit - out.history.back().cost) < 1e-15);
    }

    void stopsOnSmallCostChange()
    {
        LinearProblem problem(matrix3x2(), vec({1.0, -2.0, 0.5}), vec({3.0, -1.0}));
        estimate::StoppingTolerances settings;
        settings.costTolerance = 1e-8;
        const auto out = estimate::steepestDescent(problem, vec({0.5, 1.0, 2.0}), 0.1, settings, {}, nullptr);
        QVERIFY2(out.termination.converged(), out.termination.message.c_str());
        QVERIFY(out.iterations > 5 && out.iterations < settings.maxIterations);
    }

    // K lambda_max(M'CM) > 2: the iteration diverges; the first rise stops it at the last good point.
    void tooLargeGainStopsAtLastGoodPoint()
    {
        const MatrixXd m = matrix3x2();
        const VectorXd c = vec({0.5, 1.0, 2.0});
        const double lambdaMax =
            (m.transpose() * c.asDiagonal() * m).selfadjointView<Eigen::Lower>().eigenvalues().maxCoeff();
        LinearProblem problem(m, vec({1.0, -2.0, 0.5}), vec({3.0, -1.0}));
        estimate::StoppingTolerances settings;
        const auto out = estimate::steepestDescent(problem, c, 3.0 / lambdaMax, settings, {}, nullptr);
        QVERIFY(!out.termination.converged());
        QCOMPARE(out.termination.kind, core::TerminationKind::Failed);
        QCOMPARE(out.termination.criterion, core::TerminationCriterion::GainTooLarge);
        QCOMPARE(problem.parameters()(0), out.history.back().parameters[0]);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 estimate::steepestDescent(problem, c, -1.0, settings, {}, nullptr));
    }

    void trapezoidWeightsPerRow()
    {
        estimate::Experiment a;
        a.times = {0.0, 0.1, 0.3};
        a.outputMeasured = {true, false, true};
        estimate::Experiment b;
        b.times = {1.0, 2.0};
        b.outputMeasured = {false, true, true};
        // Output 2 has weight 0: its rows are not residuals.
        const VectorXd w = estimate::trapezoidRowWeights({a, b}, {1.0, 4.0, 0.0});
        QCOMPARE(w.size(), Eigen::Index{5});
        const VectorXd expected = vec({0.05, 0.15, 0.1, 0.5, 0.5});
        QVERIFY((w - expected).cwiseAbs().maxCoeff() < 1e-15);
    }

    // y' = -k y, y(0) = 1 through estimate::fit: the first record's J is the trapezoid integral of
    // (exp(-t) - exp(-k0 t))^2 with the analytic responses, and the fit reaches k = 1.
    void fitByMethodName()
    {
        const std::shared_ptr<const eval::CompiledModelSource> source = eval::compileModel(
            model::parseModel("param k = 0.5 [0.01, 10]\nstate y = 1\ny' = -k*y\noutput y\n", "<decay>"));
        estimate::Experiment ex;
        ex.name = "decay";
        const int n = 101;
        ex.measured.resize(n, 1);
        for (int i = 0; i < n; ++i) {
            ex.times.push_back(0.04 * i);
            ex.measured(i, 0) = std::exp(-ex.times.back());
        }
        ex.outputMeasured = {true};
        estimate::FitSettings settings;
        QCOMPARE(estimate::kEstimationMethods.parse("steepest-descent"),
                 std::optional{estimate::EstimationMethod::SteepestDescent});
        QCOMPARE(estimate::methodName(estimate::EstimationMethod::SteepestDescent), std::string("steepest-descent"));
        settings.method = estimate::EstimationMethod::SteepestDescent;
        settings.steepestDescentGain = 4.0;
        settings.integrator.relativeTolerance = 1e-11;
        settings.integrator.absoluteTolerance = 1e-13;
        settings.maxIterations = 500;
        settings.costTolerance = 1e-14;
        std::vector<estimate::IterationRecord> seen;
        struct Recorder : estimate::ProgressSink {
            std::vector<estimate::IterationRecord>* records;
            void iteration(const estimate::IterationRecord& r) override { records->push_back(r); }
        } recorder;
        recorder.records = &seen;
        const auto result = estimate::fit(source, {0.5}, {ex}, settings, &recorder);
        double j0 = 0.0;
        for (int i = 0; i + 1 < n; ++i) {
            const double t0 = ex.times[static_cast<std::size_t>(i)], t1 = ex.times[static_cast<std::size_t>(i) + 1];
            const double e0 = std::exp(-t0) - std::exp(-0.5 * t0), e1 = std::exp(-t1) - std::exp(-0.5 * t1);
            j0 += 0.5 * (t1 - t0) * (e0 * e0 + e1 * e1);
        }
        QVERIFY(!seen.empty());
        QCOMPARE(seen.size(), result.history.size());
        QVERIFY2(std::abs(seen.front().cost - j0) < 1e-8 * j0, qPrintable(QString::number(seen.front().cost - j0)));
        QVERIFY2(result.converged(), result.termination.message.c_str());
        QVERIFY2(std::abs(result.parameters[0].value - 1.0) < 1e-4,
                 qPrintable(QString::number(result.parameters[0].value)));
        qInfo() << "decay: k from 0.5 to" << result.parameters[0].value << "in" << result.iterations
                << "iterations, K = 4";
    }
};

QTEST_APPLESS_MAIN(TestSteepestDescent)
#include "test_steepest_descent.moc"
