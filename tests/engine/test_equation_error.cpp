// The equation-error estimators (seed 004 ch. 3-4): formulas, the objective's exact
// derivatives, exact recovery from data that satisfy the formula, and the error messages.
#include "EstimateTestSupport.h"

#include "engine/estimate/EquationErrorFit.h"
#include "engine/estimate/EquationErrorObjective.h"
#include "engine/model/ModelBuilder.h"

#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

const char* quadraticCubic = R"(
param gamma = 0.5 [0, 5]
param Omega2 = 25 [1, 100]
param alpha1 = 0.5 [-20, 20]
param alpha2 = 2.5 [-20, 20]
u'' = -2*gamma*u' - Omega2*u - alpha1*u^2 - alpha2*u^3
u(0) = 0, 5 estimate
output u
output v = u'
)";

// A model nonlinear in its parameters and states, with an input: every second-derivative term
// of the single-step Hessian is nonzero.
const char* nonlinear = R"(
param a = 0.8 [0.1, 3]
param b = 0.3 [-2, 2]
param c = 1.2 [0.1, 5]
input f
state x = 1
state y = 0.5
x' = -exp(a)*x + b*x*y + f
y' = -c*y^3 + a*b*x + sin(t)
output x
output y
)";

std::shared_ptr<const eval::CompiledModelSource> compiled(const char* text)
{
    return eval::compileModel(model::parseModel(text, "<test>"));
}

integrate::InputSignals forcing(const std::vector<double>& times)
{
    std::vector<double> values;
    for (double t : times)
        values.push_back(0.4 * std::cos(1.7 * t));
    return integrate::InputSignals({data::Signal(times, values)});
}

// States stepped by the explicit Runge-Kutta method itself, so that its equation error vanishes
// at the true parameters.
Eigen::MatrixXd stepped(const std::shared_ptr<const eval::CompiledModelSource>& source,
                        const std::vector<double>& truth, const std::vector<double>& times,
                        const std::vector<double>& x0, estimate::EquationErrorFormula formula,
                        const integrate::InputSignals* inputs)
{
    eval::CompiledModel model(source);
    model.setParameters(truth);
    const auto tableau = estimate::butcherTableau(formula);
    const std::size_t n = x0.size();
    Eigen::MatrixXd x(static_cast<Eigen::Index>(times.size()), static_cast<Eigen::Index>(n));
    Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(x0.data(), static_cast<Eigen::Index>(n));
    std::vector<double> u(model.inputCount());
    for (std::size_t k = 0; k < times.size(); ++k) {
        x.row(static_cast<Eigen::Index>(k)) = y.transpose();
        if (k + 1 == times.size())
            break;
        const double h = times[k + 1] - times[k];
        std::vector<Eigen::VectorXd> K;
        for (std::size_t s = 0; s < tableau.stages(); ++s) {
            Eigen::VectorXd z = y;
            for (std::size_t j = 0; j < s; ++j)
                z += h * tableau.a[s][j] * K[j];
            const double ts = times[k] + tableau.c[s] * h;
            if (inputs)
                inputs->values(ts, u.data());
            model.setPoint(ts, z.data(), u.data());
            Eigen::VectorXd f(static_cast<Eigen::Index>(n));
            model.rhs(f.data());
            K.push_back(f);
        }
        for (std::size_t s = 0; s < tableau.stages(); ++s)
            y += h * tableau.b[s] * K[s];
    }
    return x;
}

estimate::Experiment experimentOf(const std::vector<double>& times, const Eigen::MatrixXd& outputs,
                                  const integrate::InputSignals* inputs = nullptr)
{
    estimate::Experiment e;
    e.name = "record";
    e.times = times;
    e.measured = outputs;
    e.outputMeasured.assign(static_cast<std::size_t>(outputs.cols()), true);
    if (inputs)
        e.inputs = *inputs;
    return e;
}

estimate::FitSettings settingsFor(estimate::EquationErrorFormula formula)
{
    estimate::FitSettings s;
    s.method =
        estimate::isOneStep(formula) ? estimate::EstimationMethod::SingleStep : estimate::EstimationMethod::Multistep;
    if (estimate::isOneStep(formula))
        s.equationError.oneStep = formula;
    else
        s.equationError.multistep = formula;
    return s;
}

