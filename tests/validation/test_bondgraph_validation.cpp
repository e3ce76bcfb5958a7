// Bond-graph models against the same systems written as equations (seed 002's bond graphs):
// the mass-spring-damper (bondgraph_msd.model vs mass_spring_damper.model) and a DC motor with a
// gear and a load inertia (bondgraph_dc_motor.model vs dc_motor_gear.model, written by hand) simulate
// alike to integration tolerance, have the same parameter sensitivities, and fit the same data to
// the same estimates; the bundled projects fit their records.

#include "ValidationSupport.h"

#include "engine/job/FitJob.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"

#include <QtTest>

using namespace sysid;
using validation::estimateOf;

namespace {

integrate::InputSignals inputsFrom(const eval::CompiledModelSource& model, const std::string& csv)
{
    return integrate::InputSignals::fromTable(model.inputNames, data::readCsv(validation::examplePath(csv)), {},
                                              model.declaredIntersample);
}

class Quiet final : public job::ProgressSink {
    void started(const std::vector<std::string>&) override {}
    void iteration(const estimate::IterationRecord&) override {}
    void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
    void log(const std::string&) override {}
    void finished(job::JobStatus, const std::string&) override {}
};

// Largest |a - b| over the outputs, relative to the largest |b|.
double relativeDifference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

}  // namespace

class TestBondGraphValidation : public QObject {
    Q_OBJECT

    struct Pair {
        std::shared_ptr<const eval::CompiledModelSource> graph, equations;
        integrate::InputSignals inputs;
        std::vector<double> times;
    };

    static Pair massSpringDamper()
    {
        Pair p{validation::compiledExample("bondgraph_msd.model"),
               validation::compiledExample("mass_spring_damper.model"),
               {},
               integrate::uniformGrid(0.0, 10.0, 0.01)};
        p.inputs = integrate::InputSignals::fromTable(p.graph->inputNames,
                                                      data::readCsv(validation::examplePath("mass_spring_damper_input.csv")));
        return p;
    }

    static Pair dcMotor()
    {
        Pair p{validation::compiledExample("bondgraph_dc_motor.model"), validation::compiledExample("dc_motor_gear.model"),
               {}, integrate::uniformGrid(0.0, 6.0, 0.01)};
        p.inputs = inputsFrom(*p.graph, "data/bondgraph_dc_motor_measured.csv");
        return p;
    }

    // Both models over the same input and parameters, outputs compared; also dy/dp for every parameter.
    static void compareSimulations(const Pair& p, const integrate::IntegratorSettings& settings, double tolerance,
                                   const char* what)
    {
        QCOMPARE(p.graph->parameterNames, p.equations->parameterNames);
        QCOMPARE(p.graph->inputNames, p.equations->inputNames);
        QCOMPARE(p.graph->outputNames, p.equations->outputNames);
        eval::CompiledModel graph(p.graph), equations(p.equations);
        integrate::SimulationRequest request;
        request.times = p.times;
        request.inputs = &p.inputs;
        for (std::size_t j = 0; j < p.graph->parameterNames.size(); ++j)
            if (!p.graph->parameters[j].fixed)
                request.sensitivityParameters.push_back(j);
        const integrate::Trajectory a = integrate::simulate(graph, request, settings);
        const integrate::Trajectory b = integrate::simulate(equations, request, settings);
        const double outputs = relativeDifference(a.outputs, b.outputs);
        double sensitivities = 0.0;
        for (std::size_t k = 0; k < a.outputParameterSensitivity.size(); ++k)
            sensitivities = std::max(sensitivities, relativeDifference(a.outputParameterSensitivity[k],
                                                                       b.outputParameterSensitivity[k]));
        qInfo("%s, rtol %g: outputs differ by %.2e, dy/dp by %.2e (relative to their largest values)", what,
              settings.relativeTolerance, outputs, sensitivities);
        QVERIFY2(outputs < tolerance, what);
        QVERIFY2(sensitivities < 10 * tolerance, what);
    }

