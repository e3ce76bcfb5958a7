// Seed 001 cases for optimal estimation: the mass-spring-damper of §3.4 (m = b = k = 1 from
// starting values 10 and 50, 101 shooting points) and the residual-based detection of a missing
// friction term (§4.2, Fig. 4.6).
#include "ValidationSupport.h"

#include "engine/estimate/OptimalEstimation.h"
#include "engine/model/SymbolicLock.h"

#include <QtTest>

#include <mutex>

using namespace sysid;
using namespace sysid::validation;

namespace {

integrate::InputSignals actuatorForce()
{
    return integrate::InputSignals::fromTable({"u"}, data::readCsv(examplePath("mass_spring_damper_input.csv")));
}

// A noise-free record of `truthText` driven by the stand-in actuator force, 0..10 s every 0.01 s.
estimate::Experiment record(const std::string& truthText, const integrate::InputSignals& inputs)
{
    std::shared_ptr<const eval::CompiledModelSource> source;
    {
        std::lock_guard lock(model::symbolicMutex());
        source = compiledText(truthText, "truth");
    }
    eval::CompiledModel truth(source);
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, 10.0, 0.01);
    request.inputs = &inputs;
    const auto trajectory = integrate::simulate(truth, request, referenceIntegrator());
    estimate::Experiment e;
    e.name = "simulated";
    e.times = request.times;
    e.measured = trajectory.outputs;
    e.outputMeasured.assign(truth.outputCount(), true);
    e.inputs = inputs;
    return e;
}

// Runs `run` on a model parsed from `text`, destroying it under the symbolic lock.
template <class F>
auto withModel(const std::string& text, F&& run)
{
    std::unique_ptr<model::Model> m;
    {
        std::lock_guard lock(model::symbolicMutex());
        m = std::make_unique<model::Model>(model::parseModel(text, "msd_optimal.model"));
    }
    auto result = run(*m);
    std::lock_guard lock(model::symbolicMutex());
    m.reset();
    return result;
}

double correlation(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    const Eigen::VectorXd da = a.array() - a.mean(), db = b.array() - b.mean();
    return da.dot(db) / std::sqrt(da.squaredNorm() * db.squaredNorm());
}

}  // namespace

class TestOptimalEstimationValidation : public QObject {
    Q_OBJECT
private slots:
    void massSpringDamper_data()
    {
        QTest::addColumn<double>("start");
        QTest::addColumn<int>("seedIterations");
        QTest::newRow("start 10 (seed: 8 iterations)") << 10.0 << 8;
        QTest::newRow("start 50 (seed: 11 iterations)") << 50.0 << 11;
    }

    void massSpringDamper()
    {
        QFETCH(double, start);
        QFETCH(int, seedIterations);
        const auto inputs = actuatorForce();
        const std::string text = readText(examplePath("msd_optimal.model"));
        const auto experiment = record(replaced(replaced(replaced(text, "param m = 10", "param m = 1"),
                                                         "param b = 10", "param b = 1"),
                                                "param k = 10", "param k = 1"),
                                       inputs);
        const QString s = QString::number(start);
        const std::string started = replaced(replaced(replaced(text, "param m = 10", ("param m = " + s).toStdString()),
                                                      "param b = 10", ("param b = " + s).toStdString()),
                                             "param k = 10", ("param k = " + s).toStdString());
        estimate::OptimalEstimationSettings settings;
        settings.shootingPoints = 101;
        std::vector<std::size_t> perStage;
        const auto r = withModel(started, [&](const model::Model& m) {
            return estimate::estimateOptimally(m, experiment, settings, [&](const shooting::BvpIteration& it) {
                if (perStage.size() <= it.stage)
                    perStage.resize(it.stage + 1, 0);
                ++perStage[it.stage];
            });
        });
        QString stages;
        for (std::size_t n : perStage)
            stages += (stages.isEmpty() ? "" : " + ") + QString::number(n);
        qInfo("MSD from %g: m = %.6f b = %.6f k = %.6f (drift %.1e %.1e %.1e), %zu Newton iterations (%s per stage; "
              "seed RMUSN: %d), |F| = %.1e, J = %.2e, %s",
              start, r.parameters(0), r.parameters(1), r.parameters(2), r.parameterDrift(0), r.parameterDrift(1),
              r.parameterDrift(2), r.iterations, qPrintable(stages), seedIterations, r.residualNorm, r.cost,
              r.message.c_str());
        QVERIFY2(r.converged, r.message.c_str());
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY2(std::abs(r.parameters(i) - 1.0) < 1e-4, qPrintable(QString::fromStdString(r.parameterNames[static_cast<std::size_t>(i)])));
        QVERIFY((r.states.col(0) - experiment.measured.col(0)).cwiseAbs().maxCoeff() < 1e-4);
    }

