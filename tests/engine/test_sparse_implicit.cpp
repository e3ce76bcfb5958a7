// The sparse linearly implicit integrator ("sparse-implicit", ROS34PW2 with a sparse LU shared
// by the sensitivities): states and sensitivities against rosenbrock4 on small stiff problems,
// the semi-discrete heat equation against its exact solution, dx/dalpha per node against
// central differences, and failures reported as IntegrationError with the time.

#include "IntegrationTestSupport.h"

#include "engine/integrate/IntegrationError.h"

#include <QtTest>

#include <Eigen/SparseCore>

#include <cmath>
#include <string>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

const char* robertson = R"(
param k1 = 0.04
param k2 = 3e7
param k3 = 1e4
state y1 = 1
state y2 = 0
state y3 = 0
y1' = -k1*y1 + k3*y2*y3
y2' = k1*y1 - k3*y2*y3 - k2*y2^2
y3' = k2*y2^2
output y1
)";

std::string rod(int nodes, double alpha)
{
    return "field s on x in [0, 1] nodes " + std::to_string(nodes) + "\nparam alpha(x) = " + std::to_string(alpha) +
        " [0.001, 1]\ns_t = alpha(x) * s_xx\ns(0, t) = 0 ; s(1, t) = 0\ns(x, 0) = sin(pi*x) + 0.5*sin(3*pi*x)\noutput "
        "s\n";
}

integrate::Trajectory run(eval::CompiledModel& m, const std::vector<double>& times, IntegrationMethod method,
                          double rtol, double atol, bool initialColumns = true)
{
    integrate::SimulationRequest request;
    request.times = times;
    for (std::size_t p = 0; p < m.parameterCount(); ++p)
        request.sensitivityParameters.push_back(p);
    request.initialStateSensitivity = initialColumns;
    return integrate::simulate(m, request, test::tight(method, rtol, atol));
}

// Largest |a - b| / (scale + |b|) over all samples of two matrices lists.
double relativeDifference(const std::vector<Eigen::MatrixXd>& a, const std::vector<Eigen::MatrixXd>& b, double scale)
{
    double worst = 0;
    for (std::size_t k = 0; k < a.size(); ++k)
        worst = std::max(worst, ((a[k] - b[k]).array().abs() / (scale + b[k].array().abs())).maxCoeff());
    return worst;
}

// Reaction-diffusion on a 4 x 4 grid, u' = a (5-point Laplacian) u + 0.1 b u^2: its LU has a
// supernode of several columns with rows below it, the sparse LU's dense-block path.
std::string grid()
{
    const int m = 4;
    auto name = [](int i, int j) { return "u" + std::to_string(i * 4 + j + 1); };
    std::string text = "param a = 1\nparam b = 0.3\n";
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j)
            text += "state " + name(i, j) + " = " + std::to_string(0.1 * ((i + 1) * (j + 2) % 5)) + "\n";
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            text += name(i, j) + "' = -4*a*" + name(i, j);
            const int di[] = {1, -1, 0, 0}, dj[] = {0, 0, 1, -1};
            for (int d = 0; d < 4; ++d)
                if (i + di[d] >= 0 && i + di[d] < m && j + dj[d] >= 0 && j + dj[d] < m)
                    text += " + a*" + name(i + di[d], j + dj[d]);
            text += " + 0.1*b*" + name(i, j) + "^2\n";
        }
    return text;
}

double relativeDifference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double scale)
{
    return ((a - b).array().abs() / (scale + b.array().abs())).maxCoeff();
}

}  // namespace

class TestSparseImplicit : public QObject {
    Q_OBJECT

private slots:
    void namesAndSettings()
    {
        QCOMPARE(integrate::parseIntegrationMethod("sparse-implicit"),
                 std::optional(IntegrationMethod::SparseImplicit));
        QCOMPARE(integrate::methodName(IntegrationMethod::SparseImplicit), std::string("sparse-implicit"));
        QVERIFY(integrate::isAdaptive(IntegrationMethod::SparseImplicit));
    }

