// The structural-sensitivity method (seed 003, Bordan 1971 sec. 3.4) against analytic
// sensitivities and against the forward (Meissinger) sensitivity equations the Simulator
// integrates: the gradient of the seed's J = int sum_i (q_i - S_i)^2 dt on seed 003's examples.
#include "IntegrationTestSupport.h"
#include "Seed003Models.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/Simulator.h"
#include "engine/integrate/StructuralSensitivity.h"
#include "engine/model/ModelBuilder.h"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <stdexcept>

using namespace sysid;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

using integrate::uniformGrid;
using test::compiledSource;

// dJ/dp = -2 int sum_i (q_i - y_i) dy_i/dp dt by the trapezoid rule over the samples.
VectorXd gradient(const std::vector<double>& t, const MatrixXd& measured, const MatrixXd& outputs,
                  const std::vector<MatrixXd>& sensitivity)
{
    VectorXd g = VectorXd::Zero(sensitivity.front().cols());
    for (std::size_t s = 0; s < t.size(); ++s) {
        const double left = s > 0 ? t[s] - t[s - 1] : 0.0;
        const double right = s + 1 < t.size() ? t[s + 1] - t[s] : 0.0;
        const auto ss = static_cast<Eigen::Index>(s);
        const VectorXd error = (measured.row(ss) - outputs.row(ss)).transpose();
        g -= (left + right) * sensitivity[s].transpose() * error;
    }
    return g;
}

integrate::IntegratorSettings tight()
{
    integrate::IntegratorSettings s;
    s.relativeTolerance = 1e-12;
    s.absoluteTolerance = 1e-14;
    return s;
}

using test::seed003::perNode;
using test::seed003::Values;

// Gradient at `start` of J against data simulated at `truth`, by both methods; they must agree
// to 1e-6 relative. Prints both costs.
void compareOnSeedExample(const QString& label, const std::string& text, const Values& truth, const Values& start)
{
    const auto source = compiledSource(text);
    eval::CompiledModel model(source);
    const std::vector<double> times = uniformGrid(0, 3, 0.05);  // the validation suite's 0..3 every 0.05
    std::vector<double> values = source->parameterValues;
    for (const auto& [name, v] : truth)
        values[test::parameter(*source, name)] = v;
    model.setParameters(values);
    integrate::SimulationRequest dataRequest;
    dataRequest.times = times;
    const MatrixXd measured = integrate::simulate(model, dataRequest, tight()).outputs;

    values = source->parameterValues;
    for (const auto& [name, v] : start)
        values[test::parameter(*source, name)] = v;
    model.setParameters(values);
    std::vector<std::size_t> parameters;
    for (const auto& [name, v] : truth)
        parameters.push_back(test::parameter(*source, name));

    const auto t0 = std::chrono::steady_clock::now();
    integrate::SimulationRequest forward;
    forward.times = times;
    forward.sensitivityParameters = parameters;
    const auto meissinger = integrate::simulate(model, forward, tight());
    const auto t1 = std::chrono::steady_clock::now();
    integrate::StructuralSensitivityRequest request;
    request.times = times;
    request.parameters = parameters;
    const auto structural = integrate::structuralSensitivity(model, request);
    const auto t2 = std::chrono::steady_clock::now();

    const VectorXd gm = gradient(times, measured, meissinger.outputs, meissinger.outputParameterSensitivity);
    const VectorXd gs = gradient(times, measured, structural.outputs, structural.outputSensitivity);
    const double difference = (gm - gs).norm() / gm.norm();
    const auto n = static_cast<std::size_t>(source->stateCount());
    using ms = std::chrono::duration<double, std::milli>;
    qInfo().noquote() << QStringLiteral("%1: |dJ/dp| %2, relative difference %3 | Meissinger: %4 equations, %5 ms "
                                        "(dopri5, rtol 1e-12) | structural: %6 + %7 equations, %8 matrix exponentials, "
                                        "%9 steps, %10 ms")
                             .arg(label.leftJustified(24))
                             .arg(gm.norm(), 0, 'e', 4)
                             .arg(difference, 0, 'e', 2)
                             .arg(n * (1 + parameters.size()))
                             .arg(ms(t1 - t0).count(), 0, 'f', 1)
                             .arg(structural.stateEquations)
                             .arg(structural.sensitivityEquations)
                             .arg(structural.matrixExponentials)
                             .arg(structural.steps)
                             .arg(ms(t2 - t1).count(), 0, 'f', 1);
    QVERIFY2(difference < 1e-6, qPrintable(label + QStringLiteral(": gradients differ by %1").arg(difference)));
    const double stateDifference = (meissinger.states - structural.states).cwiseAbs().maxCoeff();
    QVERIFY2(stateDifference < 1e-9, qPrintable(QString::number(stateDifference)));
}

}  // namespace

