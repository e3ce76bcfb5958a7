// Optimal estimation (seed 001 ch. 2): the Hamiltonian system assembled from a model, the
// checks on the model, and the estimate on small problems with known answers.
#include "engine/estimate/OptimalEstimation.h"
#include "engine/estimate/OptimalEstimationHamiltonian.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"

#include <Eigen/Sparse>
#include <QtTest>

#include <cmath>
#include <mutex>
#include <random>

using namespace sysid;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

std::shared_ptr<const eval::CompiledModelSource> compiledHamiltonian(
    const std::string& text, const estimate::HamiltonianWeights& w, estimate::AugmentedLayout* layoutOut = nullptr,
    const std::map<std::string, double>& fixedValues = {})
{
    std::lock_guard lock(model::symbolicMutex());
    const model::Model m = model::parseModel(text);
    const auto layout = estimate::augmentedLayout(m, std::vector<bool>(m.outputs.size(), true));
    if (layoutOut)
        *layoutOut = layout;
    const model::Model h = estimate::hamiltonianModel(m, layout, w, fixedValues);
    return eval::compileModel(h);
}

double relative(double a, double b)
{
    return std::abs(a - b) / std::max(1.0, std::abs(b));
}

struct LqReference {
    VectorXd x, u;  // on the fine grid
    double cost = 0.0;
};

// The independent answer to the linear-quadratic case x' = -a x + u + xi, cost
// 1/2 Wa (x(0) - qa)^2 + 1/2 int W xi^2 + Vy (z - x)^2 + Vu (u_m - u)^2 dt: the same cost discretised on K
// fine intervals (box scheme for xi, trapezoidal rule for the measurement terms, both
// second order) and minimised through the sparse normal equations.
LqReference lqReference(double a, double W, double Vy, double Vu, double qa, double Wa, const data::Signal& z,
                        const data::Signal& um, double t0, double t1, int K)
{
    const double h = (t1 - t0) / K;
    const int n = 2 * (K + 1);
    std::vector<Eigen::Triplet<double>> entries;
    std::vector<double> rhs;
    int row = 0;
    for (int k = 0; k < K; ++k, ++row) {
        const double s = std::sqrt(W * h);
        entries.emplace_back(row, k, s * (-1.0 / h + a / 2));
        entries.emplace_back(row, k + 1, s * (1.0 / h + a / 2));
        entries.emplace_back(row, K + 1 + k, -s / 2);
        entries.emplace_back(row, K + 1 + k + 1, -s / 2);
        rhs.push_back(0.0);
    }
    for (int k = 0; k <= K; ++k) {
        const double t = t0 + k * h, w = (k == 0 || k == K) ? 0.5 : 1.0;
        entries.emplace_back(row++, k, std::sqrt(Vy * w * h));
        rhs.push_back(std::sqrt(Vy * w * h) * z.at(t));
        entries.emplace_back(row++, K + 1 + k, std::sqrt(Vu * w * h));
        rhs.push_back(std::sqrt(Vu * w * h) * um.at(t));
    }
    entries.emplace_back(row++, 0, std::sqrt(Wa));
    rhs.push_back(std::sqrt(Wa) * qa);
    Eigen::SparseMatrix<double> A(row, n);
    A.setFromTriplets(entries.begin(), entries.end());
    const VectorXd b = Eigen::Map<const VectorXd>(rhs.data(), row);
    const Eigen::SparseMatrix<double> normal = A.transpose() * A;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(normal);
    const VectorXd solution = ldlt.solve(A.transpose() * b);
    return {solution.head(K + 1), solution.tail(K + 1), 0.5 * (A * solution - b).squaredNorm()};
}

}  // namespace