    // Robertson's stiff chemistry (Hairer & Wanner II, sec. IV.1): eigenvalues down to -1e4.
    void robertsonAgainstRosenbrock4()
    {
        auto m = test::compiled(robertson);
        const auto times = integrate::uniformGrid(0, 40, 0.5);
        const auto reference = run(*m, times, IntegrationMethod::Rosenbrock4, 1e-11, 1e-14);
        const auto sparse = run(*m, times, IntegrationMethod::SparseImplicit, 1e-8, 1e-12);
        const double states = relativeDifference(sparse.states, reference.states, 1e-10);
        const double dp =
            relativeDifference(sparse.stateParameterSensitivity, reference.stateParameterSensitivity, 1e-6);
        const double dx0 = relativeDifference(sparse.stateInitialSensitivity, reference.stateInitialSensitivity, 1e-6);
        qInfo("Robertson: %zu steps (rosenbrock4 %zu); relative differences states %.2e, dx/dp %.2e, dx/dx0 %.2e",
              sparse.statistics.steps, reference.statistics.steps, states, dp, dx0);
        // Samples between step ends come from a cubic Hermite interpolant, which is not error
        // controlled: here it costs two orders of magnitude against the step ends' 7e-9 (states)
        // and 4e-5 (sensitivities) measured when every sample was a step end.
        QVERIFY(states < 1e-5);
        QVERIFY(dp < 5e-3);
        QVERIFY(dx0 < 1e-2);
        QVERIFY(sparse.statistics.steps < 2000);
    }

    void heatRodAgainstRosenbrock4()
    {
        auto m = test::compiled(rod(5, 0.2));
        const auto times = integrate::uniformGrid(0, 2, 0.05);
        const auto reference = run(*m, times, IntegrationMethod::Rosenbrock4, 1e-11, 1e-14);
        const auto sparse = run(*m, times, IntegrationMethod::SparseImplicit, 1e-8, 1e-12);
        const double states = relativeDifference(sparse.states, reference.states, 1e-6);
        const double dp =
            relativeDifference(sparse.stateParameterSensitivity, reference.stateParameterSensitivity, 1e-4);
        const double dx0 = relativeDifference(sparse.stateInitialSensitivity, reference.stateInitialSensitivity, 1e-4);
        const double dy =
            relativeDifference(sparse.outputParameterSensitivity, reference.outputParameterSensitivity, 1e-4);
        qInfo("5-node rod: relative differences states %.2e, dx/dalpha %.2e, dx/dx0 %.2e, dy/dalpha %.2e", states, dp,
              dx0, dy);
        QVERIFY(states < 1e-6);
        QVERIFY(dp < 1e-5);
        QVERIFY(dx0 < 1e-5);
        QVERIFY(dy < 1e-5);
    }

    void gridAgainstRosenbrock4()
    {
        auto m = test::compiled(grid());
        const auto times = integrate::uniformGrid(0, 2, 0.05);
        const auto reference = run(*m, times, IntegrationMethod::Rosenbrock4, 1e-11, 1e-14);
        const auto sparse = run(*m, times, IntegrationMethod::SparseImplicit, 1e-8, 1e-12);
        const double states = relativeDifference(sparse.states, reference.states, 1e-6);
        const double dp =
            relativeDifference(sparse.stateParameterSensitivity, reference.stateParameterSensitivity, 1e-4);
        const double dx0 = relativeDifference(sparse.stateInitialSensitivity, reference.stateInitialSensitivity, 1e-4);
        qInfo("4 x 4 grid: %zu steps; relative differences states %.2e, dx/dp %.2e, dx/dx0 %.2e", sparse.statistics.steps, states,
              dp, dx0);
        QVERIFY(states < 1e-6);
        QVERIFY(dp < 1e-5);
        QVERIFY(dx0 < 1e-5);
    }

