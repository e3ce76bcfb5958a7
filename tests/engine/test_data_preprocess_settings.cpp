// Preprocessing settings: the order of the steps and their JSON form in project files.

#include "TextTestSupport.h"

#include "engine/data/Butterworth.h"
#include "engine/data/DataError.h"
#include "engine/data/DataTable.h"
#include "engine/data/Noise.h"
#include "engine/data/Preprocessing.h"
#include "engine/data/Resampling.h"
#include "engine/data/ZeroPhaseFilter.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace sysid::data;
using sysid::test::contains;
using sysid::test::messageOf;

namespace {

// Columns x, t (time in the middle of the table), y: 101 samples at 10 Hz.
DataTable sampleTable()
{
    DataTable table;
    table.source = "sim.csv";
    table.columnNames = {"x", "t", "y"};
    table.timeColumn = 1;
    table.columns.resize(3);
    for (int i = 0; i <= 100; ++i) {
        const double t = 0.1 * i;
        table.columns[0].push_back(std::sin(t));
        table.columns[1].push_back(t);
        table.columns[2].push_back(std::exp(-0.3 * t) * std::cos(2 * t));
    }
    return table;
}

}  // namespace

class TestDataPreprocessSettings : public QObject {
    Q_OBJECT

private slots:
    void appliesStepsInOrder()
    {
        const DataTable table = sampleTable();
        Preprocessing p;
        p.window = {{1.0, 8.0}};
        p.noise = Preprocessing::AddedNoise{10.0, NoiseDistribution::Uniform, 7};
        p.lowPass = Preprocessing::LowPass{4, 1.5};
        p.decimation = 2;
        const DataTable out = preprocess(table, p);

        // The same steps by hand: window, noise (one generator, columns in table order), low-pass, decimation.
        DataTable w = trimWindow(table, 1.0, 8.0);
        std::mt19937_64 rng(7);
        addNoise(w.columns[0], 10.0, NoiseDistribution::Uniform, rng);
        addNoise(w.columns[2], 10.0, NoiseDistribution::Uniform, rng);
        const auto sections = butterworthLowPass(4, 1.5, 10.0);
        const std::vector<double> time = w.columns[1];
        std::vector<double> x = decimate(time, filtFilt(sections, w.columns[0]), 2).values;
        std::vector<double> y = decimate(time, filtFilt(sections, w.columns[2]), 2).values;
        const auto t = decimate(time, time, 2).time;

        QCOMPARE(out.columnNames, table.columnNames);
        QCOMPARE(out.timeColumn, std::size_t(1));
        QCOMPARE(out.source, table.source);
        QCOMPARE(out.columns[1], t);
        QCOMPARE(out.columns[1].size(), std::size_t(36));  // t = 1.0, 1.2, ..., 8.0
        QVERIFY(std::abs(out.columns[1].front() - 1.0) < 1e-12);
        QVERIFY(std::abs(out.columns[1].back() - 8.0) < 1e-12);
        QCOMPARE(out.columns[0], x);
        QCOMPARE(out.columns[2], y);

        // Filtering before adding noise would give other values.
        DataTable other = trimWindow(table, 1.0, 8.0);
        std::mt19937_64 rng2(7);
        std::vector<double> x2 = filtFilt(sections, other.columns[0]);
        addNoise(x2, 10.0, NoiseDistribution::Uniform, rng2);
        QVERIFY(decimate(time, x2, 2).values != x);
    }