class TestOptimalEstimation : public QObject {
    Q_OBJECT
private slots:
    // x' = -a x + c u, y = x: by hand p = u_m + c lambda / V_u,
    // x' = -a x + c p + lambda / W, lambda' = a lambda - V_y (z - x). The experiment's value of
    // the fixed parameter a replaces the model's.
    void firstOrderHamiltonianMatchesHandDerivation()
    {
        const double a = 0.7, c = 1.3, W = 2.5, Vy = 3.0, Vu = 0.4;
        const auto source = compiledHamiltonian("param a = 5 fixed\nparam c = 1.3 fixed\ninput u\nstate x = 0\n"
                                                "x' = -a*x + c*u\noutput x\n",
                                                {{W}, {Vy, Vu}}, nullptr, {{"a", a}});
        QCOMPARE(source->stateCount(), std::size_t(2));
        QCOMPARE(source->inputCount(), std::size_t(2));
        eval::CompiledModel h(source);
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> d(-3.0, 3.0);
        for (int trial = 0; trial < 20; ++trial) {
            const double t = d(rng), x = d(rng), lambda = d(rng), z = d(rng), um = d(rng);
            const double X[2] = {x, lambda}, U[2] = {z, um};
            h.setPoint(t, X, U);
            double f[2];
            h.rhs(f);
            const double p = um + c * lambda / Vu;
            QVERIFY(relative(f[0], -a * x + c * p + lambda / W) < 1e-12);
            QVERIFY(relative(f[1], a * lambda - Vy * (z - x)) < 1e-12);
        }
    }

    // x'' = -k x - b x' + u, y = x, fixed k, b: X = [x, v], p = [u, a], residuals
    // eps = [z - x, u_m - u, a + k x + b v - u]; by hand F'VF p = B'lambda + F'V(z - h0) and
    // lambda_x' = -(V_y eps_1 - k V_e eps_3), lambda_v' = -lambda_x + b V_e eps_3.
    void secondOrderHamiltonianMatchesHandDerivation()
    {
        const double k = 2.0, b = 0.3, Wx = 1.5, Wv = 0.8, Vy = 2.0, Vu = 0.5, Ve = 1.7;
        estimate::AugmentedLayout layout;
        const auto source = compiledHamiltonian("param k = 2 fixed\nparam b = 0.3 fixed\ninput u\n"
                                                "x'' = -k*x - b*x' + u\nx(0) = 0, 0\noutput x\n",
                                                {{Wx, Wv}, {Vy, Vu, Ve}}, &layout);
        QCOMPARE(layout.unknownInputNames, (std::vector<std::string>{"u", "x''"}));
        QCOMPARE(layout.residualNames, (std::vector<std::string>{"x", "u", "eom:x"}));
        eval::CompiledModel h(source);
        std::mt19937_64 rng(11);
        std::uniform_real_distribution<double> d(-2.0, 2.0);
        for (int trial = 0; trial < 20; ++trial) {
            const double t = d(rng), x = d(rng), v = d(rng), lx = d(rng), lv = d(rng), z = d(rng), um = d(rng);
            const double X[4] = {x, v, lx, lv}, U[2] = {z, um};
            h.setPoint(t, X, U);
            double f[4];
            h.rhs(f);
            Eigen::Matrix2d M;
            M << Vu + Ve, -Ve, -Ve, Ve;
            const Eigen::Vector2d rhs(Vu * um + Ve * (k * x + b * v), lv - Ve * (k * x + b * v));
            const Eigen::Vector2d p = M.lu().solve(rhs);
            const double e1 = z - x, e3 = p(1) + k * x + b * v - p(0);
            QVERIFY(relative(f[0], v + lx / Wx) < 1e-12);
            QVERIFY(relative(f[1], p(1) + lv / Wv) < 1e-12);
            QVERIFY(relative(f[2], -(Vy * e1 - k * Ve * e3)) < 1e-12);
            QVERIFY(relative(f[3], -lx + b * Ve * e3) < 1e-12);
            // The outputs give the eliminated quantities: p, xi = lambda / W, eps.
            double y[7];
            h.outputs(y);
            QVERIFY(relative(y[0], p(0)) < 1e-12);
            QVERIFY(relative(y[1], p(1)) < 1e-12);
            QVERIFY(relative(y[2], lx / Wx) < 1e-12);
            QVERIFY(relative(y[3], lv / Wv) < 1e-12);
            QVERIFY(relative(y[4], e1) < 1e-12);
            QVERIFY(relative(y[5], um - p(0)) < 1e-12);
            QVERIFY(relative(y[6], e3) < 1e-12);
        }
    }