    // The semi-discrete heat equation s_i' = a (s_{i-1} - 2 s_i + s_{i+1}) / dx^2 with
    // s(x, 0) = sin(k pi x) has the exact solution sin(k pi x_i) exp(-a mu_k t), mu_k =
    // (2 - 2 cos(k pi dx)) / dx^2, and d/da of it is -mu_k t times that.
    void heatEquationExact()
    {
        const int nodes = 60;
        const double a = 0.3, dx = 1.0 / (nodes + 1);
        const std::string text = "field s on x in [0, 1] nodes " + std::to_string(nodes) +
            "\nparam a = 0.3\ns_t = a * s_xx\ns(0, t) = 0 ; s(1, t) = 0\n"
            "s(x, 0) = sin(pi*x) + 0.5*sin(3*pi*x)\noutput s\n";
        auto m = test::compiled(text);
        const auto times = integrate::uniformGrid(0, 1, 0.01);
        integrate::SimulationRequest request;
        request.times = times;
        request.sensitivityParameters = {0};
        const auto r = integrate::simulate(*m, request, test::tight(IntegrationMethod::SparseImplicit, 1e-9, 1e-12));
        const double mu1 = (2 - 2 * std::cos(M_PI * dx)) / (dx * dx),
                     mu3 = (2 - 2 * std::cos(3 * M_PI * dx)) / (dx * dx);
        double stateError = 0, sensitivityError = 0, pdeError = 0;
        for (std::size_t k = 0; k < times.size(); ++k) {
            const double t = times[k];
            for (int i = 0; i < nodes; ++i) {
                const double x = (i + 1) * dx;
                const double e1 = std::sin(M_PI * x) * std::exp(-a * mu1 * t);
                const double e3 = 0.5 * std::sin(3 * M_PI * x) * std::exp(-a * mu3 * t);
                stateError = std::max(stateError, std::abs(r.states(static_cast<Eigen::Index>(k), i) - e1 - e3));
                sensitivityError = std::max(
                    sensitivityError, std::abs(r.stateParameterSensitivity[k](i, 0) + mu1 * t * e1 + mu3 * t * e3));
                const double pde = std::sin(M_PI * x) * std::exp(-a * M_PI * M_PI * t) +
                    0.5 * std::sin(3 * M_PI * x) * std::exp(-9 * a * M_PI * M_PI * t);
                pdeError = std::max(pdeError, std::abs(r.states(static_cast<Eigen::Index>(k), i) - pde));
            }
        }
        qInfo("heat equation, 60 nodes: max error against the semi-discrete solution %.2e, of ds/da %.2e; against the "
              "PDE %.2e (O(dx^2)); %zu steps",
              stateError, sensitivityError, pdeError, r.statistics.steps);
        QVERIFY(stateError < 1e-7);
        QVERIFY(sensitivityError < 1e-6);
        QVERIFY(pdeError < 5e-3);  // 0.5 * 9 pi^2 dx^2 / 12 * (9 pi^2 a t e^{-9 pi^2 a t}) bound, about 2e-3
    }

    // ds_i/dalpha_j per node against central differences of the states (step 1e-5 on alpha ~ 0.2).
    void perNodeSensitivityAgainstCentralDifferences()
    {
        const int nodes = 20;
        auto m = test::compiled(rod(nodes, 0.2));
        std::vector<double> p(m->parameters().begin(), m->parameters().end());
        for (std::size_t j = 0; j < p.size(); ++j)
            p[j] = 0.1 + 0.01 * static_cast<double>(j);
        m->setParameters(p);
        const auto times = integrate::uniformGrid(0, 0.5, 0.05);
        const auto r = run(*m, times, IntegrationMethod::SparseImplicit, 1e-10, 1e-13, false);
        double worst = 0, largest = 0;
        const double delta = 1e-5;
        for (std::size_t j = 0; j < p.size(); j += 3) {
            auto shifted = p;
            shifted[j] = p[j] + delta;
            m->setParameters(shifted);
            const auto up = run(*m, times, IntegrationMethod::SparseImplicit, 1e-12, 1e-15, false);
            shifted[j] = p[j] - delta;
            m->setParameters(shifted);
            const auto down = run(*m, times, IntegrationMethod::SparseImplicit, 1e-12, 1e-15, false);
            for (std::size_t k = 0; k < times.size(); ++k) {
                const Eigen::VectorXd fd =
                    (up.states.row(static_cast<Eigen::Index>(k)) - down.states.row(static_cast<Eigen::Index>(k)))
                        .transpose() /
                    (2 * delta);
                const Eigen::VectorXd an = r.stateParameterSensitivity[k].col(static_cast<Eigen::Index>(j));
                worst = std::max(worst, (fd - an).cwiseAbs().maxCoeff());
                largest = std::max(largest, an.cwiseAbs().maxCoeff());
            }
        }
        m->setParameters(p);
        qInfo("20-node rod: max |ds/dalpha - central difference| = %.2e (largest sensitivity %.2e)", worst, largest);
        QVERIFY(largest > 0.1);
        QVERIFY(worst < 1e-5 * largest);
    }

