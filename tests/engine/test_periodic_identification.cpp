// Estimation from steady-state periodic responses (issue 5): IFT Jacobian, recovery of the
// truth from noise-free responses, shooting vs discretisation, bad settings.
#include "EstimateTestSupport.h"

#include "engine/discretise/DiscretisedOrbitSensitivity.h"
#include "engine/estimate/PeriodicResponseProblem.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace sysid;
using estimate::EstimationMethod;

namespace {

constexpr double pi = std::numbers::pi;

// Hardening Duffing oscillator forced at w (fixed, set per experiment).
const char* duffing = "param c = 0.2 [0, 10]\nparam k = 1 [0.01, 100]\nparam k3 = 0.5 [0, 100]\n"
                      "param B = 0.5 [0, 100]\nparam w = 1 fixed\n"
                      "x'' = -c*x' - k*x - k3*x^3 + B*cos(w*t)\nx(0) = 0, 0\noutput x\n";
const double truth[] = {0.2, 1.0, 0.5, 0.5};  // c, k, k3, B
const double frequencies[] = {0.5, 1.0, 2.5};

std::shared_ptr<const eval::CompiledModelSource> source(const char* text)
{
    return eval::compileModel(model::parseModel(text));
}

// The steady state by plain integration (independent of shooting): 60 forcing periods from
// rest (the transient decays like exp(-c t / 2) < 1e-13), then two periods sampled 25 times each.
estimate::Experiment steadyState(const std::shared_ptr<const eval::CompiledModelSource>& model, double w,
                                 double percent = 0.0, std::uint64_t seed = 1)
{
    std::vector<double> values = model->parameterValues;
    values[4] = w;
    const double T = 2 * pi / w;
    std::vector<double> times;
    for (int i = 0; i < 50; ++i)
        times.push_back(60 * T + T * i / 25.0 + 0.013);
    std::vector<double> grid{0.0};
    grid.insert(grid.end(), times.begin(), times.end());
    auto e = test::simulatedExperiment(model, values, grid, percent, seed);
    e.times = times;
    e.measured = Eigen::MatrixXd(e.measured.bottomRows(50));
    e.name = "w=" + std::to_string(w);
    e.fixedValues["w"] = w;
    return e;
}

std::vector<estimate::Experiment> experiments(const std::shared_ptr<const eval::CompiledModelSource>& model)
{
    std::vector<estimate::Experiment> list;
    for (double w : frequencies)
        list.push_back(steadyState(model, w));
    return list;
}

estimate::FitSettings periodicSettings(discretise::PeriodicSolver solver = discretise::PeriodicSolver::Shooting)
{
    estimate::FitSettings s;
    s.method = EstimationMethod::PeriodicResponse;
    s.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-11, 1e-13);
    s.periodic.frequencyParameter = "w";
    s.periodic.solver = solver;
    s.outputWeights["x"] = 1.0;
    return s;
}

std::vector<double> startValues(const eval::CompiledModelSource& model, double c, double k, double k3, double B)
{
    std::vector<double> v = model.parameterValues;
    v[0] = c;
    v[1] = k;
    v[2] = k3;
    v[3] = B;
    return v;
}

