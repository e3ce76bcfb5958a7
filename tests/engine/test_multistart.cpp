// Multistart (engine/job/Multistart, engine/job/LatinHypercube). Known answers: a Latin hypercube
// holds one point in every stratum of every coordinate (in log space for a logarithmic one); the
// frequency of a sine, whose least-squares cost has a local minimum near many frequencies, is
// missed by a single fit from an ordinary start and found by the multistart (the true values are
// the answer). Also: thread-count independence (bit-identical), starts computed in two parts and
// read back from JSON summarise to the same result (what a split over processes does), a start
// whose model blows up is recorded and not fatal, cancel, the missing-bounds message, the project's
// settings.

#include "engine/data/DataTable.h"
#include "engine/job/LatinHypercube.h"
#include "engine/job/Multistart.h"
#include "engine/job/SimulationJob.h"
#include "engine/job/SyntheticData.h"
#include "engine/project/MultistartJson.h"
#include "engine/project/Project.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stop_token>
#include <string>
#include <vector>

using namespace sysid;

namespace {

const std::string kSineModel = "param w = 1.2 [0.5, 5]\n"
                               "param A = 0.8 [0.1, 10]\n"
                               "state x = 0\n"
                               "x' = A*w*cos(w*t)\n"
                               "output x\n";

data::DataTable table(const std::vector<double>& t, const std::vector<double>& x)
{
    data::DataTable out;
    out.source = "record.csv";
    out.columnNames = {"t", "x"};
    out.columns = {t, x};
    out.timeColumn = 0;
    return out;
}

// x = sin(2 t) over 0..20 s every 0.05 s, noise-free.
job::FitJob sineJob()
{
    std::vector<double> t, x;
    for (int k = 0; k <= 400; ++k) {
        t.push_back(0.05 * k);
        x.push_back(std::sin(2 * t.back()));
    }
    job::FitJob fit;
    fit.modelText = kSineModel;
    fit.modelSource = "sine.model";
    fit.experiments.push_back({"", table(t, x), {}, {}});
    return fit;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

void requireSameStarts(const std::vector<job::MultistartStart>& a, const std::vector<job::MultistartStart>& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        QCOMPARE(a[k].index, b[k].index);
        QCOMPARE(a[k].iterations, b[k].iterations);
        QVERIFY(a[k].kind == b[k].kind);
        QVERIFY(sameBits(a[k].cost, b[k].cost) || (std::isnan(a[k].cost) && std::isnan(b[k].cost)));
        QCOMPARE(a[k].initial.size(), b[k].initial.size());
        QCOMPARE(a[k].final.size(), b[k].final.size());
        for (std::size_t d = 0; d < a[k].initial.size(); ++d)
            QVERIFY(sameBits(a[k].initial[d], b[k].initial[d]));
        for (std::size_t d = 0; d < a[k].final.size(); ++d)
            QVERIFY(sameBits(a[k].final[d], b[k].final[d]));
    }
}

}  // namespace

