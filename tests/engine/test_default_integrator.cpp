// The integrator a model runs with when nobody chose one (issue 7: "stiff by default" for PDE
// models): sparse-implicit for a model with fields, dopri5 otherwise; a choice always wins. Known
// answers: a 100-node rod (largest eigenvalue about 4 alpha / dx^2 = 4e4) is stiff, so with a step
// budget of 2000 the default runs and gives exactly the sparse-implicit result, while a chosen
// dopri5 (stability limit h < 3.3 / 4e4, i.e. about 12 000 steps) is refused for too many steps.

#include "engine/eval/CompiledModelSource.h"
#include "engine/integrate/IntegratorSettings.h"
#include "engine/job/FitJob.h"
#include "engine/job/SimulationJob.h"
#include "engine/model/ModelBuilder.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace sysid;
using integrate::IntegrationMethod;

namespace {

const std::string kRod = "field s on x in [0, 1] nodes 100\n"
                         "param alpha = 1 [0.01, 10]\n"
                         "s_t = alpha * s_xx\n"
                         "s(0, t) = 0 ; s(1, t) = 0\n"
                         "s(x, 0) = sin(pi*x)\n"
                         "output s(0.5)\n";

const std::string kOscillator = "param c = 0.1\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n";

// Seed 003 example 1 (resources/examples/heat_rod.model) with one parameter.
const std::string kSmallRod = "field s on x in [0, 0.8] nodes 3\n"
                              "param alpha = 0.2 [0.001, 1]\n"
                              "s_t = alpha * s_xx\n"
                              "s(0, t) = 0 ; s(0.8, t) = 0\n"
                              "s(x, 0) = 1\n"
                              "output s(0.4)\n";

job::SimulationJob rodSimulation(const integrate::IntegratorSettings& settings)
{
    job::SimulationJob job;
    job.modelText = kRod;
    job.modelSource = "rod.model";
    job.settings = settings;
    job.settings.maxSteps = 2000;
    for (int k = 0; k <= 20; ++k)
        job.times.push_back(0.01 * k);
    return job;
}

class LogSink final : public job::ProgressSink {
public:
    void iteration(const estimate::IterationRecord&) override {}
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
    void log(const std::string& line) override { lines.push_back(line); }
    void finished(job::JobStatus, const std::string&) override {}
    bool logged(const std::string& part) const
    {
        for (const auto& l : lines)
            if (l.find(part) != std::string::npos)
                return true;
        return false;
    }
    std::vector<std::string> lines;
};

}  // namespace

class TestDefaultIntegrator : public QObject {
    Q_OBJECT

private slots:
    void fieldsMakeTheDefaultSparseImplicit()
    {
        const model::Model rod = model::parseModel(kRod, "rod.model");
        const model::Model oscillator = model::parseModel(kOscillator, "osc.model");
        QVERIFY(integrate::defaultMethodFor(rod) == IntegrationMethod::SparseImplicit);
        QVERIFY(integrate::defaultMethodFor(oscillator) == IntegrationMethod::Dopri5);
        QVERIFY(integrate::defaultMethodFor(*eval::compileModel(rod)) == IntegrationMethod::SparseImplicit);
        QVERIFY(integrate::defaultMethodFor(*eval::compileModel(oscillator)) == IntegrationMethod::Dopri5);
    }

    void aChoiceWins()
    {
        const model::Model rod = model::parseModel(kRod, "rod.model");
        integrate::IntegratorSettings unchosen;
        QVERIFY(!unchosen.methodChosen);
        integrate::resolveMethod(unchosen, rod);
        QVERIFY(unchosen.method == IntegrationMethod::SparseImplicit);
        QVERIFY(!unchosen.methodChosen);  // still open: saving leaves it out
        for (const auto method :
             {IntegrationMethod::Dopri5, IntegrationMethod::Rosenbrock4, IntegrationMethod::CrankNicolson}) {
            integrate::IntegratorSettings chosen;
            chosen.method = method;
            chosen.methodChosen = true;
            integrate::resolveMethod(chosen, rod);
            QVERIFY(chosen.method == method);
        }
        // Back to a model without fields, an unchosen method follows it again.
        integrate::resolveMethod(unchosen, model::parseModel(kOscillator, "osc.model"));
        QVERIFY(unchosen.method == IntegrationMethod::Dopri5);
    }

    void simulationOfAFieldModelRunsStiffByDefault()
    {
        job::NullProgressSink sink;
        const integrate::Trajectory byDefault = rodSimulation({}).run(sink);
        integrate::IntegratorSettings sparse;
        sparse.method = IntegrationMethod::SparseImplicit;
        sparse.methodChosen = true;
        const integrate::Trajectory chosen = rodSimulation(sparse).run(sink);
        QCOMPARE(byDefault.outputs.rows(), Eigen::Index{21});
        QVERIFY(byDefault.outputs == chosen.outputs);
        // The slowest mode sin(pi x) decays by exp(-alpha lambda_1 t), lambda_1 = (2/dx sin(pi dx/2))^2.
        const double dx = 1.0 / 101, lambda1 = std::pow(2 / dx * std::sin(M_PI * dx / 2), 2);
        const double expected = std::sin(M_PI * 50 * dx) * std::exp(-lambda1 * 0.2);
        QVERIFY2(std::abs(byDefault.outputs(20, 0) - expected) < 1e-6,
                 qPrintable(QString("%1 vs %2").arg(byDefault.outputs(20, 0)).arg(expected)));

        integrate::IntegratorSettings dopri;
        dopri.methodChosen = true;  // dopri5 chosen by hand
        try {
            rodSimulation(dopri).run(sink);
            QFAIL("dopri5 integrated the stiff rod within 2000 steps");
        } catch (const job::JobError& e) {
            QCOMPARE(e.kind(), job::JobError::Kind::Integration);
        }
    }

    void fitLogNamesTheIntegrator()
    {
        job::NullProgressSink quiet;
        job::SimulationJob truth;
        truth.modelText = kSmallRod;
        truth.parameterValues = {{"alpha", 0.15}};
        for (int k = 0; k <= 30; ++k)
            truth.times.push_back(0.1 * k);
        const integrate::Trajectory tr = truth.run(quiet);

        job::FitJob fit;
        fit.modelText = kSmallRod;
        fit.modelSource = "rod.model";
        job::ExperimentData data;
        data.table.source = "rod.csv";
        data.table.columnNames = {"t", "s(0.4)"};
        std::vector<double> y(tr.outputs.col(0).data(), tr.outputs.col(0).data() + tr.outputs.rows());
        data.table.columns = {truth.times, y};
        data.table.timeColumn = 0;
        fit.experiments.push_back(data);
        LogSink sink;
        const estimate::FitResult result = fit.run(sink);
        QVERIFY(result.converged());
        QVERIFY(std::abs(result.parameters[0].value - 0.15) < 1e-6);
        QVERIFY(sink.logged("integrator sparse-implicit (default for this model)"));

        fit.settings.integrator.method = IntegrationMethod::Rosenbrock4;
        fit.settings.integrator.methodChosen = true;
        LogSink chosen;
        fit.run(chosen);
        QVERIFY(chosen.logged(", integrator rosenbrock4"));
        QVERIFY(!chosen.logged("default for this model"));
    }
};

QTEST_GUILESS_MAIN(TestDefaultIntegrator)
#include "test_default_integrator.moc"
