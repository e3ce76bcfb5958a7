// Jobs (engine/job): the fit and simulation jobs the front ends run on a worker thread.
// Events arrive in order (started, iterations with increasing numbers, finished last and
// once), cancellation from another thread ends a long fit within a second with the best
// estimate so far, and every failure is a JobError with the user-facing message.

#include "engine/data/DataTable.h"
#include "engine/data/Noise.h"
#include "engine/eval/CompiledModel.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/FitJob.h"
#include "engine/job/ModelText.h"
#include "engine/job/SimulationJob.h"
#include "engine/model/ModelBuilder.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace sysid;

namespace {

// Linear oscillator x'' + c x' + k x = 0, x(0) = 1: the data are made with c = 0.4, the fit
// starts at c = 0.1 (the model text's value).
const std::string kOscillator = "param c = 0.1 [0, 10]\n"
                                "param k = 4 fixed\n"
                                "x'' = -c*x' - k*x\n"
                                "x(0) = 1, 0\n"
                                "output x\n";
constexpr double kTrueC = 0.4;

// Samples the oscillator's output with parameters `values` (by name) on t = 0, dt, ..., tEnd,
// plus uniform noise of `noisePercent` % of the RMS.
data::DataTable simulatedTable(const std::string& modelText, const std::vector<std::pair<std::string, double>>& values,
                               double tEnd, double dt, double noisePercent, const std::string& column = "x")
{
    const auto source = eval::compileModel(model::parseModel(modelText, "truth.model"));
    eval::CompiledModel model(source);
    std::vector<double> p = source->parameterValues;
    for (const auto& [name, value] : values)
        for (std::size_t i = 0; i < p.size(); ++i)
            if (source->parameterNames[i] == name)
                p[i] = value;
    model.setParameters(p);
    integrate::SimulationRequest request;
    request.times = integrate::uniformGrid(0.0, tEnd, dt);
    integrate::IntegratorSettings settings;
    settings.relativeTolerance = 1e-10;
    settings.absoluteTolerance = 1e-12;
    const integrate::Trajectory trajectory = integrate::simulate(model, request, settings);
    std::vector<double> x(trajectory.outputs.col(0).data(),
                          trajectory.outputs.col(0).data() + trajectory.outputs.rows());
    std::mt19937_64 rng(7);
    if (noisePercent > 0)
        data::addNoise(x, noisePercent, data::NoiseDistribution::Uniform, rng);
    data::DataTable table;
    table.source = "oscillator.csv";
    table.columnNames = {"t", column};
    table.columns = {trajectory.times, x};
    table.timeColumn = 0;
    return table;
}

job::FitJob oscillatorJob(const data::DataTable& table)
{
    job::FitJob fit;
    fit.modelText = kOscillator;
    fit.modelSource = "oscillator.model";
    job::ExperimentData experiment;
    experiment.name = "run 1";
    experiment.table = table;
    fit.experiments.push_back(experiment);
    return fit;
}

// Records every event with the thread it came from.
class RecordingSink final : public job::ProgressSink {
public:
    struct Event {
        enum Kind { Started, Iteration, Trace, Log, Finished } kind = Started;
        std::size_t iteration = 0;
        std::vector<double> parameters;
        std::size_t samples = 0, columns = 0;
        job::JobStatus status = job::JobStatus::Succeeded;
        std::string text;
        std::thread::id thread;
    };

