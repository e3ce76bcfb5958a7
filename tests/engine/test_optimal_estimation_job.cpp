// OptimalEstimationJob: the seed-001 mass-spring-damper example through the job (events in
// order, the estimate m = b = k = 1, the model outputs at the estimate equal the noise-free
// data), cancelling, and every failure as a JobError after finished(Failed).
#include "TextTestSupport.h"

#include "engine/data/CsvReader.h"
#include "engine/job/OptimalEstimationJob.h"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stop_token>

using namespace sysid;
using sysid::test::kExamples;
using sysid::test::slurp;

namespace {

job::OptimalEstimationJob exampleJob()
{
    job::OptimalEstimationJob j;
    j.modelText = slurp(kExamples + "msd_optimal.model");
    j.modelSource = "msd_optimal.model";
    j.experiment.table = data::readCsv(kExamples + "msd_optimal_data.csv");
    j.experiment.name = "msd";
    return j;
}

// Records every event; optionally asks to stop at the first iteration.
struct Recorder : job::ProgressSink {
    std::vector<std::string> events;
    std::vector<double> costs;
    std::vector<std::string> parameterNames;
    std::vector<std::vector<double>> parameters;
    std::vector<double> traceTimes;
    Eigen::MatrixXd traceOutputs;
    job::JobStatus status = job::JobStatus::Failed;
    std::string message;
    std::stop_source* stopAtFirst = nullptr;
    std::chrono::steady_clock::time_point stopAt;

    void started(const std::vector<std::string>& names) override
    {
        events.push_back("started");
        parameterNames = names;
    }
    void iteration(const estimate::IterationRecord& r) override
    {
        events.push_back("iteration");
        costs.push_back(r.cost);
        parameters.push_back(r.parameters);
        QCOMPARE_EQ(r.iteration, costs.size());
        if (stopAtFirst && costs.size() == 1) {
            stopAt = std::chrono::steady_clock::now();
            stopAtFirst->request_stop();
        }
    }
    void trace(std::size_t, const std::vector<double>& t, const Eigen::MatrixXd& y) override
    {
        events.push_back("trace");
        traceTimes = t;
        traceOutputs = y;
    }
    void log(const std::string&) override {}
    void finished(job::JobStatus s, const std::string& m) override
    {
        events.push_back("finished");
        status = s;
        message = m;
    }
};

}  // namespace

class TestOptimalEstimationJob : public QObject {
    Q_OBJECT

private slots:
    // Seed 001 §3.4: from m = b = k = 10 to the truth 1, 1, 1 (noise-free data).
    void exampleConverges()
    {
        Recorder sink;
        const auto result = exampleJob().run(sink);
        QVERIFY2(result.converged(), result.termination.message.c_str());
        QCOMPARE(result.parameterNames, (std::vector<std::string>{"m", "b", "k"}));
        for (Eigen::Index i = 0; i < 3; ++i)
            QVERIFY2(std::abs(result.parameters(i) - 1.0) < 1e-3, std::to_string(result.parameters(i)).c_str());
        QCOMPARE(sink.events.front(), std::string("started"));
        QCOMPARE(sink.events.back(), std::string("finished"));
        QVERIFY(sink.status == job::JobStatus::Succeeded);
        QCOMPARE_EQ(sink.costs.size(), result.iterations);
        QVERIFY(sink.costs.back() < 1e-6 * sink.costs.front());
        // theta per iteration (for the GUI's parameter history), ending at the estimate.
        QCOMPARE(sink.parameterNames, result.parameterNames);
        QCOMPARE_EQ(sink.parameters.back().size(), std::size_t{3});
        for (std::size_t i = 0; i < 3; ++i)
            QVERIFY(std::abs(sink.parameters.back()[i] - result.parameters(static_cast<Eigen::Index>(i))) < 1e-6);
        QVERIFY(std::abs(sink.parameters.front()[0] - 1.0) > std::abs(sink.parameters.back()[0] - 1.0));
        // The model output s at the estimate is the measured (noise-free) s.
        const auto table = data::readCsv(kExamples + "msd_optimal_data.csv");
        const auto& s = table.column("s");
        QCOMPARE_EQ(sink.traceTimes.size(), s.size());
        QCOMPARE(sink.traceOutputs.cols(), Eigen::Index{1});
        double worst = 0.0;
        for (std::size_t k = 0; k < s.size(); ++k)
            worst = std::max(worst, std::abs(sink.traceOutputs(static_cast<Eigen::Index>(k), 0) - s[k]));
        QVERIFY2(worst < 1e-4, std::to_string(worst).c_str());
        // The measured input u is estimated back.
        QCOMPARE(result.inputNames.front(), std::string("u"));
    }

    void startingValuesApply()
    {
        auto j = exampleJob();
        j.parameterValues = {{"m", 1.0}, {"b", 1.0}, {"k", 1.0}};
        Recorder sink;
        const auto result = j.run(sink);
        QVERIFY(result.converged());
        QVERIFY(result.iterations < 11);  // from the truth fewer iterations than from 10, 10, 10
    }

    // A stop asked for at the first iteration ends the run within a second, reported as cancelled.
    void cancelEndsTheRun()
    {
        auto j = exampleJob();
        j.settings.shootingPoints = 1001;
        std::stop_source stop;
        Recorder sink;
        sink.stopAtFirst = &stop;
        const auto result = j.run(sink, stop.get_token());
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sink.stopAt).count();
        QVERIFY(!result.converged());
        QVERIFY(sink.status == job::JobStatus::Cancelled);
        QCOMPARE(sink.events.back(), std::string("finished"));
        QVERIFY2(seconds < 1.0, std::to_string(seconds).c_str());
    }

    void failures_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("model") << int(job::JobError::Kind::Model) << "msd_optimal.model:";
        QTest::newRow("state weight") << int(job::JobError::Kind::Settings) << "'q'";
        QTest::newRow("starting value") << int(job::JobError::Kind::Settings) << "'c'";
        QTest::newRow("column") << int(job::JobError::Kind::Data) << "pos";
    }

    void failures()
    {
        QFETCH(int, kind);
        QFETCH(QString, expected);
        auto j = exampleJob();
        const QString row = QTest::currentDataTag();
        if (row == "model")
            j.modelText += "\ns'' = oops(\n";
        else if (row == "state weight")
            j.settings.stateWeights["q"] = 1.0;
        else if (row == "starting value")
            j.parameterValues["c"] = 1.0;
        else
            j.experiment.mapping["s"] = "pos";
        Recorder sink;
        try {
            j.run(sink);
            QFAIL("no JobError");
        } catch (const job::JobError& e) {
            QCOMPARE(int(e.kind()), kind);
            QVERIFY2(QString(e.what()).contains(expected), e.what());
            QVERIFY(sink.status == job::JobStatus::Failed);
            QCOMPARE(sink.message, std::string(e.what()));
        }
    }

    void names()
    {
        const auto n = job::optimalEstimationNames(slurp(kExamples + "msd_optimal.model"), "msd_optimal.model");
        QCOMPARE(n.augmentedStates, (std::vector<std::string>{"s", "s'", "m", "b", "k"}));
        QCOMPARE(n.residuals, (std::vector<std::string>{"s", "u", "eom:s"}));
        QVERIFY_THROWS_EXCEPTION(job::JobError, job::optimalEstimationNames("x' = ", "bad.model"));
    }
};

QTEST_GUILESS_MAIN(TestOptimalEstimationJob)
#include "test_optimal_estimation_job.moc"
