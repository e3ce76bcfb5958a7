// The estimators on problems with known answers.
#include "EstimateTestSupport.h"

#include "engine/estimate/NormalMatrix.h"

#include <QtTest>

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace sysid;
using estimate::EstimationMethod;

namespace {

const char* oscillator = "param c = 0.1 [0, 10]\nparam k = 2 [0.1, 100]\nx'' = -c*x' - k*x\nx(0) = 1, 0\n";

std::shared_ptr<const eval::CompiledModelSource> source(const char* text)
{
    return eval::compileModel(model::parseModel(text));
}

estimate::FitSettings settingsFor(EstimationMethod method)
{
    estimate::FitSettings s;
    s.method = method;
    s.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-10, 1e-12);
    return s;
}

const estimate::ParameterEstimate& find(const estimate::FitResult& r, const std::string& name)
{
    for (const auto& p : r.parameters)
        if (p.name == name)
            return p;
    throw std::invalid_argument(name);
}

}  // namespace

class TestEstimate : public QObject {
    Q_OBJECT

private slots:
    // The SYRK normal matrix against the general product J'J (an independent route).
    void normalMatrixMatchesGeneralProduct()
    {
        std::srand(3);
        const Eigen::MatrixXd J = Eigen::MatrixXd::Random(1003, 37);
        const Eigen::MatrixXd reference = J.transpose() * J;
        const Eigen::MatrixXd A = estimate::normalMatrix(J);
        QCOMPARE(A.rows(), Eigen::Index(37));
        QCOMPARE(A.cols(), Eigen::Index(37));
        QVERIFY((A - reference).cwiseAbs().maxCoeff() < 1e-13 * reference.cwiseAbs().maxCoeff());
        QVERIFY(A == A.transpose());
        QCOMPARE(estimate::normalMatrix(Eigen::MatrixXd(0, 3)), Eigen::MatrixXd(Eigen::MatrixXd::Zero(3, 3)));
    }

