// The loose-to-tight schedule of optimal estimation (seed 001 §5.4) with every stage settable: the
// default schedule is the one sysid always used (results must not move), the project file reads
// and writes each stage (and the older "first_stage"), its errors name the stage and the setting,
// and a schedule of the user's own converges on the seed's mass-spring-damper.
#include "OptimalEstimationTestSupport.h"

#include "engine/project/OptimalEstimationJson.h"

#include <QtTest>

#include <cmath>

using namespace sysid;
using integrate::IntegrationMethod;
using nlohmann::json;

namespace {

std::string keyOfError(const json& settings)
{
    try {
        project::optimalSettingsFromJson(settings);
    } catch (const project::OptimalSettingsError& e) {
        return e.key;
    }
    return "(accepted)";
}

}  // namespace

class TestOptimalEstimationSchedule : public QObject {
    Q_OBJECT

private slots:
    // The schedule of issue 5 (docs/DECISIONS.md): Euler, one step per interval, to 1e-6; dopri5
    // 1e-6/1e-8 to 1e-4; dopri5 1e-11/1e-13 to 1e-8 with the loose stage's Jacobians.
    void theDefaultScheduleIsTheOneBefore()
    {
        const auto stages = estimate::bvpStages(estimate::defaultOptimalEstimationStages());
        QCOMPARE_EQ(stages.size(), std::size_t{3});
        QVERIFY(stages[0].integrator.method == IntegrationMethod::Euler);
        QCOMPARE_EQ(stages[0].stepsPerInterval, std::size_t{1});
        QCOMPARE(stages[0].newtonTolerance, 1e-6);
        QVERIFY(!stages[0].jacobianIntegrator);
        QVERIFY(stages[1].integrator.method == IntegrationMethod::Dopri5);
        QCOMPARE(stages[1].integrator.relativeTolerance, 1e-6);
        QCOMPARE(stages[1].integrator.absoluteTolerance, 1e-8);
        QCOMPARE(stages[1].newtonTolerance, 1e-4);
        QVERIFY(!stages[1].jacobianIntegrator);  // after a fixed-step stage: its own
        QVERIFY(stages[2].integrator.method == IntegrationMethod::Dopri5);
        QCOMPARE(stages[2].integrator.relativeTolerance, 1e-11);
        QCOMPARE(stages[2].integrator.absoluteTolerance, 1e-13);
        QCOMPARE(stages[2].newtonTolerance, 1e-8);
        QVERIFY(stages[2].jacobianIntegrator);
        QCOMPARE(stages[2].jacobianIntegrator->relativeTolerance, 1e-6);
        QCOMPARE(stages[2].jacobianIntegrator->absoluteTolerance, 1e-8);
        QVERIFY(stages[2].jacobianIntegrator->method == IntegrationMethod::Dopri5);
        QCOMPARE(estimate::scheduleText(estimate::defaultOptimalEstimationStages()),
                 std::string("euler 1 step per interval -> dopri5 rtol 1e-06 -> dopri5 rtol 1e-11"));
    }