    // The example record shipped with msd_optimal.model is this simulation.
    void exampleDataIsTheSimulatedRecord()
    {
        const auto inputs = actuatorForce();
        const std::string text = readText(examplePath("msd_optimal.model"));
        const auto experiment = record(replaced(replaced(replaced(text, "param m = 10", "param m = 1"),
                                                         "param b = 10", "param b = 1"),
                                                "param k = 10", "param k = 1"),
                                       inputs);
        const auto table = data::readCsv(examplePath("msd_optimal_data.csv"));
        const auto& s = table.column("s");
        QCOMPARE(s.size(), experiment.times.size());
        for (std::size_t k = 0; k < s.size(); ++k)
            QVERIFY(std::abs(s[k] - experiment.measured(static_cast<Eigen::Index>(k), 0)) < 1e-12);
    }

    // Data with a smoothed Coulomb friction fc*tanh(v/0.05), a model without it: the residual
    // on the equation of motion, a - phi = -fc*tanh(v/0.05)/m, carries the missing force:
    // it correlates negatively with sign(v). Without friction in the data it vanishes.
    void residualRevealsMissingFriction()
    {
        const auto [c, rms] = frictionResidual(0.3);
        QVERIFY(c < -0.8);
        QVERIFY(rms > 0.1);
        const auto [c0, rms0] = frictionResidual(0.0);
        Q_UNUSED(c0);
        QVERIFY(rms0 < 1e-3);
    }

private:
    // Correlation of the equation-of-motion residual with sign(v), and its rms.
    static std::pair<double, double> frictionResidual(double fc)
    {
        const auto inputs = actuatorForce();
        const auto experiment = record("param m = 1\nparam b = 1\nparam k = 1\nparam fc = " + std::to_string(fc) +
                                           "\ninput u\ns'' = (u - b*s' - k*s - fc*tanh(s'/0.05))/m\ns(0) = 0, 0\n"
                                           "output s\n",
                                       inputs);
        estimate::OptimalEstimationSettings settings;
        settings.shootingPoints = 101;
        // The kinematic couplings and the sensors are trusted more than the equation of
        // motion; with equal weights the missing force is shared with the input residual.
        settings.stateWeights = {{"s", 1e2}, {"s'", 1e2}};
        settings.measurementWeights = {{"s", 1e2}, {"u", 1e1}};
        const auto r = withModel("param m = 1 fixed\nparam b = 1 fixed\nparam k = 1 fixed\ninput u\n"
                                 "s'' = (u - b*s' - k*s)/m\ns(0) = 0, 0\noutput s\n",
                                 [&](const model::Model& m) { return estimate::estimateOptimally(m, experiment, settings); });
        if (!r.converged)
            qWarning("friction %g: %s", fc, r.message.c_str());
        const auto eom = std::find(r.residualNames.begin(), r.residualNames.end(), "eps:eom:s") - r.residualNames.begin();
        if (!r.converged || eom >= static_cast<long>(r.residualNames.size()))
            return {0.0, 0.0};
        const Eigen::VectorXd residual = r.residuals.col(eom);
        const Eigen::VectorXd signV = r.states.col(1).unaryExpr([](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; });
        const double c = correlation(residual, signV);
        const double rms = std::sqrt(residual.squaredNorm() / static_cast<double>(residual.size()));
        qInfo("friction force %g: eom residual vs sign(v) correlation %.3f, rms %.3g; %zu iterations", fc, c, rms,
              r.iterations);
        return {c, rms};
    }
};

QTEST_GUILESS_MAIN(TestOptimalEstimationValidation)
#include "test_optimal_estimation_validation.moc"