    // With the window after filtering, the whole record is noised, filtered and decimated, and the
    // window cut from the result; before filtering (the default) the window is cut first.
    void windowAfterFilterCutsTheProcessedRecord()
    {
        const DataTable table = sampleTable();
        Preprocessing p;
        p.window = {{2.0, 8.0}};
        p.windowAfterFilter = true;
        p.noise = Preprocessing::AddedNoise{10.0, NoiseDistribution::Uniform, 7};
        p.lowPass = Preprocessing::LowPass{4, 1.5, FilterEnds::Odd};
        p.decimation = 2;
        const DataTable out = preprocess(table, p);

        DataTable whole = table;
        std::mt19937_64 rng(7);
        addNoise(whole.columns[0], 10.0, NoiseDistribution::Uniform, rng);
        addNoise(whole.columns[2], 10.0, NoiseDistribution::Uniform, rng);
        const auto sections = butterworthLowPass(4, 1.5, 10.0);
        const std::vector<double> time = whole.columns[1];
        DataTable processed = whole;
        processed.columns[0] = decimate(time, filtFilt(sections, whole.columns[0], FilterEnds::Odd), 2).values;
        processed.columns[2] = decimate(time, filtFilt(sections, whole.columns[2], FilterEnds::Odd), 2).values;
        processed.columns[1] = decimate(time, time, 2).time;
        const DataTable expected = trimWindow(processed, 2.0, 8.0);
        QCOMPARE(out.columns, expected.columns);
        QCOMPARE(out.columns[1].size(), std::size_t(31));  // t = 2.0, 2.2, ..., 8.0
        QVERIFY(std::abs(out.columns[1].front() - 2.0) < 1e-12);

        p.windowAfterFilter = false;
        const DataTable first = preprocess(table, p);
        QCOMPARE(first.columns[1], out.columns[1]);
        QVERIFY(first.columns[0] != out.columns[0]);
    }

    void describesTheLowPass()
    {
        // Order 1: one pole z = (1 - K) / (1 + K), K = tan(pi fc / fs); 1 % after ln 0.01 / ln z samples.
        const Preprocessing::LowPass first{1, 1.0};
        const double K = std::tan(std::numbers::pi * 1.0 / 50.0);
        const double z = (1 - K) / (1 + K);
        const double expected = std::ceil(std::log(0.01) / std::log(z)) / 50.0;
        QCOMPARE(lowPassSettlingTime(first, 50.0).value(), expected);
        QVERIFY(!lowPassSettlingTime(first, 2.0).has_value());  // cutoff at the Nyquist frequency
        const std::string text = describeLowPass(Preprocessing::LowPass{4, 1.5}, 334.0 / 5.0);
        QVERIFY2(contains(text, "order 4 at 1.5 Hz") && contains(text, "least squares") && contains(text, "within 1."),
                 text.c_str());
        QVERIFY(contains(describeLowPass(Preprocessing::LowPass{4, 1.5, FilterEnds::Odd}, 10.0), "odd reflection"));
        // A slow filter (the cascaded tanks' 4 s samples): seconds without an exponent.
        const std::string slow = describeLowPass(Preprocessing::LowPass{4, 0.02}, 0.25);
        QVERIFY2(contains(slow, "within 10") && !contains(slow, "e+"), slow.c_str());
    }

    void noiseOnlyUsesOneGeneratorAcrossColumns()
    {
        const DataTable table = sampleTable();
        Preprocessing p;
        p.noise = Preprocessing::AddedNoise{5.0, NoiseDistribution::Gaussian, 123};
        const DataTable out = preprocess(table, p);
        QCOMPARE(out.columns[1], table.columns[1]);  // time untouched
        std::mt19937_64 rng(123);
        auto x = table.columns[0];
        auto y = table.columns[2];
        addNoise(x, 5.0, NoiseDistribution::Gaussian, rng);
        addNoise(y, 5.0, NoiseDistribution::Gaussian, rng);
        QCOMPARE(out.columns[0], x);
        QCOMPARE(out.columns[2], y);
        QVERIFY(out.columns[0] != table.columns[0]);
        // No settings: the table comes back unchanged.
        const DataTable same = preprocess(table, Preprocessing{});
        QCOMPARE(same.columns, table.columns);
    }