    void started(const std::vector<std::string>& names) override
    {
        Event e;
        e.kind = Event::Started;
        for (const auto& n : names)
            e.text += n + ";";
        add(std::move(e));
    }
    void iteration(const estimate::IterationRecord& r) override
    {
        Event e;
        e.kind = Event::Iteration;
        e.iteration = r.iteration;
        e.parameters = r.parameters;
        add(std::move(e));
        iterations.fetch_add(1);
    }
    void trace(std::size_t experiment, const std::vector<double>& times, const Eigen::MatrixXd& outputs) override
    {
        Event e;
        e.kind = Event::Trace;
        e.iteration = experiment;
        e.samples = times.size();
        e.columns = static_cast<std::size_t>(outputs.cols());
        QCOMPARE_EQ(static_cast<std::size_t>(outputs.rows()), times.size());
        add(std::move(e));
    }
    void log(const std::string& line) override
    {
        Event e;
        e.kind = Event::Log;
        e.text = line;
        add(std::move(e));
    }
    void finished(job::JobStatus status, const std::string& message) override
    {
        Event e;
        e.kind = Event::Finished;
        e.status = status;
        e.text = message;
        add(std::move(e));
    }

    std::vector<Event> snapshot()
    {
        const std::lock_guard lock(mutex_);
        return events_;
    }
    std::atomic<int> iterations{0};

private:
    void add(Event e)
    {
        e.thread = std::this_thread::get_id();
        const std::lock_guard lock(mutex_);
        events_.push_back(std::move(e));
    }
    std::mutex mutex_;
    std::vector<Event> events_;
};

// Checks the order contract; returns the iteration events.
std::vector<RecordingSink::Event> checkOrder(const std::vector<RecordingSink::Event>& events, job::JobStatus expected)
{
    std::vector<RecordingSink::Event> iterations;
    bool started = false;
    int finished = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (e.kind == RecordingSink::Event::Started) {
            if (started || !iterations.empty())
                qWarning() << "started() not first or twice, at event" << i;
            started = true;
        }
        if (e.kind == RecordingSink::Event::Iteration) {
            if (!started)
                qWarning() << "iteration before started()";
            if (!iterations.empty() && e.iteration <= iterations.back().iteration)
                qWarning() << "iteration" << e.iteration << "after" << iterations.back().iteration;
            iterations.push_back(e);
        }
        if (e.kind == RecordingSink::Event::Finished) {
            ++finished;
            if (i + 1 != events.size())
                qWarning() << "finished() is not the last event";
        }
    }
    if (finished != 1 || events.empty() || events.back().kind != RecordingSink::Event::Finished ||
        events.back().status != expected)
        iterations.clear();  // makes the caller's size check fail
    for (std::size_t i = 0; i < iterations.size(); ++i)
        if (i > 0 && iterations[i].iteration <= iterations[i - 1].iteration)
            iterations.clear();
    return iterations;
}

}  // namespace

class TestJob : public QObject {
    Q_OBJECT

private slots:
    void fitEventsArriveInOrder()
    {
        const data::DataTable table = simulatedTable(kOscillator, {{"c", kTrueC}}, 10.0, 0.05, 1.0);
        const job::FitJob fit = oscillatorJob(table);
        RecordingSink sink;
        std::optional<estimate::FitResult> result;
        std::thread::id worker;
        std::thread thread([&] {  // as a front end does: on a worker thread
            worker = std::this_thread::get_id();
            result = fit.run(sink);
        });
        thread.join();
        QVERIFY(result);
        QVERIFY2(result->converged(), result->termination.message.c_str());
        QVERIFY(!result->cancelled());
        QCOMPARE_EQ(result->parameters.size(), std::size_t{1});
        QCOMPARE(result->parameters[0].name, std::string("c"));
        QCOMPARE(result->parameters[0].initial, 0.1);
        // 1 % uniform noise on a unit-amplitude signal: sd of c is ~1e-3; 0.01 is far outside noise.
        QVERIFY2(std::abs(result->parameters[0].value - kTrueC) < 0.01,
                 std::to_string(result->parameters[0].value).c_str());

        const auto events = sink.snapshot();
        QVERIFY(events.size() >= 4);
        QCOMPARE(events.front().kind, RecordingSink::Event::Started);
        QCOMPARE(events.front().text, std::string("c;"));
        const auto iterations = checkOrder(events, job::JobStatus::Succeeded);
        QVERIFY(iterations.size() >= 2);
        QCOMPARE_EQ(iterations.front().iteration, std::size_t{0});
        QCOMPARE(iterations.front().parameters, std::vector<double>{0.1});
        // The history is what was reported, iteration by iteration.
        QCOMPARE_EQ(iterations.size(), result->history.size());
        for (std::size_t i = 0; i < iterations.size(); ++i) {
            QCOMPARE_EQ(iterations[i].iteration, result->history[i].iteration);
            QCOMPARE(iterations[i].parameters, result->history[i].parameters);
        }
        QCOMPARE(iterations.back().parameters[0], result->parameters[0].value);
        std::size_t traces = 0;
        for (const auto& e : events) {
            QVERIFY(e.thread == worker);  // every event on the job's thread
            if (e.kind == RecordingSink::Event::Trace) {
                ++traces;
                QCOMPARE_EQ(e.iteration, std::size_t{0});
                QCOMPARE_EQ(e.samples, table.rowCount());
                QCOMPARE_EQ(e.columns, std::size_t{1});
            }
        }
        QVERIFY(traces >= 1);
        QCOMPARE(events.back().text, result->termination.message);
    }

