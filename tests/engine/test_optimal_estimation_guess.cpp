// Where optimal estimation starts: initial guesses written as expressions of t, the measured
// signals and the parameters (seed 001 ch. 5: s2 = s_m/3, s3 = 2 s_m/3 for the mixture), and a
// previous result (seed 001 §4.2: "a solution with slightly changed weighting factors is
// obtained efficiently when using the former solution as an initial approximation"), also
// through its JSON file and onto another shooting grid.
#include "OptimalEstimationTestSupport.h"

#include "engine/estimate/OptimalEstimationGuess.h"
#include "engine/project/OptimalEstimationJson.h"

#include <QtTest>

#include <cmath>

using namespace sysid;

namespace {

std::string errorOf(const job::OptimalEstimationJob& job)
{
    try {
        job::NullProgressSink sink;
        job.diagnose(sink);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

struct Run {
    estimate::OptimalEstimationResult result;
    std::size_t iterations = 0;
};

Run run(const job::OptimalEstimationJob& job)
{
    job::NullProgressSink sink;
    Run r;
    r.result = job.run(sink);
    r.iterations = r.result.iterations;
    return r;
}

}  // namespace

class TestOptimalEstimationGuess : public QObject {
    Q_OBJECT

private slots:
    // The seed's guess for the mixture, written as it declares it, is the measured s4 scaled.
    void expressionsOfTheMeasuredSignals()
    {
        const auto job = test::mixtureJob(4, 4);
        const auto& table = job.experiment.table;
        std::unique_ptr<model::Model> m;
        {
            std::lock_guard lock(model::symbolicMutex());
            m = std::make_unique<model::Model>(model::parseModel(job.modelText));
        }
        estimate::Experiment e;
        e.name = "mixture";
        e.times = table.time();
        e.measured.resize(static_cast<Eigen::Index>(e.times.size()), 2);
        for (std::size_t k = 0; k < e.times.size(); ++k) {
            e.measured(static_cast<Eigen::Index>(k), 0) = table.column("s4")[k];
            e.measured(static_cast<Eigen::Index>(k), 1) = table.column("pb")[k];
        }
        e.outputMeasured = {true, true};
        e.inputs = integrate::InputSignals({data::Signal(e.times, table.column("u"))});
        std::map<std::string, std::vector<double>> values;
        std::string failure;
        {
            std::lock_guard lock(model::symbolicMutex());
            values = estimate::evaluateGuessExpressions(
                {{"s2", "s4/3"}, {"s3", "2*s4/3"}, {"s4", "H*sin(t) + pb - u^2 + max(K, 5)"}}, *m, e);
            try {
                estimate::evaluateGuessExpressions({{"s2", "s4/3 + sin("}}, *m, e);
            } catch (const estimate::OptimalEstimationError& error) {
                failure = error.what();
            }
            m.reset();
        }
        QCOMPARE_EQ(values.at("s2").size(), e.times.size());
        for (std::size_t k = 0; k < e.times.size(); ++k) {
            const double s4 = table.column("s4")[k], pb = table.column("pb")[k], u = table.column("u")[k];
            QVERIFY(std::abs(values.at("s2")[k] - s4 / 3) <= 1e-15 * (1 + std::abs(s4)));
            QVERIFY(std::abs(values.at("s3")[k] - 2 * s4 / 3) <= 1e-15 * (1 + std::abs(s4)));
            const double expected = 2 * std::sin(e.times[k]) + pb - u * u + 5;  // H = 2, K = 1 in the file
            QVERIFY(std::abs(values.at("s4")[k] - expected) <= 1e-13 * (1 + std::abs(expected)));
        }
        QVERIFY2(failure.find("initial guess of s2") != std::string::npos, failure.c_str());
        QVERIFY2(failure.find("column") != std::string::npos, failure.c_str());
    }

    // The expressions give exactly the starting nodes the same values given as numbers do.
    void expressionsAndNumbersStartAlike()
    {
        auto byExpression = test::mixtureJob(4, 4);
        byExpression.settings.guessExpressions = {{"s2", "s4/3"}, {"s3", "2*s4/3"}};
        auto byNumbers = test::mixtureJob(4, 4);
        std::vector<double> third, twoThirds;
        for (double s4 : byNumbers.experiment.table.column("s4")) {
            third.push_back(s4 / 3);
            twoThirds.push_back(2 * s4 / 3);
        }
        byNumbers.settings.initialGuess = {{"s2", third}, {"s3", twoThirds}};
        job::NullProgressSink sink;
        const auto a = byExpression.diagnose(sink);
        const auto b = byNumbers.diagnose(sink);
        const auto plain = test::mixtureJob(4, 4).diagnose(sink);
        QCOMPARE_EQ(a.kappa.size(), b.kappa.size());
        bool differsFromDefault = false;
        for (std::size_t k = 0; k < a.kappa.size(); ++k) {
            QVERIFY(std::abs(a.kappa[k] - b.kappa[k]) <= 1e-9 * std::abs(b.kappa[k]));
            differsFromDefault = differsFromDefault || std::abs(a.kappa[k] - plain.kappa[k]) > 1e-6;
        }
        QVERIFY(differsFromDefault);  // the guess is used (the default starts s2, s3 at 0)
    }

    void badExpressionsNameTheStateAndTheProblem_data()
    {
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("unknown name") << "s2"
                                      << "s9/3" << QStringList{"initial guess of s2", "'s9'", "column 1"};
        QTest::newRow("a state that is not measured") << "s2"
                                                      << "s3/2" << QStringList{"s3", "measured signals"};
        QTest::newRow("syntax") << "s3"
                                << "2*" << QStringList{"initial guess of s3", "column"};
        QTest::newRow("unknown state") << "q"
                                       << "1" << QStringList{"'q'", "s2, s3, s4"};
        QTest::newRow("not finite") << "s2"
                                    << "1/(t - t)" << QStringList{"s2"};
        QTest::newRow("two statements") << "s2"
                                        << "1; param z = 2" << QStringList{"s2", "one expression"};
    }

    void badExpressionsNameTheStateAndTheProblem()
    {
        QFETCH(QString, state);
        QFETCH(QString, expression);
        QFETCH(QStringList, expected);
        auto job = test::mixtureJob(4, 4);
        job.settings.guessExpressions = {{state.toStdString(), expression.toStdString()}};
        const std::string error = errorOf(job);
        qInfo("%s", error.c_str());
        for (const auto& part : expected)
            QVERIFY2(error.find(part.toStdString()) != std::string::npos, error.c_str());
    }

    // Seed 001 §4.2: a run started from the previous solution, with slightly changed weights, takes
    // fewer iterations than one from the data, and lands on the same solution.
    void startingFromThePreviousResult()
    {
        auto first = test::msdJob();
        const Run fromData = run(first);
        QVERIFY2(fromData.result.converged(), fromData.result.termination.message.c_str());
        QCOMPARE(fromData.result.costates.cols(), Eigen::Index{5});  // s, s', m, b, k
        QCOMPARE(fromData.result.parameterTraces.cols(), Eigen::Index{3});

        auto same = test::msdJob();
        same.settings.startFrom = estimate::startTrajectoryFrom(fromData.result, "first run");
        const Run again = run(same);

        QVERIFY2(again.result.converged(), again.result.termination.message.c_str());
        qInfo("from the data %zu iterations, from its own result %zu", fromData.iterations, again.iterations);
        QVERIFY(again.iterations < fromData.iterations);
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY(std::abs(again.result.parameters(i) - fromData.result.parameters(i)) < 1e-9);

        // Changed weights (the kinematic residuals trusted 100 times more).
        auto reweighted = test::msdJob();
        reweighted.settings.stateWeights = {{"s", 100.0}, {"s'", 100.0}};
        const Run reweightedFromData = run(reweighted);
        reweighted.settings.startFrom = estimate::startTrajectoryFrom(fromData.result, "first run");
        const Run reweightedWarm = run(reweighted);
        qInfo("weights W(s) = W(s') = 100: from the data %zu iterations, from the previous solution %zu",
              reweightedFromData.iterations, reweightedWarm.iterations);
        QVERIFY(reweightedFromData.result.converged() && reweightedWarm.result.converged());
        QVERIFY(reweightedWarm.iterations < reweightedFromData.iterations);
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY(std::abs(reweightedWarm.result.parameters(i) - reweightedFromData.result.parameters(i)) < 1e-7);
    }

    // Through the result file: the JSON gives back the same trajectories (costates included), and a
    // run on another shooting grid starts from them interpolated.
    void startingFromAResultFile()
    {
        const Run fromData = run(test::msdJob());
        const nlohmann::json written = project::optimalResultToJson(fromData.result);
        const auto read = project::optimalResultFromJson(nlohmann::json::parse(written.dump()));
        // JSON objects are read in name order: compare the trajectories by name, to the last bit.
        const auto original = estimate::startTrajectoryFrom(fromData.result, "run");
        const auto again = estimate::startTrajectoryFrom(read, "r.json");
        QCOMPARE(again.times, original.times);
        QCOMPARE_EQ(again.values.size(), original.values.size());  // s, s', m, b, k and their costates
        QCOMPARE_EQ(original.values.size(), std::size_t{10});
        for (const auto& [name, values] : original.values)
            QVERIFY2(again.values.count(name) && again.values.at(name) == values, name.c_str());
        QCOMPARE(read.stiffnessAtGuess.kappa, fromData.result.stiffnessAtGuess.kappa);
        QCOMPARE(read.cost, fromData.result.cost);
        QVERIFY(read.converged());

        auto coarse = test::msdJob();
        coarse.settings.shootingPoints = 51;
        const Run coarseFromData = run(coarse);
        coarse.settings.startFrom = estimate::startTrajectoryFrom(read, "r.json");
        const Run coarseWarm = run(coarse);
        qInfo("51 points: from the data %zu iterations, from the 101-point result %zu", coarseFromData.iterations,
              coarseWarm.iterations);
        QVERIFY(coarseWarm.result.converged());
        QVERIFY(coarseWarm.iterations < coarseFromData.iterations);

        // A result written before costates were stored: its costates start at 0.
        nlohmann::json older = written;
        older.erase("costates");
        older.erase("parameter_traces");
        const auto olderRead = project::optimalResultFromJson(older);
        QCOMPARE(olderRead.costates.size(), Eigen::Index{0});
        auto fromOlder = test::msdJob();
        fromOlder.settings.startFrom = estimate::startTrajectoryFrom(olderRead, "older.json");
        const Run olderRun = run(fromOlder);
        QVERIFY(olderRun.result.converged());
    }

    void aResultOfAnotherModelIsRefused()
    {
        estimate::StartTrajectory other;
        other.source = "other.json";
        other.times = {0.0, 1.0};
        other.values = {{"x", {0.0, 1.0}}, {"lambda_x", {0.0, 0.0}}};
        auto job = test::msdJob();
        job.settings.startFrom = other;
        const std::string error = errorOf(job);
        QVERIFY2(error.find("other.json holds none of the states") != std::string::npos, error.c_str());
        QVERIFY2(error.find("s, s', m, b, k") != std::string::npos, error.c_str());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, project::loadStartTrajectory("/nonexistent/r.json"));
    }
};

QTEST_GUILESS_MAIN(TestOptimalEstimationGuess)
#include "test_optimal_estimation_guess.moc"