    void reportsProblemsAsDataErrors()
    {
        const DataTable table = sampleTable();
        Preprocessing p;
        p.lowPass = Preprocessing::LowPass{4, 6.0};  // above half the sample rate 10 Hz
        std::string m = messageOf<DataError>([&] { preprocess(table, p); });
        QVERIFY2(contains(m, "sim.csv") && contains(m, "low-pass") && contains(m, "expected 0 < cutoff < 5 Hz"),
                 m.c_str());

        DataTable uneven = table;
        uneven.columns[1][50] += 0.01;
        p.lowPass = Preprocessing::LowPass{4, 1.0};
        m = messageOf<DataError>([&] { preprocess(uneven, p); });
        QVERIFY2(contains(m, "not uniformly sampled"), m.c_str());

        Preprocessing bad;
        bad.decimation = 0;
        QVERIFY(contains(messageOf<DataError>([&] { preprocess(table, bad); }), "decimation 0"));
        bad = {};
        bad.window = {{50.0, 60.0}};
        m = messageOf<DataError>([&] { preprocess(table, bad); });
        QVERIFY2(contains(m, "[50, 60]") && contains(m, "from 0 to 10"), m.c_str());
    }

    void jsonRoundTrip()
    {
        Preprocessing p;
        p.window = {{0.25, 4.75}};
        p.decimation = 3;
        p.lowPass = Preprocessing::LowPass{6, 0.8, FilterEnds::Odd};
        p.windowAfterFilter = true;
        p.noise = Preprocessing::AddedNoise{20.0, NoiseDistribution::Gaussian, 18446744073709551615ull};
        p.differentiation = {DerivativeMethod::SavitzkyGolay, 11, 4};
        const nlohmann::json j = toJson(p);
        QCOMPARE(j.at("differentiation").at("method").get<std::string>(), std::string("savitzky-golay"));
        QCOMPARE(j.at("window").at("start").get<double>(), 0.25);
        QCOMPARE(j.at("low_pass").at("cutoff_hz").get<double>(), 0.8);
        QCOMPARE(j.at("low_pass").at("ends").get<std::string>(), std::string("odd"));
        QCOMPARE(j.at("window").at("after_filter").get<bool>(), true);
        QCOMPARE(j.at("noise").at("distribution").get<std::string>(), std::string("gaussian"));
        const Preprocessing back = preprocessingFromJson(nlohmann::json::parse(j.dump()));
        QVERIFY(back.window.has_value());
        QCOMPARE(back.window->first, 0.25);
        QCOMPARE(back.window->second, 4.75);
        QCOMPARE(back.decimation, 3);
        QVERIFY(back.lowPass.has_value());
        QCOMPARE(back.lowPass->order, 6);
        QCOMPARE(back.lowPass->cutoffHz, 0.8);
        QCOMPARE(back.lowPass->ends, FilterEnds::Odd);
        QVERIFY(back.windowAfterFilter);
        QVERIFY(back.noise.has_value());
        QCOMPARE(back.noise->percent, 20.0);
        QCOMPARE(back.noise->distribution, NoiseDistribution::Gaussian);
        QCOMPARE(back.noise->seed, std::uint64_t(18446744073709551615ull));
        QVERIFY(back.differentiation == p.differentiation);
        QCOMPARE(toJson(back), j);

        const Preprocessing empty = preprocessingFromJson(nlohmann::json::parse("{}"));
        QVERIFY(!empty.window && !empty.lowPass && !empty.noise);
        QCOMPARE(empty.decimation, 1);
        QCOMPARE(toJson(empty), nlohmann::json::parse(R"({"decimation": 1})"));
        const Preprocessing defaults = preprocessingFromJson(
            nlohmann::json::parse(R"({"low_pass": {"cutoff_hz": 2}, "noise": {"percent": 5}, "window": null})"));
        QCOMPARE(defaults.lowPass->order, 4);
        QCOMPARE(defaults.lowPass->ends, FilterEnds::LeastSquares);  // projects written before the choice
        QVERIFY(!defaults.windowAfterFilter);
        QVERIFY(!toJson(defaults).contains("window"));
        QCOMPARE(defaults.noise->distribution, NoiseDistribution::Uniform);
        QCOMPARE(defaults.noise->seed, std::uint64_t(0));
        QVERIFY(!defaults.window);
    }