    void startingValuesOverrideTheModelText()
    {
        const data::DataTable table = simulatedTable(kOscillator, {{"c", kTrueC}}, 10.0, 0.05, 1.0);
        job::FitJob fit = oscillatorJob(table);
        fit.parameterValues = {{"c", 0.3}};
        fit.settings.maxIterations = 0;
        job::NullProgressSink sink;
        const estimate::FitResult result = fit.run(sink);
        QCOMPARE(result.parameters.at(0).initial, 0.3);
    }

    void preprocessingIsApplied()
    {
        const data::DataTable table = simulatedTable(kOscillator, {{"c", kTrueC}}, 10.0, 0.05, 1.0);
        job::FitJob fit = oscillatorJob(table);
        fit.preprocessing.window = std::make_pair(0.0, 5.0);
        fit.preprocessing.decimation = 2;
        RecordingSink sink;
        const estimate::FitResult result = fit.run(sink);
        std::size_t samples = 0;
        for (const auto& e : sink.snapshot())
            if (e.kind == RecordingSink::Event::Trace)
                samples = e.samples;
        QCOMPARE_EQ(samples, std::size_t{51});  // t = 0, 0.1, ..., 5
        QVERIFY(std::abs(result.parameters.at(0).value - kTrueC) < 0.02);
    }

    // What the GUI plots as the fitted data (preprocessedRecord) is exactly what the fit fits,
    // record by record: the same table twice gets its own added noise each time.
    void preprocessedRecordIsWhatTheFitFits()
    {
        const data::DataTable table = simulatedTable(kOscillator, {{"c", kTrueC}}, 10.0, 0.05, 0.0);
        job::FitJob fit = oscillatorJob(table);
        fit.experiments.push_back(fit.experiments.front());
        fit.preprocessing.window = std::make_pair(1.0, 9.0);
        fit.preprocessing.noise = data::Preprocessing::AddedNoise{5.0, data::NoiseDistribution::Gaussian, 11};
        fit.preprocessing.lowPass = data::Preprocessing::LowPass{4, 2.0};
        fit.preprocessing.decimation = 2;
        const auto model = job::compileModelText(fit.modelText, fit.modelSource, {});
        const std::vector<estimate::Experiment> experiments = job::preparedExperiments(fit, *model);
        QCOMPARE(experiments.size(), std::size_t{2});
        for (std::size_t k = 0; k < 2; ++k) {
            const data::DataTable shown = job::preprocessedRecord(table, fit.preprocessing, k);
            QCOMPARE(shown.time(), experiments[k].times);
            const std::vector<double>& x = shown.column("x");
            QCOMPARE(x.size(), static_cast<std::size_t>(experiments[k].measured.rows()));
            for (std::size_t i = 0; i < x.size(); ++i)
                QCOMPARE(x[i], experiments[k].measured(static_cast<Eigen::Index>(i), 0));
        }
        QVERIFY(experiments[0].measured(10, 0) != experiments[1].measured(10, 0));
    }