std::vector<double> seedTimes()
{
    return integrate::uniformGrid(0.0, 5.0, 5.0 / 334.0);
}

std::vector<double> valuesWith(const eval::CompiledModelSource& source, const std::map<std::string, double>& changes)
{
    std::vector<double> values = source.parameterValues;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (const auto at = changes.find(source.parameterNames[i]); at != changes.end())
            values[i] = at->second;
    return values;
}

struct LogObserver final : estimate::ProgressSink {
    std::vector<std::string> lines;
    void log(const std::string& line) override { lines.push_back(line); }
    bool logged(const std::string& part) const
    {
        for (const auto& l : lines)
            if (l.find(part) != std::string::npos)
                return true;
        return false;
    }
};

}  // namespace

class TestEquationError : public QObject {
    Q_OBJECT

private slots:
    void simpsonWeightsIntegrateCubicsExactly()
    {
        for (std::size_t m : {3u, 4u, 7u, 10u, 335u}) {
            const double h = 0.1;
            const auto c = estimate::simpsonWeights(m, h);
            double integral = 0.0;
            for (std::size_t k = 0; k < m; ++k) {
                const double t = static_cast<double>(k) * h;
                integral += c[k] * (t * t * t - 2 * t + 1);
            }
            const double T = static_cast<double>(m - 1) * h;
            const double exact = T * T * T * T / 4 - T * T + T;
            // Odd counts are Simpson throughout (exact for cubics); even ones end with a trapezoid.
            const double tolerance = (m % 2 == 1) ? 1e-12 : 0.05 * h * h;
            QVERIFY2(std::abs(integral - exact) < tolerance * std::max(1.0, exact),
                     qPrintable(QStringLiteral("m = %1: %2 vs %3").arg(m).arg(integral).arg(exact)));
        }
        QCOMPARE(estimate::simpsonWeights(1, 0.5).front(), 0.5);
    }

    // A closed Newton-Cotes formula with s steps is exact for polynomials of degree s (s + 1 for
    // even s): x' = t^d with x = t^(d+1)/(d+1) has zero equation error.
    void multistepFormulasAreExactToTheirDegree_data()
    {
        QTest::addColumn<int>("formula");
        QTest::addColumn<int>("degree");
        QTest::newRow("trapezoid") << static_cast<int>(estimate::EquationErrorFormula::Trapezoid) << 1;
        QTest::newRow("simpson") << static_cast<int>(estimate::EquationErrorFormula::Simpson) << 3;
        QTest::newRow("newton-cotes-6") << static_cast<int>(estimate::EquationErrorFormula::NewtonCotes6) << 7;
    }
    void multistepFormulasAreExactToTheirDegree()
    {
        QFETCH(int, formula);
        QFETCH(int, degree);
        const auto f = static_cast<estimate::EquationErrorFormula>(formula);
        for (int d : {degree, degree + 1}) {
            const std::string text = "state x = 0\nparam a = 1\nx' = a*t^" + std::to_string(d) + "\noutput x\n";
            const auto source = eval::compileModel(model::parseModel(text, "<t>"));
            const auto times = integrate::uniformGrid(0.0, 1.0, 0.05);
            estimate::EquationErrorObjective objective(source, f, {0});
            estimate::EquationErrorRecord record;
            record.name = "poly";
            record.states.times = times;
            record.states.step = 0.05;
            record.states.values.resize(static_cast<Eigen::Index>(times.size()), 1);
            for (std::size_t k = 0; k < times.size(); ++k)
                record.states.values(static_cast<Eigen::Index>(k), 0) = std::pow(times[k], d + 1) / (d + 1);
            record.states.differentiated = {false};
            record.parameterValues = {1.0};
            record.stateWeights = {1.0};
            const auto terms =
                objective.evaluate(Eigen::VectorXd::Ones(1), {record}, estimate::EquationErrorOrder::Second);
            QVERIFY(objective.linearInUnknowns());
            if (d == degree)
                QVERIFY2(terms.cost < 1e-28, qPrintable(QStringLiteral("degree %1: cost %2").arg(d).arg(terms.cost)));
            else
                QVERIFY2(terms.cost > 1e-20, qPrintable(QStringLiteral("degree %1 should not be exact").arg(d)));
        }
    }