    // With an estimated parameter the Jacobian of the Hamiltonian system (from the compiler)
    // must match central differences of its right-hand side.
    void jacobianMatchesFiniteDifferences()
    {
        const auto source = compiledHamiltonian("param m = 2\nparam b = 0.5\nparam k = 3\ninput u\n"
                                                "s'' = (u - b*s' - k*s)/m\ns(0) = 0, 0\noutput s\n",
                                                {{1, 1, 1, 1, 1}, {1, 1, 1}});
        eval::CompiledModel h(source);
        const std::size_t n = h.stateCount();
        QCOMPARE(n, std::size_t(10));
        std::mt19937_64 rng(3);
        std::uniform_real_distribution<double> d(0.5, 2.0);
        VectorXd x(static_cast<Eigen::Index>(n));
        for (auto& v : x)
            v = d(rng);
        const double U[2] = {0.3, -0.4};
        h.setPoint(0.1, x.data(), U);
        MatrixXd J(n, n);
        h.stateJacobian(J.data());
        for (std::size_t j = 0; j < n; ++j) {
            VectorXd xp = x, xm = x, fp(n), fm(n);
            const double step = 1e-6;
            xp(static_cast<Eigen::Index>(j)) += step;
            xm(static_cast<Eigen::Index>(j)) -= step;
            h.setPoint(0.1, xp.data(), U);
            h.rhs(fp.data());
            h.setPoint(0.1, xm.data(), U);
            h.rhs(fm.data());
            const VectorXd fd = (fp - fm) / (2 * step);
            QVERIFY2((fd - J.col(static_cast<Eigen::Index>(j))).norm() < 1e-6 * (1 + fd.norm()),
                     qPrintable(QString("column %1").arg(j)));
        }
    }

    // A linear model with fixed parameters: optimal estimation is a linear smoother, so the
    // multiple shooting solution must match the fine-grid least-squares solution of the same cost.
    void linearQuadraticCaseMatchesFineGridLeastSquares_data()
    {
        QTest::addColumn<double>("qa");
        QTest::addColumn<double>("Wa");
        QTest::newRow("no prior on x(a)") << 0.0 << 0.0;
        QTest::newRow("prior x(a) = 0.5, W_a = 3") << 0.5 << 3.0;
    }