    // From 64 states on the recorder forms dy/dx S as a sparse product; `output s` is the identity
    // map, so dy/dalpha must equal ds/dalpha.
    void outputSensitivitiesOfALargeField()
    {
        auto m = test::compiled(rod(70, 0.2));
        QCOMPARE(m->outputCount(), std::size_t(70));
        const auto r = run(*m, integrate::uniformGrid(0, 0.2, 0.05), IntegrationMethod::SparseImplicit, 1e-6, 1e-9);
        double worst = 0, largest = 0;
        for (std::size_t k = 0; k < r.times.size(); ++k) {
            worst = std::max(worst,
                             (r.outputParameterSensitivity[k] - r.stateParameterSensitivity[k]).cwiseAbs().maxCoeff());
            worst =
                std::max(worst, (r.outputInitialSensitivity[k] - r.stateInitialSensitivity[k]).cwiseAbs().maxCoeff());
            largest = std::max(largest, r.stateParameterSensitivity[k].cwiseAbs().maxCoeff());
        }
        QVERIFY(largest > 0.01);
        QCOMPARE(worst, 0.0);

        // Without the states' sensitivities recorded, the outputs' are the same numbers.
        integrate::SimulationRequest request;
        request.times = integrate::uniformGrid(0, 0.2, 0.05);
        for (std::size_t p = 0; p < m->parameterCount(); ++p)
            request.sensitivityParameters.push_back(p);
        request.initialStateSensitivity = true;
        request.recordStateSensitivity = false;
        const auto lean = integrate::simulate(*m, request, test::tight(IntegrationMethod::SparseImplicit, 1e-6, 1e-9));
        QVERIFY(lean.stateParameterSensitivity.empty());
        QVERIFY(lean.stateInitialSensitivity.empty());
        QCOMPARE(lean.outputParameterSensitivity.size(), r.times.size());
        QCOMPARE(lean.outputInitialSensitivity.size(), r.times.size());
        for (std::size_t k = 0; k < r.times.size(); ++k) {
            QVERIFY(lean.outputParameterSensitivity[k] == r.outputParameterSensitivity[k]);
            QVERIFY(lean.outputInitialSensitivity[k] == r.outputInitialSensitivity[k]);
        }
    }

    // From 64 states on the recorder sums dy/dx S over the nonzero entries of dy/dx: the same
    // bits as the dense product it replaced (dy/dx zeroed, filled, converted to a sparse matrix,
    // multiplied, then dy/dp added), for outputs that mix states, interpolate between nodes and
    // depend on parameters, and for one state per output (its own loop), with and without a sink.
    void sparseOutputJacobiansMatchTheDenseProduct_data()
    {
        QTest::addColumn<QString>("outputs");
        QTest::addColumn<int>("count");
        QTest::newRow("mixed") << "output s\noutput s(0.4)\noutput g = k*q^2\noutput h = k^2 + q\n" << 73;
        QTest::newRow("one state each") << "output s\noutput w = k*q\n" << 71;
    }

