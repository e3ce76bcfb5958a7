// Signal (interpolated input) and added measurement noise (seed note 004).

#include "engine/data/Noise.h"
#include "engine/data/Signal.h"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace sysid::data;

namespace {

// The straightforward definition, for comparison: scan for the segment.
double referenceAt(const std::vector<double>& t, const std::vector<double>& v, double x)
{
    if (x <= t.front())
        return v.front();
    if (x >= t.back())
        return v.back();
    std::size_t i = 0;
    while (!(t[i] <= x && x < t[i + 1]))
        ++i;
    if (x == t[i])
        return v[i];
    return v[i] + (v[i + 1] - v[i]) * ((x - t[i]) / (t[i + 1] - t[i]));
}

std::vector<double> sineSignal(std::size_t n)
{
    // Whole periods of 3 sin(t) + 1: RMS^2 = 9/2 + 1.
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i)
        s[i] = 3.0 * std::sin(2.0 * std::numbers::pi * 10.0 * static_cast<double>(i) / static_cast<double>(n)) + 1.0;
    return s;
}

struct Stats {
    double mean = 0, rms = 0, std = 0, maxAbs = 0;
};

Stats statsOf(const std::vector<double>& e)
{
    Stats s;
    double sum = 0, sumSq = 0;
    for (double x : e) {
        sum += x;
        sumSq += x * x;
        s.maxAbs = std::max(s.maxAbs, std::abs(x));
    }
    const double n = static_cast<double>(e.size());
    s.mean = sum / n;
    s.rms = std::sqrt(sumSq / n);
    s.std = std::sqrt(sumSq / n - s.mean * s.mean);
    return s;
}

std::vector<double> difference(const std::vector<double>& a, const std::vector<double>& b)
{
    std::vector<double> d(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        d[i] = a[i] - b[i];
    return d;
}

}  // namespace

class TestDataSignalNoise : public QObject {
    Q_OBJECT

private slots:
    void signalExactAtSamples()
    {
        std::mt19937_64 rng(1);
        std::vector<double> t, v;
        double time = -3.0;
        for (int i = 0; i < 1000; ++i) {
            time += 1e-3 + static_cast<double>(rng() % 1000) * 1e-4;  // uneven steps
            t.push_back(time);
            v.push_back(std::sin(time) * 1e3 + 0.1 * static_cast<double>(i));
        }
        const Signal s(t, v);
        QCOMPARE(s.size(), t.size());
        QVERIFY(s.time() == t);
        QVERIFY(s.values() == v);
        for (std::size_t i = 0; i < t.size(); ++i)
            QVERIFY2(s.at(t[i]) == v[i], qPrintable(QString("sample %1").arg(i)));
    }