    // A fit of both models to one record from the same start: the same estimates (one cost
    // function, two sets of state coordinates), near the truth.
    static void compareFits(const Pair& p, const std::vector<std::pair<std::string, double>>& truth,
                            const std::vector<std::pair<std::string, double>>& start, double noisePercent,
                            double truthTolerance, const char* what)
    {
        const auto record = validation::simulatedRecord(p.equations, validation::valuesWith(*p.equations, truth),
                                                        p.times, noisePercent, 1, data::NoiseDistribution::Uniform,
                                                        &p.inputs);
        estimate::FitSettings settings;
        settings.integrator = validation::fitIntegrator();
        const auto graph = validation::fitOrReport(p.graph, validation::valuesWith(*p.graph, start), {record}, settings);
        const auto equations =
            validation::fitOrReport(p.equations, validation::valuesWith(*p.equations, start), {record}, settings);
        QVERIFY2(graph.converged(), graph.termination.message.c_str());
        QVERIFY2(equations.converged(), equations.termination.message.c_str());
        qInfo("%s", qPrintable(validation::resultLine(QString::fromLatin1(what) + QStringLiteral(", bond graph"), graph,
                                                      truth, false, 44)));
        qInfo("%s", qPrintable(validation::resultLine(QString::fromLatin1(what) + QStringLiteral(", equations"),
                                                      equations, truth, false, 44)));
        for (const auto& [name, value] : truth) {
            const double g = estimateOf(graph, name).value, e = estimateOf(equations, name).value;
            QVERIFY2(validation::relativeError(g, e) < 1e-5, qPrintable(QStringLiteral("%1: bond graph %2, equations %3")
                                                                            .arg(name.c_str())
                                                                            .arg(g, 0, 'g', 12)
                                                                            .arg(e, 0, 'g', 12)));
            QVERIFY2(validation::relativeError(g, value) < truthTolerance,
                     qPrintable(QStringLiteral("%1 = %2, true %3").arg(name.c_str()).arg(g).arg(value)));
        }
    }

private slots:
    void massSpringDamperSimulatesLikeTheEquations()
    {
        const Pair p = massSpringDamper();
        compareSimulations(p, validation::referenceIntegrator(), 1e-9, "mass-spring-damper");
        compareSimulations(p, integrate::IntegratorSettings{}, 1e-5, "mass-spring-damper");
    }

    void dcMotorSimulatesLikeTheEquations()
    {
        const Pair p = dcMotor();
        compareSimulations(p, validation::referenceIntegrator(), 1e-9, "DC motor");
        compareSimulations(p, integrate::IntegratorSettings{}, 1e-5, "DC motor");
    }

    void massSpringDamperFits()
    {
        compareFits(massSpringDamper(), {{"m", 1.0}, {"b", 1.0}, {"k", 1.0}}, {{"m", 10.0}, {"b", 10.0}, {"k", 10.0}},
                    2.0, 0.02, "mass-spring-damper from 10, 2 % noise");
    }

    void dcMotorFits()
    {
        compareFits(dcMotor(), {{"Ra", 2.0}, {"La", 0.05}, {"K", 0.1}, {"bm", 1e-4}, {"J", 0.5}},
                    {{"Ra", 3.0}, {"La", 0.03}, {"K", 0.15}, {"bm", 2e-4}, {"J", 0.8}}, 0.0, 1e-6,
                    "DC motor from ~50 % off, no noise");
    }

    // The bundled projects: the bond-graph mass-spring-damper gives the equation model's estimates
    // on its measured record, the DC motor its true values within their standard deviations.
    void bundledProjects()
    {
        Quiet quiet;
        const auto graph = project::makeFitJob(project::loadProject(validation::examplePath("bondgraph_msd.sysid")))
                               .run(quiet);
        const auto equations =
            project::makeFitJob(project::loadProject(validation::examplePath("mass_spring_damper.sysid"))).run(quiet);
        QVERIFY(graph.converged() && equations.converged());
        for (const char* name : {"m", "b", "k"})
            QVERIFY2(validation::relativeError(estimateOf(graph, name).value, estimateOf(equations, name).value) < 1e-6,
                     name);
        const auto motor =
            project::makeFitJob(project::loadProject(validation::examplePath("bondgraph_dc_motor.sysid"))).run(quiet);
        QVERIFY2(motor.converged(), motor.termination.message.c_str());
        const std::vector<std::pair<std::string, double>> truth{
            {"Ra", 2.0}, {"La", 0.05}, {"K", 0.1}, {"bm", 1e-4}, {"J", 0.5}};
        qInfo("%s", qPrintable(validation::resultLine(QStringLiteral("bondgraph_dc_motor.sysid"), motor, truth, false, 44)));
        for (const auto& [name, value] : truth) {
            const auto& e = estimateOf(motor, name);
            QVERIFY2(std::abs(e.value - value) < 4 * e.sd,
                     qPrintable(QStringLiteral("%1 = %2 +- %3, true %4")
                                    .arg(name.c_str())
                                    .arg(e.value)
                                    .arg(e.sd)
                                    .arg(value)));
        }
    }
};

QTEST_GUILESS_MAIN(TestBondGraphValidation)
#include "test_bondgraph_validation.moc"