    // The gradient and the Newton-Raphson Hessian against central differences of the objective.
    void derivativesMatchFiniteDifferences_data()
    {
        QTest::addColumn<int>("formula");
        QTest::newRow("heun") << static_cast<int>(estimate::EquationErrorFormula::Heun);
        QTest::newRow("rk4") << static_cast<int>(estimate::EquationErrorFormula::RungeKutta4);
        QTest::newRow("simpson") << static_cast<int>(estimate::EquationErrorFormula::Simpson);
        QTest::newRow("newton-cotes-6") << static_cast<int>(estimate::EquationErrorFormula::NewtonCotes6);
    }
    void derivativesMatchFiniteDifferences()
    {
        QFETCH(int, formula);
        const auto f = static_cast<estimate::EquationErrorFormula>(formula);
        const auto source = compiled(nonlinear);
        const auto times = integrate::uniformGrid(0.0, 4.0, 0.1);
        const auto inputs = forcing(times);
        const auto data = test::simulatedExperiment(source, source->parameterValues, times, 3.0, 7,
                                                    data::NoiseDistribution::Gaussian, &inputs);
        estimate::EquationErrorObjective objective(source, f, {0, 1, 2});
        estimate::EquationErrorRecord record;
        record.name = "nonlinear";
        record.states = estimate::measuredStates(*source, data, {}, objective.minimumSamples());
        record.inputs = &data.inputs;
        record.parameterValues = source->parameterValues;
        record.stateWeights = {1.0, 2.0};
        const std::vector<estimate::EquationErrorRecord> records{record};
        Eigen::VectorXd theta(3);
        theta << 0.6, 0.5, 1.5;  // away from the truth, so that the second-order term matters
        const auto terms = objective.evaluate(theta, records, estimate::EquationErrorOrder::Second);
        const Eigen::MatrixXd hessian = terms.gaussNewton + terms.secondOrder;
        for (Eigen::Index l = 0; l < 3; ++l) {
            const double d = 1e-5;
            Eigen::VectorXd plus = theta, minus = theta;
            plus(l) += d;
            minus(l) -= d;
            const auto tp = objective.evaluate(plus, records, estimate::EquationErrorOrder::Second);
            const auto tm = objective.evaluate(minus, records, estimate::EquationErrorOrder::Second);
            const double gradient = (tp.cost - tm.cost) / (2 * d);
            QVERIFY2(std::abs(gradient - terms.gradient(l)) < 1e-7 * (1 + std::abs(gradient)),
                     qPrintable(QStringLiteral("gradient %1: %2 vs %3").arg(l).arg(terms.gradient(l)).arg(gradient)));
            const Eigen::VectorXd column = (tp.gradient - tm.gradient) / (2 * d);
            QVERIFY2(
                (column - hessian.col(l)).norm() < 1e-6 * (1 + column.norm()),
                qPrintable(
                    QStringLiteral("Hessian column %1 differs by %2").arg(l).arg((column - hessian.col(l)).norm())));
        }
        if (estimate::isOneStep(f) || f == estimate::EquationErrorFormula::NewtonCotes6)
            QVERIFY2(terms.secondOrder.norm() > 1e-6 * terms.gaussNewton.norm(),
                     "the second-order term should not vanish");
    }