    void linearQuadraticCaseMatchesFineGridLeastSquares()
    {
        QFETCH(double, qa);
        QFETCH(double, Wa);
        const double a = 1.0, W = 2.0, Vy = 5.0, Vu = 1.0;
        model::Model m;
        {
            std::lock_guard lock(model::symbolicMutex());
            m = model::parseModel("param a = 1 fixed\ninput u\nstate x = 0\nx' = -a*x + u\noutput x\n");
        }
        estimate::Experiment e;
        e.name = "lq";
        e.times = integrate::uniformGrid(0.0, 5.0, 0.01);
        const auto samples = static_cast<Eigen::Index>(e.times.size());
        e.measured.resize(samples, 1);
        std::vector<double> zv, uv;
        for (double t : e.times) {
            zv.push_back(std::sin(2 * t) + 0.3 * std::cos(5 * t));  // not a model trajectory: residuals stay
            uv.push_back(std::cos(t));
        }
        e.measured.col(0) = Eigen::Map<const VectorXd>(zv.data(), samples);
        e.outputMeasured = {true};
        e.inputs = integrate::InputSignals({data::Signal(e.times, uv)});
        estimate::OptimalEstimationSettings settings;
        settings.stateWeights = {{"x", W}};
        settings.measurementWeights = {{"x", Vy}, {"u", Vu}};
        settings.shootingPoints = 51;
        if (Wa > 0)
            settings.initialPrior = {{"x", {qa, Wa}}};
        const auto r = estimate::estimateOptimally(m, e, settings, [](const shooting::BvpIteration& it) {
            if (qEnvironmentVariableIsSet("SYSID_TRACE"))
                qInfo("stage %zu iteration %zu |F| %.3e damping %.3g", it.stage, it.newton.iteration,
                      it.newton.residualNorm, it.newton.damping);
        });
        QVERIFY2(r.converged(), r.termination.message.c_str());
        const int fine = 20;
        const auto ref = lqReference(a, W, Vy, Vu, qa, Wa, data::Signal(e.times, zv), data::Signal(e.times, uv), 0.0,
                                     5.0, fine * static_cast<int>(samples - 1));
        // The fine grid's closure at the two ends is only first order in u, so u is compared
        // inside; at the ends u = u_m + lambda / Vu with lambda(a) = W_a (x(a) - q_a), lambda(b) = 0.
        double worstX = 0, worstU = 0;
        for (Eigen::Index k = 0; k < samples; ++k) {
            worstX = std::max(worstX, std::abs(r.states(k, 0) - ref.x(fine * k)));
            if (k > 0 && k + 1 < samples)
                worstU = std::max(worstU, std::abs(r.inputs(k, 0) - ref.u(fine * k)));
        }
        QVERIFY(std::abs(r.inputs(0, 0) - (uv.front() + Wa * (r.states(0, 0) - qa) / Vu)) < 1e-7);
        QVERIFY(std::abs(r.inputs(samples - 1, 0) - uv.back()) < 1e-7);
        qInfo("LQ smoother vs fine-grid least squares: max |dx| = %.2e, max |du| = %.2e, J = %.6g vs %.6g, "
              "%zu Newton iterations",
              worstX, worstU, r.cost, ref.cost, r.iterations);
        // J of the result is integrated by the trapezoidal rule on the 0.01 data grid: O(1e-4).
        QVERIFY(std::abs(r.cost - ref.cost) < 1e-3 * ref.cost);
        QVERIFY(worstX < 1e-6);
        QVERIFY(worstU < 1e-6);
        // The residuals are those of the model: xi = x' + a x - u and eps = z - x.
        for (Eigen::Index k = 1; k + 1 < samples; k += 37) {
            QVERIFY(std::abs(r.residuals(k, 1) - (zv[static_cast<std::size_t>(k)] - r.states(k, 0))) < 1e-9);
            QVERIFY(std::abs(r.residuals(k, 2) - (uv[static_cast<std::size_t>(k)] - r.inputs(k, 0))) < 1e-9);
        }
        {
            std::lock_guard lock(model::symbolicMutex());
            m = {};
        }
    }

    // No inputs and no coordinates (p is empty): x' = -a x with a estimated from exact data
    // x = 2 exp(-1.5 t) must give a = 1.5 with no drift.
    void decayRateWithoutInputs()
    {
        model::Model m;
        {
            std::lock_guard lock(model::symbolicMutex());
            m = model::parseModel("param a = 1 [0, 10]\nstate x = 2\nx' = -a*x\noutput x\n");
        }
        estimate::Experiment e;
        e.times = integrate::uniformGrid(0.0, 2.0, 0.01);
        e.measured.resize(static_cast<Eigen::Index>(e.times.size()), 1);
        for (std::size_t k = 0; k < e.times.size(); ++k)
            e.measured(static_cast<Eigen::Index>(k), 0) = 2.0 * std::exp(-1.5 * e.times[k]);
        e.outputMeasured = {true};
        const auto r = estimate::estimateOptimally(m, e, {});
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QCOMPARE(r.parameterNames, (std::vector<std::string>{"a"}));
        qInfo("decay rate: a = %.8f (drift %.1e), %zu iterations", r.parameters(0), r.parameterDrift(0), r.iterations);
        QVERIFY(std::abs(r.parameters(0) - 1.5) < 1e-6);
        QVERIFY(r.parameterDrift(0) < 1e-4);
        QCOMPARE(r.inputs.cols(), Eigen::Index(0));
        std::lock_guard lock(model::symbolicMutex());
        m = {};
    }

