// Seed 001 cases for optimal estimation: the mass-spring-damper of §3.4 (m = b = k = 1 from
// starting values 10 and 50, 101 shooting points) and the residual-based detection of a missing
// friction term (§4.2, Fig. 4.6).
#include "ValidationSupport.h"

#include "engine/estimate/OptimalEstimation.h"
#include "engine/model/SymbolicLock.h"
#include "engine/project/Project.h"

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
estimate::Experiment record(const std::string& truthText, const integrate::InputSignals& inputs,
                            std::vector<double> times = integrate::uniformGrid(0.0, 10.0, 0.01))
{
    std::shared_ptr<const eval::CompiledModelSource> source;
    {
        std::lock_guard lock(model::symbolicMutex());
        source = compiledText(truthText, "truth");
    }
    eval::CompiledModel truth(source);
    integrate::SimulationRequest request;
    request.times = std::move(times);
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

// The flexible manipulator of seed ch. 4 driven by the stand-in sweep command, both angles
// measured every 1 ms over 0..1 s (the seed's record; it does not state its sampling rate).
estimate::Experiment manipulatorRecord(const std::string& truthText)
{
    const auto command =
        integrate::InputSignals::fromTable({"u"}, data::readCsv(examplePath("flexible_manipulator_torque.csv")));
    return record(truthText, command, integrate::uniformGrid(0.0, 1.0, 0.001));
}

// The settings of the bundled project flexible_manipulator_optimal.sysid: the seed's weights for
// model 1 (§4.2: q_a, W_a = 1e5 on the angles and velocities, V = [1 1 1e4 1e9 1e9]).
estimate::OptimalEstimationSettings manipulatorSettings()
{
    const project::Project p = project::loadProject(examplePath("flexible_manipulator_optimal.sysid"));
    if (!p.optimalEstimation)
        throw std::runtime_error("flexible_manipulator_optimal.sysid has no optimal_estimation settings");
    return *p.optimalEstimation;
}

// msd_optimal.model with m, b and k (10 in the file) all set to `value`.
std::string msdModelWith(const std::string& value)
{
    const std::string text = readText(examplePath("msd_optimal.model"));
    return replaced(
        replaced(replaced(text, "param m = 10", "param m = " + value), "param b = 10", "param b = " + value),
        "param k = 10", "param k = " + value);
}

// Runs `run` on a model parsed from `text` (with the starting `values` of some parameters),
// destroying it under the symbolic lock.
template <class F>
auto withModel(const std::string& text, F&& run, const std::map<std::string, double>& values = {})
{
    std::unique_ptr<model::Model> m;
    {
        std::lock_guard lock(model::symbolicMutex());
        m = std::make_unique<model::Model>(model::parseModel(text, "msd_optimal.model"));
        for (auto& parameter : m->parameters)
            if (const auto it = values.find(parameter.name); it != values.end())
                parameter.value = it->second;
    }
    auto result = run(*m);
    std::lock_guard lock(model::symbolicMutex());
    m.reset();
    return result;
}

// Newton iterations per stage of an optimal estimation, counted by its observer.
struct StageIterations {
    std::vector<std::size_t> perStage;

    void count(const shooting::BvpIteration& it)
    {
        if (perStage.size() <= it.stage)
            perStage.resize(it.stage + 1, 0);
        ++perStage[it.stage];
    }
    // "3 + 5 + 1"
    QString text() const
    {
        QString stages;
        for (std::size_t n : perStage)
            stages += (stages.isEmpty() ? "" : " + ") + QString::number(n);
        return stages;
    }
};

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
        QTest::addColumn<bool>("finiteDifferences");
        QTest::addColumn<bool>("withoutEuler");
        QTest::newRow("start 10 (seed: 8 iterations)") << 10.0 << 8 << false << false;
        QTest::newRow("start 50 (seed: 11 iterations)") << 50.0 << 11 << false << false;
        QTest::newRow("start 10, finite-difference interval Jacobians as in RMUSN") << 10.0 << 8 << true << false;
        QTest::newRow("start 10, dopri5 stages only") << 10.0 << 8 << false << true;
        QTest::newRow("start 50, dopri5 stages only") << 50.0 << 11 << false << true;
    }

    void massSpringDamper()
    {
        QFETCH(double, start);
        QFETCH(int, seedIterations);
        QFETCH(bool, finiteDifferences);
        QFETCH(bool, withoutEuler);
        const auto inputs = actuatorForce();
        const auto experiment = record(msdModelWith("1"), inputs);
        const std::string started = msdModelWith(QString::number(start).toStdString());
        estimate::OptimalEstimationSettings settings;
        settings.shootingPoints = 101;
        if (finiteDifferences)
            settings.bvp.jacobian = shooting::IntervalJacobian::FiniteDifferences;
        if (withoutEuler) {
            settings.stages = estimate::defaultOptimalEstimationStages();
            settings.stages.erase(settings.stages.begin());
        }
        StageIterations iterations;
        const auto r = withModel(started, [&](const model::Model& m) {
            return estimate::estimateOptimally(m, experiment, settings,
                                               [&](const shooting::BvpIteration& it) { iterations.count(it); });
        });
        const QString stages = iterations.text();
        qInfo("MSD from %g: m = %.6f b = %.6f k = %.6f (drift %.1e %.1e %.1e), %zu Newton iterations (%s per stage; "
              "seed RMUSN: %d), |F| = %.1e, J = %.2e, %s",
              start, r.parameters(0), r.parameters(1), r.parameters(2), r.parameterDrift(0), r.parameterDrift(1),
              r.parameterDrift(2), r.iterations, qPrintable(stages), seedIterations, r.residualNorm, r.cost,
              r.termination.message.c_str());
        QVERIFY2(r.converged(), r.termination.message.c_str());
        // The seed's counts hold for the plain loose-to-tight dopri5 schedule; the default adds an
        // Euler stage first (for stiff problems such as the mixture), which costs a few more.
        if (withoutEuler)
            QVERIFY2(r.iterations <= static_cast<std::size_t>(seedIterations),
                     qPrintable(QString::number(r.iterations)));
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY2(std::abs(r.parameters(i) - 1.0) < 1e-4,
                     qPrintable(QString::fromStdString(r.parameterNames[static_cast<std::size_t>(i)])));
        QVERIFY((r.states.col(0) - experiment.measured.col(0)).cwiseAbs().maxCoeff() < 1e-4);
    }

    // The example record shipped with msd_optimal.model is this simulation.
    void exampleDataIsTheSimulatedRecord()
    {
        const auto inputs = actuatorForce();
        const auto experiment = record(msdModelWith("1"), inputs);
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

    // Stretch, seed 001 ch. 5: the stiff mixture (10 ODEs; resources/examples/mixture_compression.model
    // is a reconstruction, not the seed's matrices), data with H = 2, K = 1, the seed's guess for
    // the displacements and its loose-to-tight schedule starting with one Euler step per interval.
    // From the seed's start 4, 4 this does not reach the truth (see the expected failures).
    void stiffMixture_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<double>("start");  // H0 = 2 start, K0 = start; 4 means the seed's 4, 4
        QTest::addColumn<int>("eulerSteps");  // explicit Euler steps per interval in the first stage
        QTest::newRow("401 points, start H 2.4, K 1.2") << 401 << 1.2 << 1;
        QTest::newRow("401 points, seed start 4, 4") << 401 << 4.0 << 1;
        QTest::newRow("1001 points, seed start 4, 4, 8 Euler steps per interval") << 1001 << 4.0 << 8;
    }

    void stiffMixture()
    {
        QFETCH(int, points);
        QFETCH(double, start);
        QFETCH(int, eulerSteps);
        const double startH = start == 4.0 ? 4.0 : 2.0 * start;
        const std::string text = readText(examplePath("mixture_compression.model"));
        std::vector<double> times = integrate::uniformGrid(0.0, 1.0, 0.0025), load;
        for (double t : times)
            load.push_back(1.0 - std::exp(-t / 0.05));  // a load step smoothed over 0.05
        const integrate::InputSignals inputs({data::Signal(times, load)});
        std::shared_ptr<const eval::CompiledModelSource> source;
        {
            std::lock_guard lock(model::symbolicMutex());
            source = compiledText(text, "truth");
        }
        eval::CompiledModel truth(source);
        integrate::SimulationRequest request;
        request.times = times;
        request.inputs = &inputs;
        auto integrator = referenceIntegrator();
        integrator.method = integrate::IntegrationMethod::Rosenbrock4;
        const auto trajectory = integrate::simulate(truth, request, integrator);
        estimate::Experiment e;
        e.name = "mixture";
        e.times = times;
        e.measured = trajectory.outputs;
        e.outputMeasured = {true, true};
        e.inputs = inputs;
        estimate::OptimalEstimationSettings settings;
        settings.shootingPoints = static_cast<std::size_t>(points);
        settings.bvp.newton.maxIterations = 200;
        // The seed's guess: displacements linear in the node position, s_k = (k-1)/3 s_m, with s_m
        // the measured filter displacement (the output s4), as a user writes it.
        settings.guessExpressions = {{"s2", "s4/3"}, {"s3", "2*s4/3"}};
        // The stiffest eigenvalue of s' = -36 H K M s (M's eigenvalues 7 +- sqrt(48) and 1) is
        // -36*16*13.93 = -8024 at the start 4, 4 and -1003 at the truth. One Euler step per interval
        // of 1/400 (h*lambda = -20 and -2.5) or 1/1000 (-8 at the start) is outside Euler's stability
        // interval [-2, 0]: the Euler stage then solves a sawtooth discretisation whose stationary
        // points are not the truth's. 8 steps per interval of 1/1000 keep h*lambda >= -1. The window is
        // narrow (measured from 4, 4): 1001 points with 6 or 8 steps and 801 with 10 reach the truth;
        // 1001 with 4, 12 or 16 steps converge to another stationary point (H 2.14, K 0.16, J 0.0125
        // against 1.1e-8); 2001 points with 4 or 8 steps and 401 with 8, 20 or 32 do not converge.
        // Neither do 401 points with a first stage of rk4, implicit-euler or crank-nicolson at 1 to 32
        // steps per interval (measured 2026-11-23): the implicit schemes keep the interval maps
        // bounded, but Newton on the stage's discrete problem still stalls far from the truth.
        settings.stages.front().stepsPerInterval = static_cast<std::size_t>(eulerSteps);
        StageIterations iterations;
        const auto r =
            withModel(replaced(replaced(text, "param H = 2", "param H = " + std::to_string(startH)), "param K = 1",
                               "param K = " + std::to_string(start)),
                      [&](const model::Model& m) {
                          return estimate::estimateOptimally(
                              m, e, settings, [&](const shooting::BvpIteration& it) { iterations.count(it); });
                      });
        const QString stages = iterations.text();
        qInfo("mixture, %d points, start %g, %g: H = %.6f K = %.6f (drift %.1e %.1e), J = %.3g, %zu iterations (%s), "
              "|F| = %.1e, %s",
              points, startH, start, r.parameters.size() ? r.parameters(0) : 0.0,
              r.parameters.size() ? r.parameters(1) : 0.0, r.parameterDrift.size() ? r.parameterDrift(0) : 0.0,
              r.parameterDrift.size() ? r.parameterDrift(1) : 0.0, r.cost, r.iterations, qPrintable(stages),
              r.residualNorm, r.termination.message.c_str());
        if (start == 4.0 && points == 401)
            QEXPECT_FAIL("",
                         "from 4, 4 with 401 points the Euler stage stalls (h*lambda = -20 at the start; with 8 or "
                         "20 steps per interval Newton heads for H near 0 instead: e^(8024/400) = 5e8 growth "
                         "per interval)",
                         Abort);
        QVERIFY2(r.converged(), r.termination.message.c_str());
        QVERIFY2(std::abs(r.parameters(0) - 2.0) < 1e-4, qPrintable(QString::number(r.parameters(0))));
        QVERIFY2(std::abs(r.parameters(1) - 1.0) < 1e-4, qPrintable(QString::number(r.parameters(1))));
        // Seed Figs. 5.4 and 5.5: the converged solution is less stiff than the start (the seed: about
        // -5000 at the start). The Hamiltonian's kappa with H, K known is -4129.27 at 4, 4 and
        // -516.49 at 2, 1 (tests/engine/test_stiffness_diagnostics, formed by hand).
        qInfo("kappa at the guess %.1f (%s), at the solution %.1f (%s)", r.stiffnessAtGuess.kappaMin,
              estimate::describeStiffness(r.stiffnessAtGuess).c_str(), r.stiffnessAtSolution.kappaMin,
              estimate::describeStiffness(r.stiffnessAtSolution).c_str());
        if (start == 4.0)
            QVERIFY(std::abs(r.stiffnessAtGuess.kappaMin / -4129.27 - 1) < 0.01);
        QVERIFY(std::abs(r.stiffnessAtSolution.kappaMin / -516.49 - 1) < 0.01);
    }

    // Seed ch. 4, model 1 as a TPBVP with the seed's weights (the bundled project's settings:
    // q_a, W_a = 1e5 on the angles and velocities, V = [1 1 1e4 1e9 1e9]; W, which the seed does not
    // print legibly, 1e5 on the kinematics and 1e6 on the parameters) on data simulated with the
    // seed's priors m1 = 4.7, m2 = 0.39, k = 978, b = 2.7, started 30 % off.
    void flexibleManipulator()
    {
        const std::string text = readText(examplePath("flexible_manipulator.model"));
        const auto experiment = manipulatorRecord(text);
        const auto settings = manipulatorSettings();
        const std::string started = replaced(replaced(replaced(replaced(text, "param m1 = 4.7", "param m1 = 6.11"),
                                                               "param m2 = 0.39", "param m2 = 0.507"),
                                                      "param k = 978", "param k = 684.6"),
                                             "param b = 2.7", "param b = 3.51");
        StageIterations iterations;
        const auto r = withModel(started, [&](const model::Model& m) {
            return estimate::estimateOptimally(m, experiment, settings,
                                               [&](const shooting::BvpIteration& it) { iterations.count(it); });
        });
        qInfo("manipulator, model 1 on its own data from 30 %% off: m1 = %.6f m2 = %.6f k = %.4f b = %.6f, %zu "
              "iterations (%s), J = %.3g; stiffness at the guess: %s",
              r.parameters(0), r.parameters(1), r.parameters(2), r.parameters(3), r.iterations,
              qPrintable(iterations.text()), r.cost, estimate::describeStiffness(r.stiffnessAtGuess).c_str());
        QVERIFY2(r.converged(), r.termination.message.c_str());
        // The measured angles are interpolated linearly between their 1 ms samples, an error of
        // h^2/8 |s''| (about 1.6e-4 rad here) that the weight 1e9 makes the estimate follow: 2.4e-4
        // relative (measured: 1.5e-5 with samples every 0.25 ms, the h^2 law).
        const double truth[] = {4.7, 0.39, 978, 2.7};
        for (Eigen::Index i = 0; i < 4; ++i)
            QVERIFY2(std::abs(r.parameters(i) / truth[i] - 1) < 5e-4,
                     qPrintable(QString::fromStdString(r.parameterNames[static_cast<std::size_t>(i)])));
        // Seed §5.3: with its weights the manipulator's kappa is about -200, tame at its interval
        // 0.01 (kappa*dt >= -2): the 101 shooting points suffice.
        QVERIFY(r.stiffnessAtGuess.kappaMin < -50 && r.stiffnessAtGuess.kappaMin > -400);
        QVERIFY(r.stiffnessAtGuess.suggestedPoints <= 101);
    }

    // The same model and weights on data from the extended model with friction (the bundled
    // project): the residual of the rotor's equation of motion shows the friction as a step at
    // s2' = 0 against the estimated velocity (seed Fig. 4.6). On data without friction it has none.
    void frictionShowsInTheResiduals()
    {
        const auto settings = manipulatorSettings();
        const std::string model1 = readText(examplePath("flexible_manipulator.model"));
        const std::string withFriction = readText(examplePath("flexible_manipulator_friction.model"));
        const auto run = [&](const estimate::Experiment& e) {
            return withModel(model1,
                             [&](const model::Model& m) { return estimate::estimateOptimally(m, e, settings); });
        };
        const auto frictionRun = run(manipulatorRecord(withFriction));
        const auto cleanRun = run(manipulatorRecord(model1));
        QVERIFY2(frictionRun.converged(), frictionRun.termination.message.c_str());
        QVERIFY2(cleanRun.converged(), cleanRun.termination.message.c_str());
        const double frictionStep = stepAtZeroVelocity(frictionRun), cleanStep = stepAtZeroVelocity(cleanRun);
        const auto eom = columnOf(frictionRun.residualNames, "eps:eom:s2");
        const double rms =
            std::sqrt(frictionRun.residuals.col(eom).squaredNorm() / double(frictionRun.residuals.rows()));
        qInfo("eps:eom:s2 against s2': step at 0 of %.2f with friction (the friction itself: -2 f2/m2 = %.1f), %.3g "
              "without; rms %.3g; model 1's estimates on the friction data m1 = %.4f m2 = %.4f k = %.2f b = %.4f "
              "(b absorbs part of the friction); max |eps:s2| %.2g",
              frictionStep, -2 * 39.9 / 0.47, cleanStep, rms, frictionRun.parameters(0), frictionRun.parameters(1),
              frictionRun.parameters(2), frictionRun.parameters(3),
              frictionRun.residuals.col(columnOf(frictionRun.residualNames, "eps:s2")).cwiseAbs().maxCoeff());
        QVERIFY(frictionStep < -40);
        QVERIFY(std::abs(cleanStep) < 1);
        // Seed §4.2: all residuals negligible except those on the equations of motion.
        QVERIFY(frictionRun.residuals.col(columnOf(frictionRun.residualNames, "eps:s2")).cwiseAbs().maxCoeff() < 2e-3);
        QVERIFY(rms > 10);
    }

    // Seed §4.4: the extended model (eq. 4.4, smoothed Coulomb friction) with its settings (q_a with
    // f1 = f2 = 0, W_a = 1 on the angles and velocities, W = V = I; the bundled project) on the same
    // data recovers the friction levels and the other parameters (the seed's estimates, which the
    // record was simulated with).
    void extendedModelEstimatesTheFriction()
    {
        const project::Project p = project::loadProject(examplePath("flexible_manipulator_friction_optimal.sysid"));
        QVERIFY(p.optimalEstimation);
        const std::string text = readText(examplePath("flexible_manipulator_friction.model"));
        const auto experiment = manipulatorRecord(text);
        StageIterations iterations;
        const auto r = withModel(
            text,
            [&](const model::Model& m) {
                return estimate::estimateOptimally(m, experiment, *p.optimalEstimation,
                                                   [&](const shooting::BvpIteration& it) { iterations.count(it); });
            },
            p.parameterValues);
        QVERIFY2(r.converged(), r.termination.message.c_str());
        const std::map<std::string, double> seed{{"m1", 5.40}, {"m2", 0.47}, {"k", 1000},
                                                 {"b", 2.3},   {"f1", 1.26}, {"f2", 39.9}};
        QString line;
        for (std::size_t i = 0; i < r.parameterNames.size(); ++i) {
            const double value = r.parameters(static_cast<Eigen::Index>(i));
            line += QString(" %1 = %2").arg(r.parameterNames[i].c_str()).arg(value, 0, 'g', 6);
            QVERIFY2(std::abs(value / seed.at(r.parameterNames[i]) - 1) < 1e-3, r.parameterNames[i].c_str());
        }
        qInfo("extended model from q_a (friction 0):%s, %zu iterations (%s), J = %.3g", qPrintable(line), r.iterations,
              qPrintable(iterations.text()), r.cost);
    }

    // The bundled record is the friction model's simulation.
    void manipulatorDataIsTheSimulatedRecord()
    {
        const auto experiment = manipulatorRecord(readText(examplePath("flexible_manipulator_friction.model")));
        const auto table = data::readCsv(examplePath("data/flexible_manipulator_friction.csv"));
        QCOMPARE(table.column("s2").size(), experiment.times.size());
        for (std::size_t k = 0; k < experiment.times.size(); ++k) {
            QVERIFY(std::abs(table.column("s1")[k] - experiment.measured(static_cast<Eigen::Index>(k), 0)) < 1e-9);
            QVERIFY(std::abs(table.column("s2")[k] - experiment.measured(static_cast<Eigen::Index>(k), 1)) < 1e-9);
            QVERIFY(std::abs(table.column("u")[k] - experiment.inputs.signal(0).at(experiment.times[k])) < 1e-9);
        }
    }