    void recoversExactParameters_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("output error") << int(EstimationMethod::OutputError);
        QTest::newRow("multiple shooting") << int(EstimationMethod::MultipleShooting);
    }

    void recoversExactParameters()
    {
        QFETCH(int, method);
        const auto src = source(oscillator);
        const auto data = test::simulatedExperiment(src, {0.4, 4.0}, integrate::uniformGrid(0, 10, 0.05));
        const auto r = estimate::fit(src, {0.1, 2.0}, {data}, settingsFor(EstimationMethod(method)));
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY(test::relativeError(find(r, "c").value, 0.4) < 1e-6);
        QVERIFY(test::relativeError(find(r, "k").value, 4.0) < 1e-6);
        QVERIFY(r.iterations < 30);
        QCOMPARE(r.history.front().iteration, std::size_t(0));
        QCOMPARE(r.history.front().parameters[0], 0.1);
        QVERIFY(r.history.back().cost <= r.history.front().cost);
    }

    void estimatesInitialValuesPerExperiment()
    {
        const auto src = source("param c = 0.3\nparam k = 3\nx'' = -c*x' - k*x\nx(0) = 0.5 estimate, 0\n");
        auto a = test::simulatedExperiment(src, {0.4, 4.0, 1.0}, integrate::uniformGrid(0, 6, 0.05));
        auto b = test::simulatedExperiment(src, {0.4, 4.0, -2.0}, integrate::uniformGrid(0, 6, 0.05));
        a.name = "a";
        b.name = "b";
        const auto r = estimate::fit(src, {0.3, 3.0, 0.5}, {a, b}, settingsFor(EstimationMethod::OutputError));
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QCOMPARE(r.parameters.size(), std::size_t(4));
        QVERIFY(test::relativeError(find(r, "x(0)").value, 1.0) < 1e-6);
        QVERIFY(test::relativeError(find(r, "x(0)#2").value, -2.0) < 1e-6);
        QVERIFY(test::relativeError(find(r, "k").value, 4.0) < 1e-6);
    }

    void experimentsWithTheirOwnKnownInitialState()
    {
        const auto src = source("param c = 0.3\nparam k = 3\nparam x0 = 1 fixed\nx'' = -c*x' - k*x\nx(0) = x0, 0\n");
        auto a = test::simulatedExperiment(src, {0.4, 4.0, 1.0}, integrate::uniformGrid(0, 6, 0.05));
        auto b = test::simulatedExperiment(src, {0.4, 4.0, -2.0}, integrate::uniformGrid(0, 6, 0.05));
        b.fixedValues["x0"] = -2.0;
        const auto r = estimate::fit(src, {0.3, 3.0, 1.0}, {a, b}, settingsFor(EstimationMethod::OutputError));
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY(test::relativeError(find(r, "k").value, 4.0) < 1e-6);
        b.fixedValues["k"] = 1.0;  // estimated: cannot differ per experiment
        QVERIFY_THROWS_EXCEPTION(
            estimate::FitError,
            estimate::fit(src, {0.3, 3.0, 1.0}, {a, b}, settingsFor(EstimationMethod::OutputError)));
    }

    void bayesPosteriorOfALinearModel()
    {
        // y = a t with Gaussian noise and a Gaussian prior on a: the posterior mean and sd are
        // known in closed form (conjugate normal model).
        const auto src = source("param a = 0\nstate y = 0\ny' = a\n");
        const auto times = integrate::uniformGrid(0, 1, 0.1);
        auto data = test::simulatedExperiment(src, {2.0}, times, 10.0, 7);
        estimate::FitSettings s = settingsFor(EstimationMethod::Bayes);
        s.priors["a"] = {1.0, 0.05};
        s.outputWeights["y"] = 1.0 / (0.01 * 0.01);  // known noise sd 0.01
        const auto r = estimate::fit(src, {0.5}, {data}, s);
        double tt = 0, ty = 0;
        for (std::size_t i = 0; i < times.size(); ++i) {
            tt += times[i] * times[i];
            ty += times[i] * data.measured(static_cast<Eigen::Index>(i), 0);
        }
        const double dataPrecision = tt / (0.01 * 0.01), priorPrecision = 1.0 / (0.05 * 0.05);
        const double mean = (ty / (0.01 * 0.01) + 1.0 * priorPrecision) / (dataPrecision + priorPrecision);
        QVERIFY2(std::abs(r.parameters[0].value - mean) < 1e-8,
                 qPrintable(QString::number(r.parameters[0].value - mean)));
        // The sd uses the residual variance estimated from the data in place of the known 0.01.
        const double s2 = 2 * (r.cost - 0.5 * std::pow((r.parameters[0].value - 1.0) / 0.05, 2)) /
            static_cast<double>(times.size() - 1);
        const double sd = 1.0 / std::sqrt(dataPrecision / s2 + priorPrecision);
        QVERIFY(std::abs(r.parameters[0].sd - sd) < 1e-8 * sd + 1e-12);
    }

    // A prior written in the model text is the Bayesian estimator's default; the settings override it.
    void bayesUsesThePriorOfTheModelText()
    {
        const auto fromSettings = source("param a = 0\nstate y = 0\ny' = a\n");
        const auto fromText = source("param a = 0 prior 1, 0.05\nstate y = 0\ny' = a\n");
        const auto times = integrate::uniformGrid(0, 1, 0.1);
        const auto data = test::simulatedExperiment(fromSettings, {2.0}, times, 10.0, 7);
        estimate::FitSettings s = settingsFor(EstimationMethod::Bayes);
        s.priors["a"] = {1.0, 0.05};
        const double viaSettings = estimate::fit(fromSettings, {0.5}, {data}, s).parameters[0].value;
        s.priors.clear();
        const double viaText = estimate::fit(fromText, {0.5}, {data}, s).parameters[0].value;
        QCOMPARE(viaText, viaSettings);
        QVERIFY(std::abs(viaText - 2.0) > 0.05);  // pulled towards the prior mean 1
        s.priors["a"] = {2.0, 1e6};  // an override so weak the data decide
        QVERIFY(std::abs(estimate::fit(fromText, {0.5}, {data}, s).parameters[0].value - 2.0) < 0.05);
    }

    void multipleShootingFitsAChaoticSystemWhereSingleShootingFails()
    {
        // Lorenz, all states measured, parameters started 50 % off (Bock's classic demonstration).
        const char* lorenz =
            "param sigma = 10 [0, 100]\nparam rho = 28 [0, 100]\nparam beta = 2.6666666666666667 [0, 20]\n"
            "state x = -8\nstate y = 7\nstate z = 27\n"
            "x' = sigma*(y - x)\ny' = x*(rho - z) - y\nz' = x*y - beta*z\n";
        const auto src = source(lorenz);
        const auto data =
            test::simulatedExperiment(src, {10.0, 28.0, 8.0 / 3.0}, integrate::uniformGrid(0, 4, 0.02), 1.0, 3);
        const std::vector<double> start{15.0, 14.0, 4.0};
        auto s = settingsFor(EstimationMethod::MultipleShooting);
        s.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-8, 1e-10);
        s.shootingIntervals = 40;
        const auto ms = estimate::fit(src, start, {data}, s);
        QVERIFY2(ms.converged(), ms.termination.message.c_str());
        QVERIFY2(test::relativeError(find(ms, "sigma").value, 10.0) < 0.01,
                 qPrintable(QString::number(find(ms, "sigma").value)));
        QVERIFY(test::relativeError(find(ms, "rho").value, 28.0) < 0.01);
        QVERIFY(test::relativeError(find(ms, "beta").value, 8.0 / 3.0) < 0.01);
        s.method = EstimationMethod::OutputError;
        const auto ss = estimate::fit(src, start, {data}, s);
        QVERIFY2(test::relativeError(find(ss, "rho").value, 28.0) > 0.05 || !ss.converged(),
                 "single shooting was expected to fail on the chaotic Lorenz fit");
    }

    void cancellationReturnsTheBestEstimateQuickly()
    {
        const auto src = source(oscillator);
        const auto data = test::simulatedExperiment(src, {0.4, 4.0}, integrate::uniformGrid(0, 2000, 0.01), 5.0);
        auto s = settingsFor(EstimationMethod::OutputError);
        std::stop_source stop;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            stop.request_stop();
        });
        const auto begin = std::chrono::steady_clock::now();
        const estimate::FitResult r = estimate::fit(src, {0.1, 2.0}, {data}, s, nullptr, stop.get_token());
        canceller.join();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        QVERIFY(r.cancelled());
        QVERIFY2(seconds < 1.3, qPrintable(QString::number(seconds)));
        QCOMPARE(r.parameters.size(), std::size_t(2));
        QVERIFY(std::isfinite(r.parameters[0].value));

        // Cancelled before anything ran: the starting values come back, marked cancelled.
        std::stop_source early;
        early.request_stop();
        const auto atStart = estimate::fit(src, {0.1, 2.0}, {data}, s, nullptr, early.get_token());
        QVERIFY(atStart.cancelled());
        QCOMPARE(atStart.parameters[0].value, 0.1);
    }

    void badProblemsAreRejectedWithMessages()
    {
        const auto src = source("param c = 0.1 fixed\nx'' = -c*x' - x\nx(0) = 1, 0\n");
        const auto data = test::simulatedExperiment(src, {0.1}, integrate::uniformGrid(0, 1, 0.1));
        QVERIFY_THROWS_EXCEPTION(estimate::FitError,
                                 estimate::fit(src, {0.1}, {data}, settingsFor(EstimationMethod::OutputError)));
        const auto free = source(oscillator);
        const auto d2 = test::simulatedExperiment(free, {0.4, 4.0}, integrate::uniformGrid(0, 1, 0.1));
        QVERIFY_THROWS_EXCEPTION(estimate::FitError,
                                 estimate::fit(free, {20.0, 4.0}, {d2}, settingsFor(EstimationMethod::OutputError)));
        auto s = settingsFor(EstimationMethod::Bayes);
        s.priors["nosuch"] = {1, 1};
        QVERIFY_THROWS_EXCEPTION(estimate::FitError, estimate::fit(free, {0.1, 2.0}, {d2}, s));
        QVERIFY_THROWS_EXCEPTION(estimate::FitError, estimate::fit(free, {0.1, 2.0}, {}, s));
    }
};

QTEST_APPLESS_MAIN(TestEstimate)
#include "test_estimate.moc"