    void badSettingsAreRejectedByName()
    {
        model::Model m;
        {
            std::lock_guard lock(model::symbolicMutex());
            m = model::parseModel("param a = 1\ninput u\nstate x = 0\nx' = -a*x + u\noutput x\n");
        }
        estimate::Experiment e;
        e.times = {0, 1, 2, 3};
        e.measured = MatrixXd::Zero(4, 1);
        e.outputMeasured = {true};
        e.inputs = integrate::InputSignals({data::Signal(e.times, {0, 0, 0, 0})});
        estimate::OptimalEstimationSettings s;
        s.stateWeights = {{"y", 1.0}};
        try {
            estimate::estimateOptimally(m, e, s);
            QFAIL("an unknown state weight was accepted");
        } catch (const estimate::OptimalEstimationError& error) {
            QVERIFY2(QString(error.what()).contains("'y'"), error.what());
        }
        s.stateWeights = {{"a", 0.0}};
        try {
            estimate::estimateOptimally(m, e, s);
            QFAIL("a zero W was accepted");
        } catch (const estimate::OptimalEstimationError& error) {
            QVERIFY2(QString(error.what()).contains("W of a"), error.what());
        }
        s.stateWeights.clear();
        e.inputs = {};
        try {
            estimate::estimateOptimally(m, e, s);
            QFAIL("a missing input signal was accepted");
        } catch (const estimate::OptimalEstimationError& error) {
            QVERIFY2(QString(error.what()).contains("input"), error.what());
        }
        std::lock_guard lock(model::symbolicMutex());
        m = {};
    }

    void nonlinearInputIsRejectedNamingTheEquation()
    {
        try {
            compiledHamiltonian("param k = 1\ninput u\nx'' = -k*x + u^2\nx(0) = 0, 0\noutput x\n",
                                {{1, 1, 1}, {1, 1, 1}});
            QFAIL("a model nonlinear in u was accepted");
        } catch (const estimate::OptimalEstimationError& e) {
            const QString message = e.what();
            QVERIFY2(message.contains("x''") && message.contains("input u"), e.what());
        }
    }

    // The Hamiltonian system has no jump conditions for the costates: a model with a reset is
    // refused by name, never estimated as if it had none.
    void stateResetIsRejectedNamingTheEvent()
    {
        try {
            compiledHamiltonian("param e = 0.8\nx'' = -1\nx(0) = 1, 0\nwhen x < 0 : x' = -e*x'\noutput x\n",
                                {{1, 1, 1}, {1}});
            QFAIL("a model with a state reset was accepted");
        } catch (const estimate::OptimalEstimationError& e) {
            const QString message = e.what();
            QVERIFY2(message.contains("'when x < 0' on line 4") && message.contains("output error"), e.what());
        }
    }

    void experimentMayFixOnlyFixedParameters()
    {
        try {
            compiledHamiltonian("param a = 1\ninput u\nstate x = 0\nx' = -a*x + u\noutput x\n", {{1, 1}, {1, 1}},
                                nullptr, {{"a", 2.0}});
            QFAIL("an experiment value for an estimated parameter was accepted");
        } catch (const estimate::OptimalEstimationError& e) {
            QVERIFY2(QString(e.what()).contains("'a'"), e.what());
        }
    }

    void unweightedInputMakesFtVFSingular()
    {
        try {
            compiledHamiltonian("param a = 1 fixed\ninput u\nstate x = 0\nx' = -a*x + u\noutput x\n", {{1}, {1, 0}});
            QFAIL("a singular F'VF was accepted");
        } catch (const estimate::OptimalEstimationError& e) {
            QVERIFY2(QString(e.what()).contains("singular"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestOptimalEstimation)
#include "test_optimal_estimation.moc"