    void signalLinearBetweenSamples()
    {
        const Signal s({0.0, 1.0, 3.0, 3.5}, {0.0, 2.0, -2.0, 10.0});
        QCOMPARE(s.at(0.5), 1.0);
        QCOMPARE(s.at(0.25), 0.5);
        QCOMPARE(s.at(2.0), 0.0);
        QCOMPARE(s.at(1.5), 1.0);
        QCOMPARE(s.at(2.5), -1.0);
        QCOMPARE(s.at(3.25), 4.0);
        // Linear in between: equal steps in t give equal steps in value.
        for (double a = 1.0; a < 2.9; a += 0.1) {
            const double d1 = s.at(a + 0.05) - s.at(a);
            QVERIFY(std::abs(d1 - (-2.0 * 0.05)) < 1e-12);
        }
        // Against the straightforward definition at many random points.
        std::mt19937_64 rng(2);
        std::vector<double> t(5000), v(5000);
        double time = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
            time += std::ldexp(static_cast<double>(rng() >> 11), -53) + 1e-6;
            t[i] = time;
            v[i] = std::ldexp(static_cast<double>(rng() >> 11), -53) * 2 - 1;
        }
        const Signal r(t, v);
        std::uniform_real_distribution<double> where(-1.0, time + 1.0);
        for (int k = 0; k < 20000; ++k) {
            const double x = where(rng);
            QVERIFY2(r.at(x) == referenceAt(t, v, x), qPrintable(QString("t = %1").arg(x, 0, 'g', 17)));
        }
    }

    void signalHintedLookupMatches()
    {
        // The hint only skips the search: any hint, any order of t gives the unhinted value bit for bit.
        std::mt19937_64 rng(7);
        std::vector<double> t{0.0}, v{1.0};
        for (int i = 1; i < 200; ++i) {
            t.push_back(t.back() + 0.01 + std::ldexp(static_cast<double>(rng() >> 11), -53));
            v.push_back(std::sin(t.back()));
        }
        const Signal s(t, v);
        std::uniform_real_distribution<double> jump(-1.0, t.back() + 1.0), step(0.0, 0.05);
        for (std::size_t start :
             {std::size_t{0}, std::size_t{57}, std::size_t{198}, std::size_t{199}, std::size_t{100000}}) {
            std::size_t hint = start;
            double x = -0.5;
            for (int k = 0; k < 5000; ++k) {
                x = k % 50 == 0 ? jump(rng) : x + step(rng);  // mostly advancing, sometimes anywhere
                QVERIFY2(s.at(x, hint) == referenceAt(t, v, x),
                         qPrintable(QString("start %1, t = %2").arg(start).arg(x, 0, 'g', 17)));
                QVERIFY(hint + 1 < t.size() || x <= t.front() || x >= t.back());
            }
            for (double at : t) {
                std::size_t h = start;
                QCOMPARE(s.at(at, h), s.at(at));
            }
        }
        const Signal one({2.0}, {3.5});
        std::size_t hint = 5;
        QCOMPARE(one.at(2.0, hint), 3.5);
        QVERIFY(std::isnan(s.at(std::numeric_limits<double>::quiet_NaN(), hint)));
    }

    void signalHoldsEndValues()
    {
        const Signal s({1.0, 2.0, 4.0}, {5.0, 7.0, -1.0});
        QCOMPARE(s.at(0.999), 5.0);
        QCOMPARE(s.at(-1e300), 5.0);
        QCOMPARE(s.at(-std::numeric_limits<double>::infinity()), 5.0);
        QCOMPARE(s.at(4.0001), -1.0);
        QCOMPARE(s.at(1e300), -1.0);
        QCOMPARE(s.at(std::numeric_limits<double>::infinity()), -1.0);
        QVERIFY(std::isnan(s.at(std::numeric_limits<double>::quiet_NaN())));
        const Signal one({2.0}, {3.5});
        QCOMPARE(one.at(-5.0), 3.5);
        QCOMPARE(one.at(2.0), 3.5);
        QCOMPARE(one.at(9.0), 3.5);
        // Values near the largest double do not overflow in between.
        const double big = std::numeric_limits<double>::max();
        const Signal huge({0.0, 1.0}, {-big, big});
        QVERIFY(std::isfinite(huge.at(0.5)));
        QVERIFY(std::abs(huge.at(0.5)) < 1e300);
    }

    void signalValidates()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({0.0, 1.0}, {1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({}, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({0.0, 1.0, 1.0}, {1.0, 2.0, 3.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({0.0, 2.0, 1.0}, {1.0, 2.0, 3.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({0.0, nan}, {1.0, 2.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({nan}, {1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({0.0, 1.0}, {1.0, inf}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Signal({-inf, 1.0}, {1.0, 2.0}));
        try {
            Signal({0.0, 2.0, 1.0}, {1.0, 2.0, 3.0});
            QFAIL("expected std::invalid_argument");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("sample 2") != std::string::npos, e.what());
        }
    }

    void signalLookupIsFast()
    {
        // 2 million look-ups in 100 000 samples: binary search takes milliseconds,
        // a linear scan would take minutes.
        const std::size_t n = 100000;
        std::vector<double> t(n), v(n);
        for (std::size_t i = 0; i < n; ++i) {
            t[i] = 0.01 * static_cast<double>(i);
            v[i] = std::sin(t[i]);
        }
        const Signal s(std::move(t), std::move(v));
        QElapsedTimer timer;
        timer.start();
        double sum = 0;
        for (int k = 0; k < 2000000; ++k)
            sum += s.at(std::fmod(0.37 * k, 1000.0));
        const qint64 ms = timer.elapsed();
        QVERIFY(std::isfinite(sum));
        QVERIFY2(ms < 5000, qPrintable(QString("took %1 ms").arg(ms)));
    }

    void rmsValues()
    {
        QCOMPARE(rms({}), 0.0);
        QCOMPARE(rms({0.0, 0.0}), 0.0);
        QCOMPARE(rms({3.0, 4.0}), std::sqrt(12.5));
        QCOMPARE(rms({-2.0}), 2.0);
        QCOMPARE(rms({1e200, -1e200}), 1e200);  // no overflow of x^2
        QCOMPARE(rms({1e-200, 1e-200}), 1e-200);  // no underflow of x^2
        QCOMPARE(rms(sineSignal(100000)), std::sqrt(5.5));
        QVERIFY(std::isnan(rms({1.0, std::numeric_limits<double>::quiet_NaN()})));
    }

    void noiseIsReproducible()
    {
        for (auto dist : {NoiseDistribution::Uniform, NoiseDistribution::Gaussian}) {
            const std::vector<double> clean = sineSignal(1001);
            std::vector<double> a = clean, b = clean, c = clean;
            std::mt19937_64 r1(42), r2(42), r3(43);
            addNoise(a, 10.0, dist, r1);
            addNoise(b, 10.0, dist, r2);
            addNoise(c, 10.0, dist, r3);
            QVERIFY(a == b);
            QVERIFY(a != c);
            QVERIFY(a != clean);
            // Every sample gets noise, the last of an odd count too.
            for (std::size_t i = 0; i < a.size(); ++i)
                QVERIFY2(a[i] != clean[i], qPrintable(QString("sample %1").arg(i)));
        }
    }

    void noiseValuesArePinned()
    {
        // The variates are computed by our own code, so a seed means the same
        // noise with every compiler and standard library: pin a few values.
        std::vector<double> u(3, 0.0), g(3, 0.0);
        u[0] = g[0] = 1.0;  // RMS = 1/sqrt(3)
        std::mt19937_64 r1(5), r2(5);
        addNoise(u, 100.0 * std::sqrt(3.0), NoiseDistribution::Uniform, r1);  // a = 1
        addNoise(g, 100.0 * std::sqrt(3.0), NoiseDistribution::Gaussian, r2);
        std::mt19937_64 raw(5);
        const double u0 = static_cast<double>(raw() >> 11) * 0x1.0p-53;
        QVERIFY(std::abs(u[0] - (1.0 + (2.0 * u0 - 1.0))) < 1e-14);
        // Box-Muller from the same two draws.
        std::mt19937_64 raw2(5);
        const double w1 = static_cast<double>((raw2() >> 11) + 1) * 0x1.0p-53;
        const double w2 = static_cast<double>(raw2() >> 11) * 0x1.0p-53;
        const double radius = std::sqrt(-2.0 * std::log(w1));
        QVERIFY(std::abs(g[0] - (1.0 + radius * std::cos(2.0 * std::numbers::pi * w2))) < 1e-14);
        QVERIFY(std::abs(g[1] - radius * std::sin(2.0 * std::numbers::pi * w2)) < 1e-14);
    }

    void uniformNoise()
    {
        // n = 100 000 values uniform in [-a, a]: mean 0 with standard error
        // a/sqrt(3n) = 0.0018 a; sample RMS a/sqrt(3) with relative standard
        // error sqrt(Var(e^2))/(2 E[e^2] sqrt(n)) = sqrt(4/45)/(2/3)/sqrt(n) = 0.0014.
        // Tolerances of 1 % on the RMS (7 standard errors) and 0.01 a on the mean
        // (5.5 standard errors) fail for a wrong scale (a/2, 2a, sigma = a) and
        // never for the right one.
        const std::size_t n = 100000;
        const std::vector<double> clean = sineSignal(n);
        const double p = 20.0;
        const double a = p / 100.0 * rms(clean);
        std::vector<double> noisy = clean;
        std::mt19937_64 rng(2024);
        addNoise(noisy, p, NoiseDistribution::Uniform, rng);
        const Stats s = statsOf(difference(noisy, clean));
        QVERIFY2(s.maxAbs <= a * (1 + 1e-12) + 1e-14, qPrintable(QString("max %1 > a %2").arg(s.maxAbs).arg(a)));
        QVERIFY2(s.maxAbs > 0.999 * a, qPrintable(QString("max %1, a %2").arg(s.maxAbs).arg(a)));
        QVERIFY2(std::abs(s.mean) < 0.01 * a, qPrintable(QString("mean %1").arg(s.mean)));
        QVERIFY2(std::abs(s.rms / (a / std::sqrt(3.0)) - 1.0) < 0.01,
                 qPrintable(QString("rms %1, expected %2").arg(s.rms).arg(a / std::sqrt(3.0))));
        // Flat: each tenth of [-a, a] holds 10 % +- 0.5 % (standard error 0.095 %).
        std::vector<int> bins(10, 0);
        for (double e : difference(noisy, clean))
            ++bins[std::min<std::size_t>(9, static_cast<std::size_t>((e + a) / (2 * a) * 10))];
        for (int b : bins)
            QVERIFY2(std::abs(b / double(n) - 0.1) < 0.005, qPrintable(QString("bin %1").arg(b)));
    }

    void noiseScalesWithCleanRms()
    {
        // A constant 2 has RMS 2: 10 % uniform noise lies within +-0.2.
        std::vector<double> x(10000, 2.0);
        std::mt19937_64 rng(9);
        addNoise(x, 10.0, NoiseDistribution::Uniform, rng);
        const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
        QVERIFY(*lo >= 1.8 - 1e-15 && *lo < 1.81);
        QVERIFY(*hi <= 2.2 + 1e-15 && *hi > 2.19);
        // Zero signal, zero noise; zero percent, no change.
        std::vector<double> zero(10, 0.0);
        addNoise(zero, 50.0, NoiseDistribution::Gaussian, rng);
        QVERIFY(zero == std::vector<double>(10, 0.0));
        const std::vector<double> clean = sineSignal(100);
        std::vector<double> same = clean;
        addNoise(same, 0.0, NoiseDistribution::Uniform, rng);
        QVERIFY(same == clean);
        std::vector<double> empty;
        addNoise(empty, 10.0, NoiseDistribution::Gaussian, rng);
        QVERIFY(empty.empty());
    }

    void gaussianNoise()
    {
        // n = 100 000 normal values with sigma = a: sample std has relative
        // standard error 1/sqrt(2n) = 0.22 %, the mean 0.0032 a, the fraction
        // beyond one sigma (0.3173) 0.0015. Tolerances 1.5 %, 0.02 a and 0.01
        // are 6-7 standard errors; uniform noise of the same RMS would put
        // 0.42 beyond one sigma and never beyond sqrt(3) sigma.
        const std::size_t n = 100000;
        const std::vector<double> clean = sineSignal(n);
        const double p = 5.0;
        const double a = p / 100.0 * rms(clean);
        std::vector<double> noisy = clean;
        std::mt19937_64 rng(77);
        addNoise(noisy, p, NoiseDistribution::Gaussian, rng);
        const std::vector<double> e = difference(noisy, clean);
        const Stats s = statsOf(e);
        QVERIFY2(std::abs(s.std / a - 1.0) < 0.015, qPrintable(QString("std %1, expected %2").arg(s.std).arg(a)));
        QVERIFY2(std::abs(s.mean) < 0.02 * a, qPrintable(QString("mean %1").arg(s.mean)));
        const double beyond1 =
            static_cast<double>(std::count_if(e.begin(), e.end(), [&](double x) { return std::abs(x) > a; })) /
            double(n);
        QVERIFY2(std::abs(beyond1 - 0.3173) < 0.01, qPrintable(QString("beyond 1 sigma: %1").arg(beyond1)));
        const auto beyond3 = std::count_if(e.begin(), e.end(), [&](double x) { return std::abs(x) > 3 * a; });
        QVERIFY2(beyond3 > 150 && beyond3 < 400,
                 qPrintable(QString("beyond 3 sigma: %1").arg(beyond3)));  // 270 expected
    }

    void noiseRejectsBadArguments()
    {
        std::mt19937_64 rng(1);
        std::vector<double> x = {1.0, 2.0};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, addNoise(x, -1.0, NoiseDistribution::Uniform, rng));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            addNoise(x, std::numeric_limits<double>::quiet_NaN(), NoiseDistribution::Uniform, rng));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            addNoise(x, std::numeric_limits<double>::infinity(), NoiseDistribution::Gaussian, rng));
        std::vector<double> bad = {1.0, std::numeric_limits<double>::quiet_NaN()};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, addNoise(bad, 5.0, NoiseDistribution::Gaussian, rng));
        QVERIFY((x == std::vector<double>{1.0, 2.0}));
    }

    void parsesDistributionNames()
    {
        QCOMPARE(parseNoiseDistribution("uniform"), std::optional(NoiseDistribution::Uniform));
        QCOMPARE(parseNoiseDistribution("gaussian"), std::optional(NoiseDistribution::Gaussian));
        QCOMPARE(parseNoiseDistribution("Gaussian"), std::optional(NoiseDistribution::Gaussian));
        QCOMPARE(parseNoiseDistribution("UNIFORM"), std::optional(NoiseDistribution::Uniform));
        QCOMPARE(parseNoiseDistribution(""), std::optional<NoiseDistribution>());
        QCOMPARE(parseNoiseDistribution("normal"), std::optional<NoiseDistribution>());
        QCOMPARE(parseNoiseDistribution("uniform "), std::optional<NoiseDistribution>());
        for (auto d : {NoiseDistribution::Uniform, NoiseDistribution::Gaussian})
            QCOMPARE(parseNoiseDistribution(noiseDistributionName(d)), std::optional(d));
    }
};

QTEST_APPLESS_MAIN(TestDataSignalNoise)
#include "test_data_signal_noise.moc"