    void sparseOutputJacobiansMatchTheDenseProduct()
    {
        QFETCH(QString, outputs);
        QFETCH(int, count);
        auto m = test::compiled("field s on x in [0, 1] nodes 70\nparam alpha(x) = 0.2 [0.001, 1]\nparam k = 2\n"
                                "s_t = alpha(x) * s_xx\ns(0, t) = 0 ; s(1, t) = 0\n"
                                "s(x, 0) = sin(pi*x) + 0.5*sin(3*pi*x)\nstate q = 1\nq' = -k*q\n" +
                                outputs.toStdString());
        const std::size_t n = m->stateCount(), ny = m->outputCount(), np = m->parameterCount();
        QCOMPARE(n, std::size_t(71));
        QCOMPARE(ny, static_cast<std::size_t>(count));
        integrate::SimulationRequest request;
        request.times = integrate::uniformGrid(0, 0.2, 0.05);
        // Not every parameter (k, the last, among them), and not in order: columns map to parameters
        // through the request.
        for (std::size_t p = np; p-- > 0;)
            if (p % 3 != 2)
                request.sensitivityParameters.push_back(p);
        request.initialStateSensitivity = true;
        const auto settings = test::tight(IntegrationMethod::SparseImplicit, 1e-6, 1e-9);
        const auto r = integrate::simulate(*m, request, settings);
        std::vector<Eigen::MatrixXd> streamed(request.times.size());
        auto lean = request;
        lean.initialStateSensitivity = false;
        lean.recordStateSensitivity = false;
        lean.outputSensitivitySink = [&](std::size_t k, const double*, const Eigen::MatrixXd& dy) { streamed[k] = dy; };
        integrate::simulate(*m, lean, settings);

        const auto columns = static_cast<Eigen::Index>(request.sensitivityParameters.size());
        Eigen::MatrixXd gx(ny, n), gp(ny, np);
        double largest = 0;
        for (std::size_t k = 0; k < request.times.size(); ++k) {
            const Eigen::VectorXd x = r.states.row(static_cast<Eigen::Index>(k)).transpose();
            m->setPoint(request.times[k], x.data(), nullptr);
            m->outputStateJacobian(gx.data());
            m->outputParameterJacobian(gp.data());
            const Eigen::SparseMatrix<double> sparse = gx.sparseView();
            Eigen::MatrixXd dy = sparse * r.stateParameterSensitivity[k];
            for (Eigen::Index l = 0; l < columns; ++l)
                dy.col(l) += gp.col(static_cast<Eigen::Index>(request.sensitivityParameters[static_cast<std::size_t>(l)]));
            const Eigen::MatrixXd dy0 = sparse * r.stateInitialSensitivity[k];
            QVERIFY(r.outputParameterSensitivity[k] == dy);
            QVERIFY(r.outputInitialSensitivity[k] == dy0);
            QVERIFY(streamed[k] == dy);
            largest = std::max(largest, dy.bottomRows(1).cwiseAbs().maxCoeff());
        }
        QVERIFY(largest > 0.1);  // the last output depends on k
    }

    // A time-dependent stiff problem: y' = -k (y - cos t) - sin t has y = cos t + e^{-k t}; with
    // k = 1e6 an explicit method would need over a million steps.
    void nonAutonomousExact()
    {
        auto m = test::compiled("param k = 1e6\nstate y = 2\ny' = -k*(y - cos(t)) - sin(t)\noutput y\n");
        const auto times = integrate::uniformGrid(0, 3, 0.1);
        integrate::SimulationRequest request;
        request.times = times;
        const auto r = integrate::simulate(*m, request, test::tight(IntegrationMethod::SparseImplicit, 1e-9, 1e-12));
        double worst = 0;
        for (std::size_t k = 0; k < times.size(); ++k)
            worst = std::max(
                worst,
                std::abs(r.states(static_cast<Eigen::Index>(k), 0) - std::cos(times[k]) - std::exp(-1e6 * times[k])));
        qInfo("y' = -1e6 (y - cos t) - sin t: max error %.2e in %zu steps", worst, r.statistics.steps);
        QVERIFY(worst < 1e-7);
        QVERIFY(r.statistics.steps < 5000);
    }

    void blowUpIsReportedWithItsTime()
    {
        auto m = test::compiled("state y = 1\ny' = y^2\noutput y\n");
        integrate::SimulationRequest request;
        request.times = {0, 0.5, 2};
        try {
            integrate::simulate(*m, request, test::tight(IntegrationMethod::SparseImplicit, 1e-8, 1e-10));
            QFAIL("the blow-up at t = 1 was not reported");
        } catch (const integrate::IntegrationError& e) {
            qInfo("%s", e.what());
            QVERIFY(e.timeReached() > 0.9 && e.timeReached() < 1.01);
            QVERIFY(std::string(e.what()).find("t = ") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestSparseImplicit)
#include "test_sparse_implicit.moc"