QString fitError(const std::shared_ptr<const eval::CompiledModelSource>& model,
                 const std::vector<estimate::Experiment>& data, const estimate::FitSettings& s)
{
    try {
        estimate::fit(model, model->parameterValues, data, s);
    } catch (const estimate::FitError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestPeriodicIdentification : public QObject {
    Q_OBJECT

private slots:
    void jacobianMatchesCentralDifferences_data()
    {
        QTest::addColumn<int>("intervals");
        QTest::addColumn<int>("periods");
        QTest::addColumn<bool>("discretised");
        QTest::newRow("single shooting") << 1 << 1 << false;
        QTest::newRow("multiple shooting, 2T") << 3 << 2 << false;
        QTest::newRow("Hermite-Simpson, 60 nodes") << 1 << 1 << true;
        QTest::newRow("central differences, 2T") << 1 << 2 << true;
    }

    // The IFT Jacobian of the whole residual vector against central differences (h = 1e-5 |theta|).
    void jacobianMatchesCentralDifferences()
    {
        QFETCH(int, intervals);
        QFETCH(int, periods);
        QFETCH(bool, discretised);
        const auto model = source(duffing);
        const auto data = experiments(model);
        const auto start = startValues(*model, 0.25, 1.2, 0.4, 0.6);
        std::vector<std::map<std::string, double>> fixed;
        for (const auto& e : data)
            fixed.push_back(e.fixedValues);
        const estimate::ParameterLayout layout(*model, start, fixed);
        auto s = periodicSettings();
        s.periodic.intervals = static_cast<std::size_t>(intervals);
        s.periodic.periods = static_cast<std::size_t>(periods);
        if (discretised) {
            s.periodic.solver = discretise::PeriodicSolver::Discretisation;
            s.periodic.nodes = 60;
            s.periodic.scheme = periods == 1 ? discretise::PeriodicScheme::HermiteSimpson
                                             : discretise::PeriodicScheme::CentralDifference;
        }
        estimate::PeriodicResponseProblem problem(
            model, layout, data, {1.0}, std::vector<std::optional<estimate::Prior>>(4), s.integrator, s.periodic);
        estimate::Linearization at;
        std::string failure;
        QVERIFY2(problem.evaluate(Eigen::VectorXd::Zero(4), at, failure, {}), failure.c_str());
        QCOMPARE(at.residuals.size(), Eigen::Index(150));
        for (Eigen::Index k = 0; k < 4; ++k) {
            const double h = 1e-5 * std::abs(problem.parameters()(k));
            Eigen::VectorXd step = Eigen::VectorXd::Zero(4);
            estimate::Linearization plus, minus;
            step(k) = h;
            QVERIFY2(problem.evaluate(step, plus, failure, {}), failure.c_str());
            step(k) = -h;
            QVERIFY2(problem.evaluate(step, minus, failure, {}), failure.c_str());
            const Eigen::VectorXd fd = (plus.residuals - minus.residuals) / (2 * h);
            const double error = (fd - at.jacobian.col(k)).norm() / at.jacobian.col(k).norm();
            qInfo("column %d: |J| = %.4g, relative difference to central differences %.2e", int(k),
                  at.jacobian.col(k).norm(), error);
            QVERIFY2(error < 1e-5, qPrintable(QString("column %1: %2").arg(k).arg(error)));
        }
    }

    void recoversTruthFromNoiseFreeResponses_data()
    {
        QTest::addColumn<double>("c");
        QTest::addColumn<double>("k");
        QTest::addColumn<double>("k3");
        QTest::addColumn<double>("B");
        QTest::addColumn<bool>("fixB");
        QTest::newRow("all +50 %") << 0.3 << 1.5 << 0.75 << 0.75 << false;
        QTest::newRow("c, k3 +50 %; k, B -50 %") << 0.3 << 0.5 << 0.75 << 0.25 << false;
        QTest::newRow("c, k3 -50 %; k, B +50 %") << 0.1 << 1.5 << 0.25 << 0.75 << false;
        QTest::newRow("c, k +50 %; k3, B -50 %") << 0.3 << 1.5 << 0.25 << 0.25 << false;
        // From all -50 % the first Gauss-Newton step drives B to its bound 0, where the response
        // vanishes and the cost is stationary in c, k, k3; with the amplitude known it converges.
        QTest::newRow("all -50 %, B fixed") << 0.1 << 0.5 << 0.25 << 0.5 << true;
    }

    void recoversTruthFromNoiseFreeResponses()
    {
        QFETCH(double, c);
        QFETCH(double, k);
        QFETCH(double, k3);
        QFETCH(double, B);
        QFETCH(bool, fixB);
        const std::string text = fixB
            ? std::string(duffing).replace(std::string(duffing).find("[0, 100]\nparam w"), 8, "fixed")
            : std::string(duffing);
        const auto model = eval::compileModel(model::parseModel(text));
        const auto data = experiments(model);
        const auto r = estimate::fit(model, startValues(*model, c, k, k3, B), data, periodicSettings());
        qInfo("%zu iterations (%s)", r.iterations, r.termination.message.c_str());
        QVERIFY(r.converged());
        QCOMPARE(r.parameters.size(), fixB ? std::size_t{3} : std::size_t{4});
        for (std::size_t i = 0; i < r.parameters.size(); ++i) {
            qInfo("%s = %.10g (truth %g)", r.parameters[i].name.c_str(), r.parameters[i].value, truth[i]);
            QVERIFY2(test::relativeError(r.parameters[i].value, truth[i]) < 1e-6, r.parameters[i].name.c_str());
        }
    }

    // The discretised response differs from the exact one by the Hermite-Simpson error O(h^4):
    // the estimates approach shooting's as the nodes double, by about 2^4 each time.
    void discretisationConvergesToShooting()
    {
        const auto model = source(duffing);
        const auto data = experiments(model);
        const auto start = startValues(*model, 0.3, 1.5, 0.25, 0.75);
        const auto shot = estimate::fit(model, start, data, periodicSettings());
        QVERIFY(shot.converged());
        double previous = 0.0;
        for (std::size_t nodes : {50, 100, 200}) {
            auto s = periodicSettings(discretise::PeriodicSolver::Discretisation);
            s.periodic.nodes = nodes;
            const auto discrete = estimate::fit(model, start, data, s);
            QVERIFY(discrete.converged());
            double difference = 0.0;
            for (std::size_t i = 0; i < 4; ++i)
                difference =
                    std::max(difference, test::relativeError(discrete.parameters[i].value, shot.parameters[i].value));
            qInfo("%zu nodes: %zu iterations, largest relative difference to shooting %.3e", nodes, discrete.iterations,
                  difference);
            if (previous > 0)
                QVERIFY2(difference < previous / 8, "not fourth order");
            previous = difference;
        }
        QVERIFY(previous < 1e-5);
    }

    // The discretised orbit and its IFT sensitivities against the analytic steady state of
    // x'' + c x' + k x = F cos(w t): x = (F/d) ((k - w^2) cos wt + c w sin wt), d = (k - w^2)^2 + (c w)^2.
    void discretisedOrbitMatchesAnalyticSteadyState()
    {
        const char* linear = "param c = 0.3\nparam k = 2\nparam F = 1.5\nparam w = 1.3\n"
                             "x'' = -c*x' - k*x + F*cos(w*t)\nx(0) = 0, 0\noutput x\n";
        auto model = test::compiled(linear);
        const auto exact = [](double c, double k, double F, double w, double t) {
            const double a = k - w * w, b = c * w, d = a * a + b * b;
            return F / d * (a * std::cos(w * t) + b * std::sin(w * t));
        };
        discretise::DiscretisationSettings d;
        d.period = 2 * pi / 1.3;
        d.nodes = 200;
        d.scheme = discretise::PeriodicScheme::HermiteSimpson;
        d.kind = shooting::PeriodKind::Forced;
        d.newton.residualTolerance = 1e-14;
        const auto solution =
            discretise::findPeriodicSolutionByDiscretisation(*model, {0.0}, Eigen::MatrixXd::Zero(1, 2), d);
        QVERIFY2(solution.converged(), solution.newton.termination.message.c_str());
        const std::vector<std::size_t> parameters{0, 1, 2};  // c, k, F
        const auto nodes = discretise::discretisedParameterSensitivity(*model, solution, parameters, d);
        const std::vector<double> tau{0.0, 0.37, 1.9, 3.3, 4.8};
        const auto samples = discretise::sampleDiscretisedOrbit(*model, solution, nodes, parameters, tau);
        const double theta[] = {0.3, 2.0, 1.5};
        for (std::size_t s = 0; s < tau.size(); ++s) {
            const double x = exact(0.3, 2.0, 1.5, 1.3, tau[s]);
            QVERIFY2(std::abs(samples.outputs(Eigen::Index(s), 0) - x) < 1e-7, qPrintable(QString::number(tau[s])));
            for (std::size_t p = 0; p < 3; ++p) {
                double plus[] = {theta[0], theta[1], theta[2]}, minus[] = {theta[0], theta[1], theta[2]};
                plus[p] += 1e-6;
                minus[p] -= 1e-6;
                const double dx =
                    (exact(plus[0], plus[1], plus[2], 1.3, tau[s]) - exact(minus[0], minus[1], minus[2], 1.3, tau[s])) /
                    2e-6;
                QVERIFY2(std::abs(samples.outputSensitivity[s](0, Eigen::Index(p)) - dx) < 1e-6,
                         qPrintable(QString("tau %1, parameter %2").arg(tau[s]).arg(p)));
            }
        }
    }

    void fixedPeriodWithoutFrequencyParameter()
    {
        // One experiment at the model's own w = 1: the period given directly.
        const auto model = source(duffing);
        std::vector<estimate::Experiment> data{steadyState(model, 1.0)};
        data[0].fixedValues.clear();
        auto s = periodicSettings();
        s.periodic.frequencyParameter.clear();
        s.periodic.period = 2 * pi;
        const auto r = estimate::fit(model, startValues(*model, 0.25, 1.2, 0.4, 0.6), data, s);
        QVERIFY(r.converged());
        for (std::size_t i = 0; i < 4; ++i)
            QVERIFY2(test::relativeError(r.parameters[i].value, truth[i]) < 1e-6, r.parameters[i].name.c_str());
    }

    // Gaussian priors add their rows as in the Bayes estimator: a very narrow prior holds k at its
    // mean; the data then pull the other parameters away from the truth.
    void priorsApply()
    {
        const auto model = source(duffing);
        const auto data = experiments(model);
        auto s = periodicSettings();
        s.priors["k"] = estimate::Prior{1.1, 1e-7};
        const auto r = estimate::fit(model, startValues(*model, 0.25, 1.2, 0.4, 0.6), data, s);
        QVERIFY(r.converged());
        QVERIFY(std::abs(r.parameters[1].value - 1.1) < 1e-5);
        QVERIFY(test::relativeError(r.parameters[2].value, truth[2]) > 1e-3);
        s.priors.clear();
        s.priors["w"] = estimate::Prior{1.0, 0.1};
        QVERIFY(fitError(model, data, s).contains("'w', which is not an estimated parameter"));
    }

    // A point where the periodic solve fails makes evaluate() fail with the experiment's name
    // (Levenberg-Marquardt then rejects the step); the next good point still evaluates.
    void failingSolveRejectsTheStep()
    {
        const auto model = source(duffing);
        const auto data = experiments(model);
        std::vector<std::map<std::string, double>> fixed;
        for (const auto& e : data)
            fixed.push_back(e.fixedValues);
        const estimate::ParameterLayout layout(*model, startValues(*model, 0.25, 1.2, 0.4, 0.6), fixed);
        auto s = periodicSettings();
        s.integrator.maxSteps = 20000;
        estimate::PeriodicResponseProblem problem(
            model, layout, data, {1.0}, std::vector<std::optional<estimate::Prior>>(4), s.integrator, s.periodic);
        estimate::Linearization at, bad, again;
        std::string failure;
        QVERIFY2(problem.evaluate(Eigen::VectorXd::Zero(4), at, failure, {}), failure.c_str());
        Eigen::VectorXd step = Eigen::VectorXd::Zero(4);
        step(0) = -40.0;  // c = -39.75: the motion explodes within a period
        QVERIFY(!problem.evaluate(step, bad, failure, {}));
        qInfo("%s", failure.c_str());
        QVERIFY2(QString::fromStdString(failure).startsWith("experiment " + QString::fromStdString(data[0].name)),
                 failure.c_str());
        QVERIFY2(problem.evaluate(Eigen::VectorXd::Zero(4), again, failure, {}), failure.c_str());
        QVERIFY((again.residuals - at.residuals).norm() < 1e-8 * at.residuals.norm());
    }

    void badSettingsAreFitErrors()
    {
        const auto model = source(duffing);
        auto data = experiments(model);
        auto s = periodicSettings();
        s.periodic.frequencyParameter.clear();
        QVERIFY(fitError(model, data, s).contains("period"));
        s.periodic.period = -1;
        QVERIFY(fitError(model, data, s).contains("period > 0"));
        s.periodic.frequencyParameter = "omega";
        QVERIFY(fitError(model, data, s).contains("'omega' is not a parameter"));
        s.periodic.frequencyParameter = "k";
        QVERIFY(fitError(model, data, s).contains("'k' is estimated"));
        s.periodic.frequencyParameter = "w";
        data[1].fixedValues["w"] = 0.0;
        const QString zero = fitError(model, data, s);
        QVERIFY2(zero.contains("experiment " + QString::fromStdString(data[1].name)) && zero.contains("w is 0"),
                 qPrintable(zero));
        data[1].fixedValues["w"] = 1.0;
        s.periodic.periods = 0;
        QVERIFY(fitError(model, data, s).contains("periods"));
    }

    // A periodic solve that fails at the start is a FitError naming the experiment and Newton's reason.
    void failingSolveAtStartNamesExperiment()
    {
        const auto model = source(duffing);
        const auto data = experiments(model);
        auto s = periodicSettings();
        s.integrator.maxSteps = 20;  // too few for one period: every integration fails
        const QString message = fitError(model, data, s);
        QVERIFY2(message.contains("starting values") &&
                     message.contains("experiment " + QString::fromStdString(data[0].name)),
                 qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestPeriodicIdentification)
#include "test_periodic_identification.moc"