class TestMultistart : public QObject {
    Q_OBJECT

private slots:
    void latinHypercubeHasOnePointPerStratum()
    {
        const std::size_t n = 37;
        const std::vector<job::SampleRange> ranges{job::SampleRange::forBounds(-2, 3),
                                                   job::SampleRange::forBounds(1e-3, 10),
                                                   job::SampleRange::forBounds(0.5, 5)};
        QVERIFY(!ranges[0].logarithmic);
        QVERIFY(ranges[1].logarithmic);  // four decades
        QVERIFY(!ranges[2].logarithmic);  // exactly one decade: not more than one
        const job::LatinHypercube design(ranges, n, 42);
        for (std::size_t d = 0; d < ranges.size(); ++d) {
            std::vector<int> hits(n, 0);
            for (std::size_t i = 0; i < n; ++i) {
                const double x = design.point(i)[d];
                QVERIFY(x >= ranges[d].lower && x <= ranges[d].upper);
                // The stratum in the coordinate's own scale: log(x) for the logarithmic one.
                const double u = ranges[d].logarithmic ? (std::log(x) - std::log(ranges[d].lower)) /
                        (std::log(ranges[d].upper) - std::log(ranges[d].lower))
                                                       : (x - ranges[d].lower) / (ranges[d].upper - ranges[d].lower);
                ++hits[std::min(n - 1, static_cast<std::size_t>(u * static_cast<double>(n)))];
            }
            QVERIFY2(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }),
                     qPrintable(QString("coordinate %1 has a stratum without exactly one point").arg(d)));
        }
        // The logarithmic coordinate: as many points per decade (n / 4 each, +-1 at the edges).
        std::vector<int> decades(4, 0);
        for (std::size_t i = 0; i < n; ++i)
            ++decades[std::min<std::size_t>(3, static_cast<std::size_t>(std::log10(design.point(i)[1]) + 3))];
        for (const int count : decades)
            QVERIFY2(count >= 8 && count <= 11, qPrintable(QString("points in a decade: %1").arg(count)));
        // Reproducible, and another seed draws another design.
        const job::LatinHypercube again(ranges, n, 42), other(ranges, n, 43);
        for (std::size_t i = 0; i < n; ++i)
            QVERIFY(again.point(i) == design.point(i));
        bool differs = false;
        for (std::size_t i = 0; i < n; ++i)
            differs = differs || other.point(i) != design.point(i);
        QVERIFY(differs);
    }

    void randomStreamsAreUniform()
    {
        // The mean and variance of 100 000 draws of one stream and of the first draws of 100 000 streams.
        for (const bool across : {false, true}) {
            double sum = 0, squares = 0;
            job::RandomStream one(7, 0);
            const int m = 100000;
            for (int k = 0; k < m; ++k) {
                const double u = across ? job::RandomStream(7, static_cast<std::uint64_t>(k)).uniform() : one.uniform();
                QVERIFY(u >= 0 && u < 1);
                sum += u;
                squares += u * u;
            }
            const double mean = sum / m, variance = squares / m - mean * mean;
            QVERIFY(std::abs(mean - 0.5) < 4 * std::sqrt(1.0 / 12 / m));
            QVERIFY(std::abs(variance - 1.0 / 12) < 0.002);
        }
    }

    void sineFrequencyLocalMinimaFoundByMultistart()
    {
        const job::FitJob fit = sineJob();
        // A single fit from the model's start (w = 1.2) ends in a local minimum.
        const job::PreparedFit prepared(fit);
        const estimate::FitResult single = prepared.fit({});
        QVERIFY(single.converged());
        QVERIFY2(std::abs(single.parameters[0].value - 2) > 0.1,
                 qPrintable(QString("single fit: w = %1").arg(single.parameters[0].value)));

        job::Multistart multistart;
        multistart.fit = fit;
        multistart.settings.starts = 40;
        multistart.settings.seed = 1;
        multistart.threads = 2;
        const job::MultistartResult r = multistart.run();
        QCOMPARE(r.starts.size(), std::size_t{40});
        QVERIFY(r.best.has_value());
        QCOMPARE(r.parameterNames, (std::vector<std::string>{"w", "A"}));
        QVERIFY(std::abs(r.fit.parameters[0].value - 2) < 1e-6);
        QVERIFY(std::abs(r.fit.parameters[1].value - 1) < 1e-6);
        QVERIFY2(r.fit.cost < 1e-8 * r.minima[1].cost,
                 qPrintable(QString("costs %1, %2").arg(r.fit.cost).arg(r.minima[1].cost)));
        QCOMPARE(r.minima.front().start, *r.best);
        // Most starts end in one of the local minima: the global one has a narrow basin in w.
        QVERIFY(r.minima.size() >= 5);
        const std::size_t reached = r.minima.front().starts.size();
        qInfo("sine frequency: %zu of 40 starts (%.1f %%) reach the global minimum; %zu distinct minima", reached,
              100 * r.fractionBest, r.minima.size());
        QCOMPARE(r.fractionBest, static_cast<double>(reached) / 40);
        QVERIFY(reached >= 1 && reached <= 10);
        // Every start that reached it ends at w = 2; the others do not.
        for (const job::MultistartStart& s : r.starts) {
            const bool global = std::find(r.minima.front().starts.begin(), r.minima.front().starts.end(), s.index) !=
                r.minima.front().starts.end();
            if (s.converged())
                QCOMPARE(global, std::abs(s.final[0] - 2) < 1e-4);
        }
        // The minima are the starts' cost levels, lowest first, and account for every converged start.
        std::size_t counted = 0;
        for (std::size_t m = 0; m < r.minima.size(); ++m) {
            counted += r.minima[m].starts.size();
            if (m > 0)
                QVERIFY(r.minima[m].cost >= r.minima[m - 1].cost);
        }
        QCOMPARE(counted, static_cast<std::size_t>(std::count_if(r.starts.begin(), r.starts.end(), [](const auto& s) {
                     return s.converged();
                 })));
    }

    void forcedDuffingOnTheResonanceBranch()
    {
        // x'' + c x' + x + a x^3 = 0.5 cos(1.6 t) has two stable responses at this frequency (amplitude
        // 0.33 from rest, 2.18 from x(0) = 1.5); the data are the large one, c = 0.1, a = 0.5, 0..80 s.
        const std::string model = "param c = 0.1 [0.01, 1]\n"
                                  "param a = 0.2 [0.05, 5]\n"
                                  "param F = 0.5 fixed\n"
                                  "param w = 1.6 fixed\n"
                                  "x'' = -c*x' - x - a*x^3 + F*cos(w*t)\n"
                                  "x(0) = 1.5, 0\n"
                                  "output x\n";
        job::SimulationJob simulation;
        simulation.modelText = model;
        simulation.parameterValues = {{"a", 0.5}};
        for (int k = 0; k <= 800; ++k)
            simulation.times.push_back(0.1 * k);
        job::NullProgressSink sink;
        const job::SyntheticData data = simulation.runSynthetic(sink);
        job::FitJob fit;
        fit.modelText = model;
        data::DataTable record;
        record.source = "duffing.csv";
        record.columnNames = data.header;
        record.columns = data.columns;
        record.timeColumn = 0;
        fit.experiments.push_back({"", record, {}, {}});

        // From a = 0.2 a single fit does not reach the resonance branch's parameters.
        const estimate::FitResult single = job::PreparedFit(fit).fit({});
        QVERIFY2(std::abs(single.parameters[1].value - 0.5) > 0.1,
                 qPrintable(QString("single fit: a = %1").arg(single.parameters[1].value)));

        job::Multistart multistart{fit, {}, 2};
        multistart.settings.starts = 30;
        const job::MultistartResult r = multistart.run();
        QVERIFY(r.best.has_value());
        QVERIFY(std::abs(r.fit.parameters[0].value - 0.1) < 1e-6);
        QVERIFY(std::abs(r.fit.parameters[1].value - 0.5) < 1e-6);
        QVERIFY(r.minima.size() >= 2);
        const std::size_t reached = r.minima.front().starts.size();
        qInfo("forced Duffing: %zu of 30 starts (%.1f %%) reach the global minimum; %zu distinct minima, %zu "
              "starts stopped at the iteration limit",
              reached, 100 * r.fractionBest, r.minima.size(),
              static_cast<std::size_t>(std::count_if(r.starts.begin(), r.starts.end(), [](const auto& s) {
                  return s.kind == core::TerminationKind::IterationLimit;
              })));
        QVERIFY(reached >= 3 && reached <= 27);
    }

    void independentOfThreadCount()
    {
        job::Multistart multistart;
        multistart.fit = sineJob();
        multistart.settings.starts = 24;
        multistart.settings.seed = 5;
        multistart.threads = 1;
        const job::MultistartResult one = multistart.run();
        multistart.threads = 3;
        const job::MultistartResult three = multistart.run();
        requireSameStarts(one.starts, three.starts);
        QCOMPARE(one.best, three.best);
        QCOMPARE(one.minima.size(), three.minima.size());
        for (std::size_t k = 0; k < one.fit.parameters.size(); ++k)
            QVERIFY(sameBits(one.fit.parameters[k].value, three.fit.parameters[k].value));
        QCOMPARE(project::multistartToJson(one).dump(), project::multistartToJson(three).dump());
    }

    void startsComputedInPartsSummariseTheSame()
    {
        const job::FitJob fit = sineJob();
        job::MultistartSettings settings;
        settings.starts = 16;
        settings.seed = 3;
        job::Multistart whole{fit, settings, 2};
        const job::MultistartResult expected = whole.run();

        // Two parts, as two processes would compute them, each sent as JSON and read back.
        const job::MultistartPlan plan(fit, settings);
        std::vector<job::MultistartStart> gathered;
        for (const int part : {0, 1}) {
            const auto starts = job::Multistart::runStarts(
                plan, 1, {}, {}, [&](std::size_t i) { return static_cast<int>(i % 2) == part; });
            QCOMPARE(starts.size(), std::size_t{8});
            for (const job::MultistartStart& s : starts) {
                const nlohmann::json sent =
                    nlohmann::json::parse(project::multistartStartToJson(s, plan.prepared().unknownNames()).dump());
                gathered.push_back(project::multistartStartFromJson(sent, plan.prepared().unknownNames()));
            }
        }
        const job::MultistartResult summarised = plan.summarise(gathered);
        requireSameStarts(expected.starts, summarised.starts);
        QCOMPARE(project::multistartToJson(expected).dump(), project::multistartToJson(summarised).dump());
        for (std::size_t k = 0; k < expected.fit.parameters.size(); ++k)
            QVERIFY(sameBits(expected.fit.parameters[k].value, summarised.fit.parameters[k].value));
        // One start on its own is the same start.
        requireSameStarts({expected.starts[5]}, {plan.runStart(5)});
    }

    void blownUpStartIsRecordedNotFatal()
    {
        // x' = a x: from a > 30 over 0..30 s the response overflows; the true a = -0.5.
        std::vector<double> t, x;
        for (int k = 0; k <= 300; ++k) {
            t.push_back(0.1 * k);
            x.push_back(std::exp(-0.5 * t.back()));
        }
        job::Multistart multistart;
        multistart.fit.modelText = "param a = -0.2 [-1, 40]\nstate x = 1\nx' = a*x\noutput x\n";
        multistart.fit.experiments.push_back({"", table(t, x), {}, {}});
        multistart.settings.starts = 10;
        const job::MultistartResult r = multistart.run();
        QCOMPARE(r.starts.size(), std::size_t{10});
        QVERIFY2(r.failed >= 1, "some start should blow up");
        for (const job::MultistartStart& s : r.starts)
            if (!std::isfinite(s.cost)) {
                QVERIFY(s.kind == core::TerminationKind::Failed);
                QVERIFY(!s.stopReason.empty());
            }
        QVERIFY(r.best.has_value());
        QVERIFY(std::abs(r.fit.parameters[0].value + 0.5) < 1e-6);
        qInfo("exponential: %zu of 10 starts failed: %s", r.failed,
              std::find_if(r.starts.begin(), r.starts.end(), [](const auto& s) {
                  return !std::isfinite(s.cost);
              })->stopReason.c_str());
    }

    void missingBoundsNamed()
    {
        job::Multistart multistart;
        multistart.fit = sineJob();
        multistart.fit.modelText = "param w = 1.2 [0.5, 5]\nparam A = 0.8\nstate x = 0\nx' = A*w*cos(w*t)\noutput x\n";
        try {
            (void)multistart.run();
            QFAIL("a parameter without bounds was accepted");
        } catch (const job::JobError& e) {
            const std::string message = e.what();
            QVERIFY2(message.find("A [") != std::string::npos && message.find("have none") != std::string::npos,
                     message.c_str());
            QVERIFY2(message.find("w [") == std::string::npos, message.c_str());
        }
        // An estimated initial value without bounds is named with the syntax that gives them.
        multistart.fit.modelText = "param w = 1.2 [0.5, 5]\nstate x = 0 estimate\nx' = w*cos(w*t)\noutput x\n";
        try {
            (void)multistart.run();
            QFAIL("an initial value without bounds was accepted");
        } catch (const job::JobError& e) {
            const std::string message = e.what();
            QVERIFY2(message.find("x(0) [") != std::string::npos &&
                         message.find("[LOW, HIGH] estimate") != std::string::npos,
                     message.c_str());
        }
        // With bounds its starts are drawn within them, and the fit finds x(0) = 0 of sin(2 t).
        multistart.fit.modelText =
            "param w = 1.2 [0.5, 5]\nstate x = 0.3 [-1, 1] estimate\nx' = w*cos(w*t)\noutput x\n";
        multistart.settings.starts = 8;
        const job::MultistartResult r = multistart.run();
        QCOMPARE(r.parameterNames, (std::vector<std::string>{"w", "x(0)"}));
        for (const job::MultistartStart& s : r.starts)
            QVERIFY(s.initial[1] >= -1 && s.initial[1] <= 1);
        QVERIFY(r.best.has_value());
        QVERIFY2(std::abs(r.fit.parameters[0].value - 2) < 1e-6 && std::abs(r.fit.parameters[1].value) < 1e-6,
                 qPrintable(QString("w %1, x(0) %2").arg(r.fit.parameters[0].value).arg(r.fit.parameters[1].value)));

        multistart.fit = sineJob();
        multistart.settings.starts = 0;
        QVERIFY_THROWS_EXCEPTION(job::JobError, (void)multistart.run());
    }

    void cancelKeepsTheFinishedStarts()
    {
        job::Multistart multistart;
        multistart.fit = sineJob();
        multistart.settings.starts = 30;
        multistart.threads = 1;
        std::stop_source source;
        const job::MultistartResult r = multistart.run(
            [&](const job::Multistart::Progress& p) {
                if (p.done == 3)
                    source.request_stop();
            },
            source.get_token());
        QVERIFY(r.cancelled);
        QCOMPARE(r.starts.size(), std::size_t{3});
        QVERIFY(r.best.has_value());
    }

    void settingsInTheProject()
    {
        job::MultistartSettings s;
        s.starts = 50;
        s.seed = 9;
        s.tolerance = 1e-4;
        const nlohmann::json j = project::multistartSettingsToJson(s);
        QCOMPARE(j.dump(), std::string(R"({"seed":9,"starts":50,"tolerance":0.0001})"));
        QVERIFY(project::multistartSettingsFromJson(j) == s);
        try {
            (void)project::multistartSettingsFromJson(nlohmann::json{{"starts", 0}});
            QFAIL("starts = 0 accepted");
        } catch (const project::FieldJsonError& e) {
            QCOMPARE(e.key, std::string("starts"));
        }
        QVERIFY_THROWS_EXCEPTION(project::FieldJsonError,
                                 (void)project::multistartSettingsFromJson(nlohmann::json{{"start", 5}}));

        const QTemporaryDir dir;
        const std::string path = dir.filePath("ms.sysid").toStdString();
        project::Project p;
        p.modelText = kSineModel;
        p.multistart = s;
        project::saveProject(p, path);
        const project::Project loaded = project::loadProject(path);
        QVERIFY(loaded.multistart && *loaded.multistart == s);
    }
};

QTEST_GUILESS_MAIN(TestMultistart)
#include "test_multistart.moc"