    void fixedValuesPerExperiment()
    {
        // Two records of the same oscillator from different initial displacements x0 (fixed
        // per record): c is shared, and a wrong x0 would bias it.
        const std::string model = "param c = 0.1 [0, 10]\n"
                                  "param x0 = 1 fixed\n"
                                  "x'' = -c*x' - 4*x\n"
                                  "x(0) = x0, 0\n"
                                  "output x\n";
        job::FitJob fit;
        fit.modelText = model;
        for (const double x0 : {1.0, 2.5}) {
            job::ExperimentData e;
            e.name = "x0 = " + std::to_string(x0);
            e.table = simulatedTable(model, {{"c", kTrueC}, {"x0", x0}}, 10.0, 0.05, 1.0);
            e.fixedValues = {{"x0", x0}};
            fit.experiments.push_back(e);
        }
        job::NullProgressSink sink;
        const estimate::FitResult result = fit.run(sink);
        QVERIFY2(std::abs(result.parameters.at(0).value - kTrueC) < 0.01,
                 std::to_string(result.parameters.at(0).value).c_str());
        // Naming an estimated parameter there is a settings error.
        fit.experiments[1].fixedValues = {{"c", 0.2}};
        try {
            fit.run(sink);
            QFAIL("no JobError");
        } catch (const job::JobError& e) {
            QCOMPARE(int(e.kind()), int(job::JobError::Kind::Settings));
        }
    }

    void cancelEndsALongFitWithinASecond()
    {
        // 200 001 samples of a lightly damped oscillator over 2000 s with tight tolerances: one
        // evaluation with sensitivities takes a good fraction of a second (~0.3 s here), and with
        // every tolerance negative the fit only stops when no step lowers the cost any more,
        // seconds later. The stop comes from another thread 200 ms after the start, and not
        // before the first iteration was reported, so there is a best estimate to return.
        const std::string model = "param c = 0.01 [0, 10]\n"
                                  "param k = 1 [0.01, 100]\n"
                                  "x'' = -c*x' - k*x\n"
                                  "x(0) = 1, 0\n"
                                  "output x\n";
        const data::DataTable table = simulatedTable(model, {{"c", 0.02}, {"k", 1.1}}, 2000.0, 0.01, 5.0);
        job::FitJob fit;
        fit.modelText = model;
        fit.experiments.push_back(oscillatorJob(table).experiments.front());
        fit.settings.maxIterations = 100000;
        fit.settings.costTolerance = -1;
        fit.settings.stepTolerance = -1;
        fit.settings.gradientTolerance = -1;
        fit.settings.integrator.relativeTolerance = 1e-12;
        fit.settings.integrator.absoluteTolerance = 1e-14;

        RecordingSink sink;
        std::stop_source stop;
        using Clock = std::chrono::steady_clock;
        std::atomic<Clock::rep> stoppedAt{0};
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            for (int i = 0; i < 6000 && sink.iterations.load() == 0; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            stoppedAt = Clock::now().time_since_epoch().count();
            stop.request_stop();
        });
        const estimate::FitResult result = fit.run(sink, stop.get_token());
        const auto returned = Clock::now();
        canceller.join();
        const auto afterStop = returned - Clock::time_point(Clock::duration(stoppedAt.load()));
        const double seconds = std::chrono::duration<double>(afterStop).count();
        qInfo("stop after %d iteration event(s); run() returned %.3f s after the request (%s)", sink.iterations.load(),
              std::chrono::duration<double>(afterStop).count(), result.termination.message.c_str());
        QVERIFY2(stoppedAt.load() != 0, "the fit ended before the stop request");
        QVERIFY2(seconds < 1.0, ("run() returned " + std::to_string(seconds) + " s after the stop request").c_str());
        QVERIFY(result.cancelled());
        QVERIFY(!result.converged());