class TestStructuralSensitivity : public QObject {
    Q_OBJECT
private slots:
    // x' = -k x + b, x(0) = 1: x = b/k + (1 - b/k) e^{-kt};
    // dx/db = (1 - e^{-kt}) / k, dx/dk = -b/k^2 (1 - e^{-kt}) - (1 - b/k) t e^{-kt}.
    void scalarAnalytic()
    {
        const auto source = compiledSource("param k = 2\nparam b = 0.5\nstate x = 1\nx' = -k*x + b\noutput y = 3*x\n");
        eval::CompiledModel model(source);
        model.setParameters(source->parameterValues);
        integrate::StructuralSensitivityRequest request;
        request.times = uniformGrid(0, 3, 0.1);
        request.parameters = {test::parameter(*source, "k"), test::parameter(*source, "b")};
        const auto r = integrate::structuralSensitivity(model, request);
        const double k = 2, b = 0.5;
        for (std::size_t s = 0; s < request.times.size(); ++s) {
            const double t = request.times[s], e = std::exp(-k * t);
            const auto ss = static_cast<Eigen::Index>(s);
            QVERIFY(std::abs(r.states(ss, 0) - (b / k + (1 - b / k) * e)) < 1e-12);
            const double dk = -b / (k * k) * (1 - e) - (1 - b / k) * t * e;
            const double db = (1 - e) / k;
            QVERIFY2(std::abs(r.stateSensitivity[s](0, 0) - dk) < 1e-9,
                     qPrintable(QString::number(r.stateSensitivity[s](0, 0) - dk)));
            QVERIFY2(std::abs(r.stateSensitivity[s](0, 1) - db) < 1e-9,
                     qPrintable(QString::number(r.stateSensitivity[s](0, 1) - db)));
            QVERIFY(std::abs(r.outputSensitivity[s](0, 0) - 3 * dk) < 3e-9);
        }
        QCOMPARE(r.sensitivityEquations, std::size_t{2});
    }

    // A time-varying forcing and an estimated initial value: x' = -x + a sin(t), x(0) = x0;
    // dx/da = (sin t - cos t + e^{-t}) / 2, dx/dx0 = e^{-t}.
    void forcedWithInitialValue()
    {
        const auto source =
            compiledSource("param a = 1.5\nparam x0 = 0.3\nstate x = x0\nx' = -x + a*sin(t)\noutput x\n");
        eval::CompiledModel model(source);
        model.setParameters(source->parameterValues);
        integrate::StructuralSensitivityRequest request;
        request.times = uniformGrid(0, 5, 0.25);
        request.parameters = {test::parameter(*source, "a"), test::parameter(*source, "x0")};
        request.maxStep = 0.01;
        const auto r = integrate::structuralSensitivity(model, request);
        for (std::size_t s = 0; s < request.times.size(); ++s) {
            const double t = request.times[s];
            const double da = 0.5 * (std::sin(t) - std::cos(t) + std::exp(-t));
            QVERIFY2(std::abs(r.stateSensitivity[s](0, 0) - da) < 1e-9,
                     qPrintable(QString::number(r.stateSensitivity[s](0, 0) - da)));
            QVERIFY(std::abs(r.stateSensitivity[s](0, 1) - std::exp(-t)) < 1e-12);
        }
    }

    void rejectsNonlinearModel()
    {
        const auto source = compiledSource("param k = 1\nstate x = 1\nstate v = 0\nx' = v\nv' = -k*x^3\noutput x\n");
        eval::CompiledModel model(source);
        model.setParameters(source->parameterValues);
        integrate::StructuralSensitivityRequest request;
        request.times = uniformGrid(0, 1, 0.1);
        request.parameters = {0};
        try {
            (void)integrate::structuralSensitivity(model, request);
            QFAIL("a nonlinear model was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("state v") != std::string::npos, e.what());
        }
        request.times = {0.0, 0.0};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, integrate::structuralSensitivity(model, request));
    }

    void seedExample1()
    {
        const std::string& text = test::seed003::example1;
        compareOnSeedExample("example 1, start 0.2", text, perNode("alpha", {0.1, 0.15, 0.18}),
                             perNode("alpha", {0.2, 0.2, 0.2}));
        compareOnSeedExample("example 1, start 0.05", text, perNode("alpha", {0.1, 0.15, 0.18}),
                             perNode("alpha", {0.05, 0.05, 0.05}));
    }

    void seedExample3()
    {
        const std::string& text = test::seed003::example3;
        compareOnSeedExample("example 3", text, {{"a", -0.25}, {"b", 0.11}}, {{"a", 0.05}, {"b", 0.05}});
    }

    void seedExample4()
    {
        const std::string& perNodeText = test::seed003::example4PerNode;
        compareOnSeedExample("example 4, per node", perNodeText, perNode("alpha", {0.2, 0.18, 0.16, 0.14, 0.12}),
                             perNode("alpha", {0.1, 0.1, 0.1, 0.1, 0.1}));
        const std::string& linear = test::seed003::example4Linear;
        compareOnSeedExample("example 4, a x + b", linear, {{"a", -0.1}, {"b", 0.22}}, {{"a", 0.0}, {"b", 0.1}});
    }

    void seedExample5()
    {
        const std::string& text = test::seed003::example5;
        Values truth = perNode("r", {0.1, 0.15, 0.2});
        for (const auto& v : perNode("v", {0.1, 0.15, 0.2}))
            truth.push_back(v);
        Values start = perNode("r", {0.2, 0.2, 0.2});
        for (const auto& v : perNode("v", {0.2, 0.2, 0.2}))
            start.push_back(v);
        compareOnSeedExample("example 5 (2-D)", text, truth, start);
    }
};

QTEST_APPLESS_MAIN(TestStructuralSensitivity)
#include "test_structural_sensitivity.moc"
