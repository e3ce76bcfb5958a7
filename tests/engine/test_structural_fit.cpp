// Fits whose Jacobian comes from the structural-sensitivity method (seed 003 sec. 3.4) against
// the same fits with the forward (Meissinger) sensitivities: on a linear model the two are two
// computations of one derivative, so Gauss-Newton and steepest descent must take the same steps.
#include "EstimateTestSupport.h"
#include "Seed003Models.h"

#include "engine/estimate/Fit.h"

#include <QtTest>

#include <cmath>
#include <stop_token>
#include <string>

using namespace sysid;

namespace {

using integrate::uniformGrid;
using test::compiledSource;

std::vector<double> withValues(const eval::CompiledModelSource& source, const test::seed003::Values& values)
{
    std::vector<double> all = source.parameterValues;
    for (const auto& [name, v] : values)
        all[test::parameter(source, name)] = v;
    return all;
}

estimate::FitSettings settingsFor(estimate::EstimationMethod method, estimate::SensitivityMethod sensitivity)
{
    estimate::FitSettings s;
    s.method = method;
    s.sensitivity = sensitivity;
    s.integrator = test::tight();
    return s;
}

// Every recorded iterate of the two fits agrees to `tolerance` (relative to the parameter's size).
void compareHistories(const estimate::FitResult& forward, const estimate::FitResult& structural, double tolerance)
{
    QCOMPARE(structural.history.size(), forward.history.size());
    double worst = 0.0;
    for (std::size_t k = 0; k < forward.history.size(); ++k)
        for (std::size_t i = 0; i < forward.history[k].parameters.size(); ++i) {
            const double f = forward.history[k].parameters[i], s = structural.history[k].parameters[i];
            worst = std::max(worst, std::abs(f - s) / std::max(1e-3, std::abs(f)));
        }
    qInfo().noquote() << QStringLiteral("%1 iterates, largest relative difference %2")
                             .arg(forward.history.size())
                             .arg(worst, 0, 'e', 2);
    QVERIFY2(worst < tolerance, qPrintable(QString::number(worst)));
}

std::string fitFailure(const std::string& text, const estimate::Experiment& experiment,
                       const estimate::FitSettings& settings)
{
    const auto source = compiledSource(text);
    try {
        (void)estimate::fit(source, source->parameterValues, {experiment}, settings);
    } catch (const estimate::FitError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestStructuralFit : public QObject {
    Q_OBJECT
private slots:
    // Seed 003 example 1 from the seed's first start, data with 0.5 % noise (on noise-free data
    // the last steps are decided by rounding at a cost of 1e-24): Gauss-Newton/LM takes the same
    // steps with either sensitivity method, to the same estimate and standard deviations.
    void gaussNewtonTakesTheSameSteps()
    {
        const auto source = compiledSource(test::seed003::example1);
        const auto truth = test::seed003::perNode("alpha", {0.1, 0.15, 0.18});
        const auto experiment =
            test::simulatedExperiment(source, withValues(*source, truth), uniformGrid(0, 3, 0.05), 0.5, 3);
        const auto start = withValues(*source, test::seed003::perNode("alpha", {0.2, 0.2, 0.2}));
        const auto forward =
            estimate::fit(source, start, {experiment},
                          settingsFor(estimate::EstimationMethod::OutputError, estimate::SensitivityMethod::Forward));
        const auto structural = estimate::fit(
            source, start, {experiment},
            settingsFor(estimate::EstimationMethod::OutputError, estimate::SensitivityMethod::Structural));
        QVERIFY(forward.converged());
        QVERIFY(structural.converged());
        compareHistories(forward, structural, 1e-6);
        for (std::size_t i = 0; i < truth.size(); ++i) {
            QVERIFY2(test::relativeError(structural.parameters[i].value, forward.parameters[i].value) < 1e-7,
                     qPrintable(QString::number(structural.parameters[i].value - forward.parameters[i].value)));
            QVERIFY2(test::relativeError(structural.parameters[i].value, truth[i].second) < 0.02,
                     qPrintable(QString::number(structural.parameters[i].value)));
            QVERIFY(std::abs(structural.parameters[i].sd - forward.parameters[i].sd) <=
                    1e-3 * forward.parameters[i].sd + 1e-12);
        }
    }

    // The seed's fixed-gain steepest descent on example 3 (alpha = x^2 + a x + b): the first
    // 15 iterates agree, so the method of computing the gradient does not change the path.
    void steepestDescentTakesTheSameSteps()
    {
        const auto source = compiledSource(test::seed003::example3);
        const auto truth = withValues(*source, {{"a", -0.25}, {"b", 0.11}});
        const auto experiment = test::simulatedExperiment(source, truth, uniformGrid(0, 3, 0.05));
        auto settings = settingsFor(estimate::EstimationMethod::SteepestDescent, estimate::SensitivityMethod::Forward);
        settings.maxIterations = 15;
        const auto forward = estimate::fit(source, source->parameterValues, {experiment}, settings);
        settings.sensitivity = estimate::SensitivityMethod::Structural;
        const auto structural = estimate::fit(source, source->parameterValues, {experiment}, settings);
        QCOMPARE(forward.history.size(), std::size_t{16});
        compareHistories(forward, structural, 1e-7);
        QVERIFY(structural.history.back().cost < 0.5 * structural.history.front().cost);
    }

    // A forced linear oscillator with an estimated initial value and a Bayes prior: the unknown
    // initial state enters through dx0/dp, the input through the sensitivity points' signals.
    void initialValueInputAndPrior()
    {
        const std::string text = "param k = 3 [0.1, 50]\nparam c = 0.4 [0, 10]\ninput u\n"
                                 "state x = 0.2 estimate\nstate v = 0\nx' = v\nv' = -k*x - c*v + u\noutput x\n";
        const auto source = compiledSource(text);
        std::vector<double> ut, uv;
        for (int i = 0; i <= 400; ++i) {
            ut.push_back(0.025 * i);
            uv.push_back(std::sin(1.7 * ut.back()) + 0.5 * std::cos(4.1 * ut.back()));
        }
        const integrate::InputSignals inputs({data::Signal(ut, uv)});
        const auto truth = withValues(*source, {{"k", 4.0}, {"c", 0.3}, {"x(0)", 0.5}});
        const auto experiment = test::simulatedExperiment(source, truth, uniformGrid(0, 10, 0.05), 0.5, 7,
                                                          data::NoiseDistribution::Gaussian, &inputs);
        auto settings = settingsFor(estimate::EstimationMethod::Bayes, estimate::SensitivityMethod::Forward);
        settings.priors["c"] = estimate::Prior{0.35, 0.05};
        const auto forward = estimate::fit(source, source->parameterValues, {experiment}, settings);
        settings.sensitivity = estimate::SensitivityMethod::Structural;
        const auto structural = estimate::fit(source, source->parameterValues, {experiment}, settings);
        QVERIFY(structural.converged());
        QCOMPARE(structural.parameters.size(), std::size_t{3});
        for (std::size_t i = 0; i < 3; ++i) {
            const double f = forward.parameters[i].value, s = structural.parameters[i].value;
            QVERIFY2(std::abs(f - s) < 1e-6 * (1 + std::abs(f)),
                     qPrintable(QString::fromStdString(forward.parameters[i].name) + ": " + QString::number(f - s)));
        }
        QVERIFY2(test::relativeError(structural.parameters[0].value, 4.0) < 0.02,
                 qPrintable(QString::number(structural.parameters[0].value)));
    }

    void refusesANonlinearModelNamingTheState()
    {
        const std::string text =
            "param k = 1\nparam k3 = 0.5\nstate x = 1\nstate v = 0\nx' = v\nv' = -k*x - k3*x^3\noutput x\n";
        const auto source = compiledSource(text);
        const auto experiment = test::simulatedExperiment(source, source->parameterValues, uniformGrid(0, 3, 0.1));
        const std::string message =
            fitFailure(text, experiment,
                       settingsFor(estimate::EstimationMethod::OutputError, estimate::SensitivityMethod::Structural));
        QVERIFY2(message.find("state v") != std::string::npos && message.find("linear") != std::string::npos,
                 message.c_str());
    }

    void refusesMethodsThatFormTheirOwnDerivatives()
    {
        const std::string text = "param k = 1\nstate x = 1\nx' = -k*x\noutput x\n";
        const auto source = compiledSource(text);
        const auto experiment = test::simulatedExperiment(source, source->parameterValues, uniformGrid(0, 3, 0.1));
        for (auto method : {estimate::EstimationMethod::MultipleShooting, estimate::EstimationMethod::PeriodicResponse,
                            estimate::EstimationMethod::SingleStep, estimate::EstimationMethod::Multistep}) {
            const std::string message =
                fitFailure(text, experiment, settingsFor(method, estimate::SensitivityMethod::Structural));
            QVERIFY2(
                message.find("structural sensitivity method is for output-error, bayes, steepest-descent and ml") !=
                        std::string::npos &&
                    message.find(estimate::methodName(method)) != std::string::npos,
                message.c_str());
        }
    }

    void cancelledBeforeTheFirstStep()
    {
        const auto source = compiledSource(test::seed003::example1);
        const auto experiment = test::simulatedExperiment(source, source->parameterValues, uniformGrid(0, 3, 0.05));
        std::stop_source stop;
        stop.request_stop();
        const auto result =
            estimate::fit(source, source->parameterValues, {experiment},
                          settingsFor(estimate::EstimationMethod::OutputError, estimate::SensitivityMethod::Structural),
                          nullptr, stop.get_token());
        QVERIFY(result.cancelled());
    }

    void namesRoundTrip()
    {
        for (auto m : {estimate::SensitivityMethod::Forward, estimate::SensitivityMethod::Structural})
            QCOMPARE(estimate::kSensitivityMethods.parse(estimate::kSensitivityMethods.name(m)), std::optional(m));
        QVERIFY(!estimate::kSensitivityMethods.parse("meissinger"));
    }
};

QTEST_APPLESS_MAIN(TestStructuralFit)
#include "test_structural_fit.moc"