    // Data that are exactly a Heun (or RK4) solution: the residual vanishes at the truth, and
    // Newton-Raphson returns the truth from the seed's starting values.
    void oneStepRecoversParametersFromItsOwnSolution_data()
    {
        QTest::addColumn<int>("formula");
        QTest::newRow("heun") << static_cast<int>(estimate::EquationErrorFormula::Heun);
        QTest::newRow("rk4") << static_cast<int>(estimate::EquationErrorFormula::RungeKutta4);
    }
    void oneStepRecoversParametersFromItsOwnSolution()
    {
        QFETCH(int, formula);
        const auto f = static_cast<estimate::EquationErrorFormula>(formula);
        const auto source = compiled(quadraticCubic);
        const std::vector<double> truth = source->parameterValues;  // 0.5, 25, 0.5, 2.5, Q 5
        const auto times = seedTimes();
        const Eigen::MatrixXd states = stepped(source, truth, times, {0.0, 5.0}, f, nullptr);
        const auto result = estimate::fit(
            source, valuesWith(*source, {{"gamma", 0.35}, {"Omega2", 22.5}, {"alpha1", 1.0}, {"alpha2", 1.0}}),
            {experimentOf(times, states)}, settingsFor(f));
        QVERIFY2(result.converged(), result.termination.message.c_str());
        QCOMPARE(result.parameters.size(), std::size_t{4});  // Q is an initial value: not estimated
        const std::vector<std::pair<std::string, double>> expected{
            {"gamma", 0.5}, {"Omega2", 25}, {"alpha1", 0.5}, {"alpha2", 2.5}};
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(QString::fromStdString(result.parameters[k].name), QString::fromStdString(expected[k].first));
            QVERIFY2(test::relativeError(result.parameters[k].value, expected[k].second) < 1e-9,
                     qPrintable(QStringLiteral("%1 = %2")
                                    .arg(QString::fromStdString(expected[k].first))
                                    .arg(result.parameters[k].value, 0, 'g', 15)));
        }
        QVERIFY2(result.iterations <= 8, qPrintable(QStringLiteral("%1 iterations").arg(result.iterations)));
        QVERIFY(std::isfinite(result.residualRms[0]));
    }

    // A model with an input and nonlinear parameters, stepped by RK4 with the input interpolated
    // at the half steps.
    void oneStepHandlesInputsAndNonlinearParameters()
    {
        const auto source = compiled(nonlinear);
        const auto times = integrate::uniformGrid(0.0, 6.0, 0.02);
        const auto inputs = forcing(times);
        for (auto f : {estimate::EquationErrorFormula::Heun, estimate::EquationErrorFormula::RungeKutta4}) {
            const Eigen::MatrixXd states = stepped(source, source->parameterValues, times, {1.0, 0.5}, f, &inputs);
            const auto result =
                estimate::fit(source, {0.5, 0.0, 2.0}, {experimentOf(times, states, &inputs)}, settingsFor(f));
            QVERIFY2(result.converged(), result.termination.message.c_str());
            for (std::size_t k = 0; k < 3; ++k)
                QVERIFY2(test::relativeError(result.parameters[k].value, source->parameterValues[k]) < 1e-8,
                         qPrintable(QString::fromStdString(result.parameters[k].name) + " = " +
                                    QString::number(result.parameters[k].value, 'g', 15)));
        }
    }

    // Accurate ODE data: the multistep estimate is linear least squares (one Newton step), and
    // the closed 7-point formula's truncation error leaves a bias far below the seed's 1e-6.
    void multistepConvergesInOneStepOnSmoothData()
    {
        const auto source = compiled(quadraticCubic);
        const auto times = seedTimes();
        const auto data = test::simulatedExperiment(source, source->parameterValues, times);
        const auto result = estimate::fit(
            source, valuesWith(*source, {{"gamma", 0.35}, {"Omega2", 22.5}, {"alpha1", 1.0}, {"alpha2", 1.0}}), {data},
            settingsFor(estimate::EquationErrorFormula::NewtonCotes6));
        QVERIFY2(result.converged(), result.termination.message.c_str());
        QCOMPARE(result.iterations, std::size_t{1});
        const std::vector<double> truth{0.5, 25, 0.5, 2.5};
        for (std::size_t k = 0; k < 4; ++k)
            QVERIFY2(test::relativeError(result.parameters[k].value, truth[k]) < 1e-6,
                     qPrintable(QString::fromStdString(result.parameters[k].name) + " = " +
                                QString::number(result.parameters[k].value, 'g', 15)));
    }

    // Only the displacement measured: the velocity is differentiated (Savitzky-Golay).
    void velocityFromDisplacement()
    {
        const std::string text = std::string(quadraticCubic).substr(0, std::string(quadraticCubic).find("output v"));
        const auto source = eval::compileModel(model::parseModel(text, "<t>"));
        const auto times = integrate::uniformGrid(0.0, 5.0, 0.005);
        const auto data = test::simulatedExperiment(source, source->parameterValues, times);
        auto settings = settingsFor(estimate::EquationErrorFormula::NewtonCotes6);
        settings.equationError.differentiation = {data::DerivativeMethod::SavitzkyGolay, 9, 6};
        LogObserver observer;
        const auto result = estimate::fit(source, valuesWith(*source, {{"gamma", 0.35}, {"Omega2", 22.5}}), {data},
                                          settings, &observer);
        QVERIFY2(result.converged(), result.termination.message.c_str());
        QVERIFY(observer.logged("u' is not measured"));
        QVERIFY2(test::relativeError(result.parameters[0].value, 0.5) < 1e-3,
                 qPrintable(QString::number(result.parameters[0].value)));
        QVERIFY2(test::relativeError(result.parameters[1].value, 25) < 1e-4,
                 qPrintable(QString::number(result.parameters[1].value)));
    }

    // Finely sampled noisy data: the one-step residual is mostly noise, and the user is told.
    void warnsWhenNoiseDominatesTheResidual()
    {
        const auto source = compiled(quadraticCubic);
        const auto fine = integrate::uniformGrid(0.0, 5.0, 5.0 / 9999.0);
        LogObserver noisy, clean;
        estimate::fit(source, source->parameterValues,
                      {test::simulatedExperiment(source, source->parameterValues, fine, 5.0, 4)},
                      settingsFor(estimate::EquationErrorFormula::Heun), &noisy);
        QVERIFY(noisy.logged("warning: data set 'simulated': u changes by only"));
        estimate::fit(source, source->parameterValues,
                      {test::simulatedExperiment(source, source->parameterValues, seedTimes(), 1.0, 4)},
                      settingsFor(estimate::EquationErrorFormula::NewtonCotes6), &clean);
        QVERIFY(!clean.logged("warning:"));
    }

    void errorsNameThePlace()
    {
        const auto source = compiled(quadraticCubic);
        auto times = seedTimes();
        auto data = test::simulatedExperiment(source, source->parameterValues, times);
        const auto settings = settingsFor(estimate::EquationErrorFormula::Heun);
        auto failsWith = [&](const estimate::Experiment& e, const estimate::FitSettings& s, const QString& text) {
            try {
                estimate::fit(source, source->parameterValues, {e}, s);
            } catch (const estimate::FitError& error) {
                QVERIFY2(QString(error.what()).contains(text), error.what());
                return;
            }
            QFAIL(qPrintable("no error, expected: " + text));
        };
        auto uneven = data;
        uneven.times[100] += 0.004;
        failsWith(uneven, settings, QStringLiteral("uniformly sampled"));
        auto notFinite = data;
        notFinite.measured(40, 1) = std::nan("");
        failsWith(notFinite, settings, QStringLiteral("v is not a finite number at t = "));
        auto unmeasured = data;
        unmeasured.outputMeasured = {false, true};
        failsWith(unmeasured, settings, QStringLiteral("state u is neither a measured output"));
        auto weighted = settings;
        weighted.equationError.stateWeights["w"] = 1.0;
        failsWith(data, weighted, QStringLiteral("no state 'w'"));
        auto mismatch = settings;
        mismatch.equationError.oneStep = estimate::EquationErrorFormula::Simpson;
        failsWith(data, mismatch, QStringLiteral("single-step formula simpson; expected a single-step formula"));
        auto shortRecord = data;
        shortRecord.times.resize(5);
        shortRecord.measured.conservativeResize(5, 2);
        failsWith(shortRecord, settingsFor(estimate::EquationErrorFormula::NewtonCotes6), QStringLiteral("at least 7"));
    }

    void namesTheEstimatedParameters()
    {
        const auto source = compiled(quadraticCubic);
        const auto data = test::simulatedExperiment(source, source->parameterValues, seedTimes());
        const auto names = estimate::estimatedParameterNames(*source, {data}, estimate::EstimationMethod::Multistep);
        QCOMPARE(names, (std::vector<std::string>{"gamma", "Omega2", "alpha1", "alpha2"}));
        QCOMPARE(estimate::estimatedParameterNames(*source, {data}).size(), std::size_t{5});
    }

    void stopsWhenCancelled()
    {
        const auto source = compiled(quadraticCubic);
        const auto data = test::simulatedExperiment(source, source->parameterValues, seedTimes(), 5.0, 3);
        std::stop_source stop;
        stop.request_stop();
        const auto result = estimate::fit(source, source->parameterValues, {data},
                                          settingsFor(estimate::EquationErrorFormula::Heun), nullptr, stop.get_token());
        QVERIFY(result.cancelled());
        QVERIFY(!result.converged());
    }
};

QTEST_GUILESS_MAIN(TestEquationError)
#include "test_equation_error.moc"