        const auto iterations = checkOrder(sink.snapshot(), job::JobStatus::Cancelled);
        QCOMPARE_EQ(result.parameters.size(), std::size_t{2});
        if (iterations.empty()) {
            // Stopped before the first evaluation ended: the best estimate is the start.
            QCOMPARE(result.parameters[0].value, 0.01);
            QCOMPARE(result.parameters[1].value, 1.0);
        } else {
            // The best estimate so far: the last accepted iterate, reported as the last iteration event.
            QCOMPARE(result.parameters[0].value, iterations.back().parameters[0]);
            QCOMPARE(result.parameters[1].value, iterations.back().parameters[1]);
            QCOMPARE_EQ(result.history.size(), iterations.size());
        }
    }

    void cancelBeforeStartReturnsTheStartingPoint()
    {
        const data::DataTable table = simulatedTable(kOscillator, {{"c", kTrueC}}, 10.0, 0.05, 1.0);
        const job::FitJob fit = oscillatorJob(table);
        std::stop_source stop;
        stop.request_stop();
        RecordingSink sink;
        const estimate::FitResult result = fit.run(sink, stop.get_token());
        QVERIFY(result.cancelled());
        QCOMPARE(result.parameters.at(0).value, 0.1);
        const auto events = sink.snapshot();
        QCOMPARE(events.back().kind, RecordingSink::Event::Finished);
        QCOMPARE(events.back().status, job::JobStatus::Cancelled);
    }

    void twoJobsRunAtOnce()
    {
        // Parsing is serialised inside the jobs (GiNaC is not thread-safe); the fits run in parallel.
        const data::DataTable table = simulatedTable(kOscillator, {{"c", kTrueC}}, 10.0, 0.05, 1.0);
        const job::FitJob fit = oscillatorJob(table);
        std::vector<double> values(4, 0.0);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < values.size(); ++i)
            threads.emplace_back([&, i] {
                job::NullProgressSink sink;
                values[i] = fit.run(sink).parameters.at(0).value;
            });
        for (auto& t : threads)
            t.join();
        for (const double v : values)
            QCOMPARE(v, values[0]);
        QVERIFY(std::abs(values[0] - kTrueC) < 0.01);
    }

    void errorsKeepTheirPlace_data()
    {
        QTest::addColumn<QString>("modelText");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("start");
        QTest::addColumn<QString>("mapFrom");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("model syntax") << "param c = 0.1\nx'' = -c*x' - \nx(0) = 1, 0\noutput x\n"
                                      << "x"
                                      << ""
                                      << "" << int(job::JobError::Kind::Model) << "oscillator.model:2:";
        QTest::newRow("unknown name in model") << "param c = 0.1\nx'' = -c*x' - q*x\nx(0) = 1, 0\noutput x\n"
                                               << "x"
                                               << ""
                                               << "" << int(job::JobError::Kind::Model) << "oscillator.model:2:";
        QTest::newRow("no output column") << QString::fromStdString(kOscillator) << "y"
                                          << ""
                                          << "" << int(job::JobError::Kind::Data) << "oscillator.csv";
        QTest::newRow("unknown starting parameter") << QString::fromStdString(kOscillator) << "x"
                                                    << "q"
                                                    << "" << int(job::JobError::Kind::Settings) << "no parameter 'q'";
        QTest::newRow("mapping to a missing column") << QString::fromStdString(kOscillator) << "x"
                                                     << ""
                                                     << "x" << int(job::JobError::Kind::Data) << "oscillator.csv";
    }

    void errorsKeepTheirPlace()
    {
        QFETCH(QString, modelText);
        QFETCH(QString, column);
        QFETCH(QString, start);
        QFETCH(QString, mapFrom);
        QFETCH(int, kind);
        QFETCH(QString, message);
        const data::DataTable table =
            simulatedTable(kOscillator, {{"c", kTrueC}}, 2.0, 0.05, 0.0, column.toStdString());
        job::FitJob fit = oscillatorJob(table);
        fit.modelText = modelText.toStdString();
        if (!start.isEmpty())
            fit.parameterValues[start.toStdString()] = 1.0;
        if (!mapFrom.isEmpty())
            fit.experiments[0].mapping[mapFrom.toStdString()] = "missing_column";
        RecordingSink sink;
        try {
            fit.run(sink);
            QFAIL("no JobError");
        } catch (const job::JobError& e) {
            QCOMPARE(int(e.kind()), kind);
            QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
            const auto events = sink.snapshot();
            QVERIFY(!events.empty());
            QCOMPARE(events.back().kind, RecordingSink::Event::Finished);
            QCOMPARE(events.back().status, job::JobStatus::Failed);
            QCOMPARE(events.back().text, std::string(e.what()));
        }
    }

    void noDataIsAJobError()
    {
        job::FitJob fit;
        fit.modelText = kOscillator;
        job::NullProgressSink sink;
        QVERIFY_THROWS_EXCEPTION(job::JobError, fit.run(sink));
    }

    void simulationJob()
    {
        job::SimulationJob sim;
        sim.modelText = kOscillator;
        sim.parameterValues = {{"c", 0.0}};
        sim.times = integrate::uniformGrid(0.0, 3.0, 0.01);
        sim.settings.relativeTolerance = 1e-10;
        sim.settings.absoluteTolerance = 1e-12;
        RecordingSink sink;
        const integrate::Trajectory trajectory = sim.run(sink);
        QCOMPARE_EQ(trajectory.times.size(), std::size_t{301});
        for (std::size_t i = 0; i < trajectory.times.size(); ++i)  // undamped: x = cos(2t)
            QVERIFY(std::abs(trajectory.outputs(static_cast<Eigen::Index>(i), 0) - std::cos(2 * trajectory.times[i])) <
                    1e-7);
        const auto events = sink.snapshot();
        QCOMPARE_EQ(events.size(), std::size_t{2});
        QCOMPARE(events[0].kind, RecordingSink::Event::Trace);
        QCOMPARE(events[1].kind, RecordingSink::Event::Finished);
        QCOMPARE(events[1].status, job::JobStatus::Succeeded);
    }

    void simulationJobWithInputs()
    {
        const std::string model = "param k = 1\ninput f\nx'' = -k*x + f\nx(0) = 0, 0\noutput x\n";
        job::SimulationJob sim;
        sim.modelText = model;
        sim.times = integrate::uniformGrid(0.0, 2.0, 0.1);
        RecordingSink sink;
        QVERIFY_THROWS_EXCEPTION(job::JobError, sim.run(sink));  // input data missing
        data::DataTable force;
        force.source = "force.csv";
        force.columnNames = {"t", "g"};
        force.columns = {{0.0, 1.0, 2.0}, {1.0, 1.0, 1.0}};
        sim.inputs = force;
        sim.inputMapping = {{"f", "g"}};
        const integrate::Trajectory trajectory = sim.run(sink);
        // x'' + x = 1 from rest: x = 1 - cos t.
        QVERIFY(std::abs(trajectory.outputs(20, 0) - (1 - std::cos(2.0))) < 1e-6);
        sim.times = integrate::uniformGrid(0.0, 3.0, 0.1);  // beyond the input data
        try {
            sim.run(sink);
            QFAIL("no JobError");
        } catch (const job::JobError& e) {
            QVERIFY2(std::string(e.what()).find("force.csv") != std::string::npos, e.what());
        }
    }

    void simulationCancelled()
    {
        job::SimulationJob sim;
        sim.modelText = kOscillator;
        sim.times = integrate::uniformGrid(0.0, 100.0, 0.01);
        std::stop_source stop;
        stop.request_stop();
        RecordingSink sink;
        QVERIFY_THROWS_EXCEPTION(job::JobError, sim.run(sink, stop.get_token()));
        QCOMPARE(sink.snapshot().back().status, job::JobStatus::Cancelled);
    }
};

QTEST_APPLESS_MAIN(TestJob)
#include "test_job.moc"