    void everyStageRoundTripsThroughTheProjectFile()
    {
        estimate::OptimalEstimationSettings s;
        s.stages[0].integrator.method = IntegrationMethod::ImplicitEuler;
        s.stages[0].stepsPerInterval = 6;
        s.stages[0].newtonTolerance = 1e-5;
        s.stages[1].integrator.method = IntegrationMethod::Rosenbrock4;
        s.stages[1].integrator.relativeTolerance = 3e-7;
        s.stages[1].integrator.absoluteTolerance = 1e-9;
        s.stages.push_back(s.stages[2]);
        s.stages[3].integrator.relativeTolerance = 1e-12;
        s.stages[3].previousJacobians = false;
        s.bvp.newton.maxIterations = 120;
        const json written = project::optimalSettingsToJson(s);
        QCOMPARE(written["stages"].size(), std::size_t{4});
        QCOMPARE(written["stages"][0]["integrator"]["method"], json("implicit-euler"));
        QCOMPARE(written["stages"][0]["steps_per_interval"], json(6));
        QVERIFY(!written["stages"][0]["integrator"].contains("rtol"));  // unused by a fixed-step stage
        QVERIFY(!written["stages"][1].contains("steps_per_interval"));  // unused by an adaptive one
        QCOMPARE(written["stages"][3]["previous_jacobians"], json(false));
        QCOMPARE(written["max_iterations"], json(120));
        const auto r = project::optimalSettingsFromJson(json::parse(written.dump()));
        QCOMPARE_EQ(r.stages.size(), std::size_t{4});
        QVERIFY(r.stages[0].integrator.method == IntegrationMethod::ImplicitEuler);
        QCOMPARE_EQ(r.stages[0].stepsPerInterval, std::size_t{6});
        QCOMPARE(r.stages[0].newtonTolerance, 1e-5);
        QVERIFY(r.stages[1].integrator.method == IntegrationMethod::Rosenbrock4);
        QCOMPARE(r.stages[1].integrator.relativeTolerance, 3e-7);
        QCOMPARE(r.stages[1].integrator.absoluteTolerance, 1e-9);
        QCOMPARE(r.stages[3].integrator.relativeTolerance, 1e-12);
        QVERIFY(!r.stages[3].previousJacobians);
        QVERIFY(r.stages[2].previousJacobians);
        QCOMPARE_EQ(r.bvp.newton.maxIterations, std::size_t{120});
        QCOMPARE(project::optimalSettingsToJson(r), written);
        // Absent: the default schedule.
        QCOMPARE(estimate::scheduleText(project::optimalSettingsFromJson(json::object()).stages),
                 estimate::scheduleText(estimate::defaultOptimalEstimationStages()));
    }

    // Projects saved before every stage was settable hold "first_stage".
    void theOlderFirstStageIsStageOne()
    {
        const auto s = project::optimalSettingsFromJson(
            json{{"first_stage", {{"method", "crank-nicolson"}, {"steps_per_interval", 3}}}});
        QCOMPARE_EQ(s.stages.size(), std::size_t{3});
        QVERIFY(s.stages[0].integrator.method == IntegrationMethod::CrankNicolson);
        QCOMPARE_EQ(s.stages[0].stepsPerInterval, std::size_t{3});
        QCOMPARE(estimate::scheduleText({s.stages[1], s.stages[2]}),
                 std::string("dopri5 rtol 1e-06 -> dopri5 rtol 1e-11"));
    }

    void errorsNameTheStageAndTheSetting_data()
    {
        QTest::addColumn<QString>("settings");
        QTest::addColumn<QString>("key");
        QTest::newRow("steps 0") << R"({"stages": [{"integrator": {"method": "euler"}, "steps_per_interval": 0}]})"
                                 << "stages.1.steps_per_interval";
        QTest::newRow("rtol 0") << R"({"stages": [{}, {"integrator": {"method": "dopri5", "rtol": 0}}]})"
                                << "stages.2.integrator.rtol";
        QTest::newRow("rtol text") << R"({"stages": [{}, {"integrator": {"rtol": "tight"}}]})"
                                   << "stages.2.integrator.rtol";
        QTest::newRow("unknown method") << R"({"stages": [{"integrator": {"method": "rk45"}}]})"
                                        << "stages.1.integrator.method";
        QTest::newRow("Newton tolerance") << R"({"stages": [{}, {}, {"newton_tolerance": -1}]})"
                                          << "stages.3.newton_tolerance";
        QTest::newRow("unknown key") << R"({"stages": [{"tolerance": 1}]})"
                                     << "stages.1.tolerance";
        QTest::newRow("no stage") << R"({"stages": []})"
                                  << "stages";
        QTest::newRow("not an array") << R"({"stages": {"method": "euler"}})"
                                      << "stages";
        QTest::newRow("both forms") << R"({"stages": [{}], "first_stage": {"method": "euler"}})"
                                    << "first_stage";
        QTest::newRow("adaptive first_stage") << R"({"first_stage": {"method": "dopri5"}})"
                                              << "first_stage.method";
        QTest::newRow("guess not text") << R"({"initial_guess": {"s": 1}})"
                                        << "initial_guess.s";
        QTest::newRow("empty guess") << R"({"initial_guess": {"s": " "}})"
                                     << "initial_guess.s";
        QTest::newRow("iterations 0") << R"({"max_iterations": 0})"
                                      << "max_iterations";
        QTest::newRow("guess_from not text") << R"({"guess_from": 3})"
                                             << "guess_from";
    }