private:
    static Eigen::Index columnOf(const std::vector<std::string>& names, const std::string& name)
    {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end())
            throw std::runtime_error("no residual " + name);
        return it - names.begin();
    }

    // The jump of eps:eom:s2 at s2' = 0: straight lines fitted to it against s2' on 1 <= s2' <= 4 and
    // on -4 <= s2' <= -1 (outside the friction's smoothing width 1), each taken to s2' = 0.
    static double stepAtZeroVelocity(const estimate::OptimalEstimationResult& r)
    {
        const Eigen::VectorXd e = r.residuals.col(columnOf(r.residualNames, "eps:eom:s2"));
        const Eigen::VectorXd v = r.states.col(columnOf(r.stateNames, "s2'"));
        const auto intercept = [&](double lo, double hi) {
            std::vector<double> xs, ys;
            for (Eigen::Index k = 0; k < v.size(); ++k)
                if (v(k) >= lo && v(k) <= hi) {
                    xs.push_back(v(k));
                    ys.push_back(e(k));
                }
            Eigen::MatrixXd A(static_cast<Eigen::Index>(xs.size()), 2);
            Eigen::VectorXd y(static_cast<Eigen::Index>(xs.size()));
            for (std::size_t k = 0; k < xs.size(); ++k) {
                A(static_cast<Eigen::Index>(k), 0) = 1.0;
                A(static_cast<Eigen::Index>(k), 1) = xs[k];
                y(static_cast<Eigen::Index>(k)) = ys[k];
            }
            return A.colPivHouseholderQr().solve(y)(0);
        };
        return intercept(1, 4) - intercept(-4, -1);
    }

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
        const auto r =
            withModel("param m = 1 fixed\nparam b = 1 fixed\nparam k = 1 fixed\ninput u\n"
                      "s'' = (u - b*s' - k*s)/m\ns(0) = 0, 0\noutput s\n",
                      [&](const model::Model& m) { return estimate::estimateOptimally(m, experiment, settings); });
        if (!r.converged())
            qWarning("friction %g: %s", fc, r.termination.message.c_str());
        const auto eom =
            std::find(r.residualNames.begin(), r.residualNames.end(), "eps:eom:s") - r.residualNames.begin();
        if (!r.converged() || eom >= static_cast<long>(r.residualNames.size()))
            return {0.0, 0.0};
        const Eigen::VectorXd residual = r.residuals.col(eom);
        const Eigen::VectorXd signV = r.states.col(1).unaryExpr([](double v) {
            return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0;
        });
        const double c = correlation(residual, signV);
        const double rms = std::sqrt(residual.squaredNorm() / static_cast<double>(residual.size()));
        qInfo("friction force %g: eom residual vs sign(v) correlation %.3f, rms %.3g; %zu iterations", fc, c, rms,
              r.iterations);
        return {c, rms};
    }
};

QTEST_GUILESS_MAIN(TestOptimalEstimationValidation)
#include "test_optimal_estimation_validation.moc"