    void jsonRejectsBadValues_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not an object") << "[1, 2]"
                                       << "'preprocessing' is [1,2] (array); expected an object";
        QTest::newRow("unknown member") << R"({"lowpass": {}})"
                                        << "unknown member 'lowpass' in 'preprocessing'";
        QTest::newRow("decimation 0") << R"({"decimation": 0})"
                                      << "'decimation' is 0; expected an integer from 1";
        QTest::newRow("decimation fraction") << R"({"decimation": 1.5})"
                                             << "'decimation' is 1.5 (number); expected an integer";
        QTest::newRow("decimation bool") << R"({"decimation": true})"
                                         << "'decimation' is true (boolean); expected an integer";
        QTest::newRow("order 12") << R"({"low_pass": {"order": 12, "cutoff_hz": 1}})"
                                  << "'low_pass.order' is 12; expected an integer from 1 to 10";
        QTest::newRow("no cutoff") << R"({"low_pass": {"order": 4}})"
                                   << "'low_pass' needs 'cutoff_hz'";
        QTest::newRow("cutoff text") << R"({"low_pass": {"cutoff_hz": "5"}})"
                                     << "'low_pass.cutoff_hz' is \"5\" (string); expected a number";
        QTest::newRow("cutoff negative") << R"({"low_pass": {"cutoff_hz": -5}})"
                                         << "low-pass cutoff -5 Hz";
        QTest::newRow("low_pass typo") << R"({"low_pass": {"cutoff": 5}})"
                                       << "unknown member 'cutoff' in 'low_pass'";
        QTest::newRow("negative noise") << R"({"noise": {"percent": -1}})"
                                        << "noise level -1 %";
        QTest::newRow("no percent") << R"({"noise": {"seed": 1}})"
                                    << "'noise' needs 'percent'";
        QTest::newRow("distribution")
            << R"({"noise": {"percent": 5, "distribution": "pink"}})"
            << "'noise.distribution' is \"pink\" (string); expected \"uniform\" or \"gaussian\"";
        QTest::newRow("negative seed") << R"({"noise": {"percent": 5, "seed": -3}})"
                                       << "'noise.seed' is -3";
        QTest::newRow("fraction seed") << R"({"noise": {"percent": 5, "seed": 2.5}})"
                                       << "'noise.seed' is 2.5";
        QTest::newRow("window order") << R"({"window": {"start": 5, "end": 1}})"
                                      << "window from 5 to 1";
        QTest::newRow("window array") << R"({"window": [0, 1]})"
                                      << "'window' is [0,1] (array); expected an object";
        QTest::newRow("derivative method") << R"({"differentiation": {"method": "spline"}})"
                                           << "'differentiation.method' is \"spline\" (string); expected \"central\", "
                                              "\"savitzky-golay\" or \"smoothing-spline\"";
        QTest::newRow("even window") << R"({"differentiation": {"method": "savitzky-golay", "window": 8}})"
                                     << "Savitzky-Golay window 8; expected an odd number >= 3";
        QTest::newRow("order too high")
            << R"({"differentiation": {"method": "savitzky-golay", "window": 5, "order": 5}})"
            << "Savitzky-Golay order 5; expected 1 to 4";
        QTest::newRow("ends") << R"({"low_pass": {"cutoff_hz": 1, "ends": "even"}})"
                              << "'low_pass.ends' is \"even\" (string); expected \"least-squares\" or \"odd\"";
        QTest::newRow("after_filter") << R"({"window": {"start": 0, "end": 1, "after_filter": 1}})"
                                      << "'window.after_filter' is 1 (number); expected true or false";
        QTest::newRow("window half") << R"({"window": {"start": 0}})"
                                     << "'window' needs both 'start' and 'end'";
    }

    void jsonRejectsBadValues()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto j = nlohmann::json::parse(text.toStdString());
        const std::string m = messageOf<DataError>([&] { preprocessingFromJson(j); });
        QVERIFY2(contains(m, expected.toStdString()), m.c_str());
        QVERIFY2(contains(m, "preprocessing: "), m.c_str());
    }
};

QTEST_APPLESS_MAIN(TestDataPreprocessSettings)
#include "test_data_preprocess_settings.moc"