    void errorsNameTheStageAndTheSetting()
    {
        QFETCH(QString, settings);
        QFETCH(QString, key);
        QCOMPARE(QString::fromStdString(keyOfError(json::parse(settings.toStdString()))), key);
    }

    // The rules' messages say which stage.
    void validateSaysWhichStage()
    {
        estimate::OptimalEstimationSettings s;
        s.stages[1].integrator.relativeTolerance = -1;
        try {
            s.validate();
            QFAIL("accepted");
        } catch (const core::SettingError& e) {
            QCOMPARE(e.key(), std::string("stages.2.integrator.rtol"));
            QVERIFY2(std::string(e.what()).find("stage 2 relative tolerance") != std::string::npos, e.what());
        }
    }

    // A schedule of the user's: rk4 with 2 steps, then rosenbrock4, then dopri5 tight.
    void aScheduleOfOnesOwnConverges()
    {
        auto job = test::msdJob();
        estimate::OptimalEstimationStage first, second, third;
        first.integrator.method = IntegrationMethod::RK4;
        first.stepsPerInterval = 2;
        first.newtonTolerance = 1e-6;
        second.integrator.method = IntegrationMethod::Rosenbrock4;
        second.integrator.relativeTolerance = 1e-7;
        second.integrator.absoluteTolerance = 1e-9;
        second.newtonTolerance = 1e-5;
        third.integrator.relativeTolerance = 1e-11;
        third.integrator.absoluteTolerance = 1e-13;
        third.newtonTolerance = 1e-8;
        job.settings.stages = {first, second, third};
        struct Log : job::ProgressSink {
            std::vector<std::string> lines;
            void started(const std::vector<std::string>&) override {}
            void iteration(const estimate::IterationRecord&) override {}
            void trace(std::size_t, const std::vector<double>&, const Eigen::MatrixXd&) override {}
            void log(const std::string& line) override { lines.push_back(line); }
            void finished(job::JobStatus, const std::string&) override {}
        } log;
        const auto r = job.run(log);
        QVERIFY2(r.converged(), r.termination.message.c_str());
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY2(std::abs(r.parameters(i) - 1.0) < 1e-4, qPrintable(QString::number(r.parameters(i))));
        QVERIFY(test::contains(log.lines.front(),
                               "stages rk4 2 steps per interval -> rosenbrock4 rtol 1e-07 -> dopri5 rtol 1e-11"));
        bool thirdStageRan = false;
        for (const auto& line : log.lines)
            thirdStageRan = thirdStageRan || test::contains(line, "stage 3 iteration");
        QVERIFY(thirdStageRan);
    }

    // Jacobians of the tight stage integrated tightly as well: the same estimate.
    void previousJacobiansOnlyChangeTheCost()
    {
        job::NullProgressSink sink;
        const auto reference = test::msdJob().run(sink);
        auto own = test::msdJob();
        own.settings.stages[2].previousJacobians = false;
        const auto r = own.run(sink);
        QVERIFY(reference.converged() && r.converged());
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY(std::abs(r.parameters(i) - reference.parameters(i)) < 1e-8);
    }
};

QTEST_GUILESS_MAIN(TestOptimalEstimationSchedule)
#include "test_optimal_estimation_schedule.moc"
