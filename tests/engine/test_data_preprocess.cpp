// Signal preprocessing: Butterworth design, zero-phase filtering, decimation,
// resampling, windows, differentiation, integration and Welch spectra.

#include "TextTestSupport.h"

#include "engine/data/Butterworth.h"
#include "engine/data/CutoffSuggestion.h"
#include "engine/data/DataError.h"
#include "engine/data/DataTable.h"
#include "engine/data/Differentiation.h"
#include "engine/data/Noise.h"
#include "engine/data/Preprocessing.h"
#include "engine/data/Resampling.h"
#include "engine/data/SmoothingSpline.h"
#include "engine/data/SpectralPeak.h"
#include "engine/data/Spectrum.h"
#include "engine/data/ZeroPhaseFilter.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace sysid::data;
using sysid::test::contains;
using sysid::test::messageOf;

namespace {

constexpr double pi = std::numbers::pi;

double maxAbsDifference(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
        return INFINITY;
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        m = std::max(m, std::abs(a[i] - b[i]));
    return m;
}

std::vector<double> uniformTime(std::size_t n, double dt, double t0 = 0)
{
    std::vector<double> t(n);
    for (std::size_t i = 0; i < n; ++i)
        t[i] = t0 + static_cast<double>(i) * dt;
    return t;
}

template <class F>
std::vector<double> sample(const std::vector<double>& t, F f)
{
    std::vector<double> v(t.size());
    for (std::size_t i = 0; i < t.size(); ++i)
        v[i] = f(t[i]);
    return v;
}

std::vector<double> flatten(const std::vector<SecondOrderSection>& sections)
{
    std::vector<double> v;
    for (const auto& s : sections)
        v.insert(v.end(), {s.b0, s.b1, s.b2, s.a1, s.a2});
    return v;
}

// Amplitude and phase (radians, relative to sin) of the component at frequency f
// in samples from..to-1 (an integer number of periods).
std::pair<double, double> toneOf(const std::vector<double>& t, const std::vector<double>& y, double f, std::size_t from,
                                 std::size_t to)
{
    double s = 0, c = 0;
    for (std::size_t i = from; i < to; ++i) {
        s += y[i] * std::sin(2 * pi * f * t[i]);
        c += y[i] * std::cos(2 * pi * f * t[i]);
    }
    const double m = static_cast<double>(to - from);
    return {2.0 / m * std::hypot(s, c), std::atan2(c, s)};
}

// Reference values computed with SciPy 1.10.1 (Debian bookworm, /usr/bin/python3):
//   import numpy as np, scipy.signal as s
//   s.butter(N, fc/(fs/2), output='sos')[:, [0,1,2,4,5]]     (b0 b1 b2 a1 a2 per section)
//   x = np.round(np.random.default_rng(2024).standard_normal(40), 4)
//   s.sosfiltfilt(s.butter(4, 0.2, output='sos'), x)
//   s.sosfiltfilt(s.butter(3, 0.2, output='sos'), x)
//   s.sosfiltfilt(s.butter(4, 0.2, output='sos'), x[:12], padlen=11)
// printed with repr() (shortest round-trip text).
const std::vector<double> scipyButter2At10Of100 = {0.06745527388907192, 0.13491054777814385, 0.06745527388907192,
                                                   -1.1429805025399011, 0.41280159809618877};
const std::vector<double> scipyButter4At10Of100 = {0.004824343357716231,
                                                   0.009648686715432462,
                                                   0.004824343357716231,
                                                   -1.0485995763626117,
                                                   0.2961403575616696,
                                                   1.0,
                                                   2.0,
                                                   1.0,
                                                   -1.320913430819426,
                                                   0.6327387928852762};
const std::vector<double> scipyButter2At1Of67 = {0.0020605693531623175, 0.004121138706324635, 0.0020605693531623175,
                                                 -1.8675528271421369, 0.8757951045547862};
const std::vector<double> scipyButter4At09Of67 = {2.847038886795201e-06,
                                                  5.694077773590402e-06,
                                                  2.847038886795201e-06,
                                                  -1.8488826752312881,
                                                  0.8554875620143805,
                                                  1.0,
                                                  2.0,
                                                  1.0,
                                                  -1.9305985669237133,
                                                  0.9374953728319284};

const std::vector<double> scipyX40 = {1.0289,  1.6419,  1.1467,  -0.9732, -1.3928, 0.0672,  0.8614,  0.5092,
                                      1.8103,  0.7508,  0.6398,  -0.7313, -1.1077, 1.4844,  0.0489,  0.8115,
                                      -1.3764, -0.4364, -1.2911, -0.7757, 0.9031,  -1.4806, -0.5341, 0.1638,
                                      -0.6685, -0.2523, -0.2219, 0.4181,  -0.4313, 0.2723,  0.0568,  0.4246,
                                      0.2249,  1.6577,  -0.6637, 1.1992,  -0.4026, -0.9579, 1.2112,  -0.4395};
const std::vector<double> scipyFiltFiltOrder4 = {
    1.0402081412749145,  0.5894845808522128,   0.2198049997383274,   -0.0014342553553682719, -0.04468705590814935,
    0.06969819057006471, 0.2761700936040684,   0.4876213289452668,   0.6281828139354942,     0.6589608992037566,
    0.5844053796233559,  0.43823852641867767,  0.2596699043170283,   0.07543369341750253,    -0.1029613045148681,
    -0.2699926889640036, -0.41643036493658286, -0.5281073887283457,  -0.592676369399702,     -0.6070887713815025,
    -0.5793747785359995, -0.5241849876531932,  -0.456212577184518,   -0.3854630223777567,    -0.3154999100322766,
    -0.2440515184141486, -0.16521342613678502, -0.07260210073976314, 0.03707466606393949,    0.1606123556126023,
    0.2862762174122993,  0.39481376846542937,  0.46425757866996453,  0.47704101467394855,    0.4259952113576873,
    0.31591050791214975, 0.15995703762796934,  -0.02643282653911909, -0.23026995408768647,   -0.4420993945629868};
const std::vector<double> scipyFiltFiltOrder3 = {
    1.0437044738994292,  0.6133519389618323,  0.2480907195758969,   0.01532378474347039,  -0.03883918797770812,
    0.07813262025602669, 0.29637417469335675, 0.5127721329776176,   0.6388629373477311,   0.6380089692086925,
    0.5327580945599382,  0.37928231729108264, 0.2253664827045524,   0.08298534681234007,  -0.06354508240034044,
    -0.2260809296172061, -0.3910510261445901, -0.5259827543036512,  -0.60318740886582,    -0.6175515231773706,
    -0.5849952813123128, -0.5271801993982422, -0.45927212585960564, -0.38847527807943555, -0.3166323893695642,
    -0.2418070318850691, -0.1602048179159366, -0.06786254554663439, 0.03851988881340665,  0.15882516861840734,
    0.2846642435528997,  0.3970225770920381,  0.4702858586581488,   0.4822329906937457,   0.4244662551192814,
    0.305488498427481,   0.14406185164291202, -0.04170893972345828, -0.24072062847587722, -0.44591276359640053};
const std::vector<double> scipyFiltFiltOrder4Short = {0.9962565315010212,   0.5153011396907654,    0.1445103787954864,
                                                      -0.03662649751326848, 0.0007587323908897561, 0.21673496214504595,
                                                      0.5054335134816693,   0.7245927209668145,    0.7435206906925533,
                                                      0.4909146550958234,   -0.01707094534933732,  -0.680562000151322};

// A unit sine over 20 s sampled every 0.01 s with Gaussian noise of 2 % of its RMS (seed 5): the
// derivative methods are compared on it against the exact slope.
struct NoisySine {
    std::vector<double> t = uniformTime(2000, 0.01);
    std::vector<double> x;
    NoisySine()
    {
        x = sample(t, [](double s) { return std::sin(2 * pi * s); });
        std::mt19937_64 rng(5);
        addNoise(x, 2.0, NoiseDistribution::Gaussian, rng);
    }
    double derivativeRmsError(const std::vector<double>& d) const
    {
        double sum = 0;
        for (std::size_t i = 0; i < d.size(); ++i) {
            const double exact = 2 * pi * std::cos(2 * pi * t[i]);
            sum += (d[i] - exact) * (d[i] - exact);
        }
        return std::sqrt(sum / static_cast<double>(d.size()));
    }
};

}  // namespace

class TestDataPreprocess : public QObject {
    Q_OBJECT

private slots:
    void butterworthMatchesScipy()
    {
        struct Case {
            int order;
            double fc, fs;
            const std::vector<double>* expected;
        };
        const Case cases[] = {{2, 10.0, 100.0, &scipyButter2At10Of100},
                              {4, 10.0, 100.0, &scipyButter4At10Of100},
                              {2, 1.0, 67.0, &scipyButter2At1Of67},
                              {4, 0.9, 67.0, &scipyButter4At09Of67}};
        for (const auto& c : cases) {
            const auto got = flatten(butterworthLowPass(c.order, c.fc, c.fs));
            QCOMPARE(got.size(), c.expected->size());
            for (std::size_t i = 0; i < got.size(); ++i) {
                const double want = (*c.expected)[i];
                QVERIFY2(std::abs(got[i] - want) <= 1e-12 * std::abs(want) + 1e-15,
                         qPrintable(QString("order %1, fc %2, fs %3, coefficient %4: %5 vs SciPy %6")
                                        .arg(c.order)
                                        .arg(c.fc)
                                        .arg(c.fs)
                                        .arg(i)
                                        .arg(got[i], 0, 'g', 17)
                                        .arg(want, 0, 'g', 17)));
            }
        }
    }

    void butterworthMagnitude()
    {
        // Bilinear Butterworth: |H(f)|^2 = 1 / (1 + (tan(pi f/fs) / tan(pi fc/fs))^(2N)).
        for (int order = 1; order <= 10; ++order) {
            for (double fc : {0.05, 1.0, 10.0, 30.0, 49.0}) {
                const double fs = 100;
                const auto sections = butterworthLowPass(order, fc, fs);
                QCOMPARE(sections.size(), static_cast<std::size_t>((order + 1) / 2));
                int firstOrder = 0;
                for (const auto& s : sections)
                    firstOrder += (s.b2 == 0 && s.a2 == 0) ? 1 : 0;
                QCOMPARE(firstOrder, order % 2);
                QVERIFY(std::abs(std::abs(frequencyResponse(sections, 0, fs)) - 1) < 1e-12);
                const double atCutoff = std::abs(frequencyResponse(sections, fc, fs));
                QVERIFY2(
                    std::abs(atCutoff - 1 / std::sqrt(2.0)) < 1e-10,
                    qPrintable(QString("order %1 fc %2: |H(fc)| = %3").arg(order).arg(fc).arg(atCutoff, 0, 'g', 17)));
                for (double f : {0.3 * fc, 0.9 * fc, std::min(1.5 * fc, 49.9), 45.0}) {
                    const double ratio = std::tan(pi * f / fs) / std::tan(pi * fc / fs);
                    const double want = 1 / (1 + std::pow(ratio, 2 * order));
                    const double got = std::norm(frequencyResponse(sections, f, fs));
                    QVERIFY2(std::abs(got - want) <= 1e-9 * want + 1e-14,
                             qPrintable(QString("order %1 fc %2 f %3: |H|^2 = %4, expected %5")
                                            .arg(order)
                                            .arg(fc)
                                            .arg(f)
                                            .arg(got)
                                            .arg(want)));
                }
            }
        }
    }

    void butterworthRejectsBadArguments()
    {
        auto msg = [](int order, double fc, double fs) {
            return messageOf<std::invalid_argument>([&] { butterworthLowPass(order, fc, fs); });
        };
        QVERIFY(contains(msg(0, 1, 10), "expected an order from 1 to 10"));
        QVERIFY(contains(msg(11, 1, 10), "expected an order from 1 to 10"));
        QVERIFY(contains(msg(4, 5, 10), "expected 0 < cutoff < 5 Hz"));
        QVERIFY(contains(msg(4, 0, 10), "expected 0 < cutoff < 5 Hz"));
        QVERIFY(contains(msg(4, NAN, 10), "cutoff"));
        QVERIFY(contains(msg(4, 1, 0), "sample rate"));
    }

    void filtFiltPassesSlowSineWithoutLag()
    {
        const double fs = 100;
        const auto t = uniformTime(1000, 1 / fs);
        const auto x = sample(t, [](double s) { return std::sin(2 * pi * 0.5 * s + 0.3); });
        const auto y = filtFilt(butterworthLowPass(4, 10, fs), x);
        const double err = maxAbsDifference(x, y);
        QVERIFY2(err < 1e-3, qPrintable(QString("max error %1").arg(err)));
        // One sample of lag would be an error of 2 pi 0.5 / 100 = 0.03.
        const auto [amp, phase] = toneOf(t, y, 0.5, 0, 800);
        QVERIFY2(std::abs(phase - 0.3) < 1e-4, qPrintable(QString("phase %1").arg(phase)));
        QVERIFY(std::abs(amp - 1) < 1e-3);
    }

    void filtFiltAttenuatesFastSineBySquaredMagnitude()
    {
        const double fs = 100;
        const auto sections = butterworthLowPass(4, 10, fs);
        const auto t = uniformTime(1000, 1 / fs);
        const double f = 20;
        const auto x = sample(t, [&](double s) { return std::sin(2 * pi * f * s); });
        const auto y = filtFilt(sections, x);
        const double want = std::norm(frequencyResponse(sections, f, fs));  // |H|^2
        const auto [amp, phase] = toneOf(t, y, f, 200, 800);
        QVERIFY2(std::abs(amp / want - 1) < 1e-3, qPrintable(QString("amplitude %1, |H|^2 = %2").arg(amp).arg(want)));
        QVERIFY2(std::abs(phase) < 1e-3, qPrintable(QString("phase %1").arg(phase)));
    }

    void filtFiltConstantAndRampHaveNoEdgeTransient()
    {
        for (const FilterEnds ends : {FilterEnds::LeastSquares, FilterEnds::Odd}) {
            for (int order : {1, 3, 4, 8, 10}) {
                const auto sections = butterworthLowPass(order, 2, 100);
                const std::vector<double> c(50, 3.7);
                QVERIFY2(maxAbsDifference(filtFilt(sections, c, ends), c) < 1e-12,
                         qPrintable(QString("order %1").arg(order)));
                // Also when the signal is shorter than the default padding.
                const std::vector<double> shortC(order + 1, -2.5);
                QVERIFY(maxAbsDifference(filtFilt(sections, shortC, ends), shortC) < 1e-12);
            }
            // A slow ramp: odd reflection continues it, and only the mismatch of the
            // constant initial state decays over the padding; least squares removes that too.
            const auto t = uniformTime(400, 0.01);
            const auto ramp = sample(t, [](double s) { return 2.0 * s - 1.0; });
            const auto y = filtFilt(butterworthLowPass(4, 10, 100), ramp, ends);
            const double err = maxAbsDifference(y, ramp);
            QVERIFY2(err < (ends == FilterEnds::Odd ? 1e-3 : 1e-12), qPrintable(QString("ramp max error %1").arg(err)));
        }
    }

    // A sinusoid in the pass band comes out as |H|^2 times itself (zero phase) up to both ends of
    // the record with least-squares ends, whatever its phase there; odd reflection bends it where
    // the signal has curvature at an end (a cosine phase).
    void filtFiltLeastSquaresEndsKeepAPassBandSine()
    {
        const double fs = 100;
        const auto sections = butterworthLowPass(4, 10, fs);
        const auto t = uniformTime(500, 1 / fs);
        for (const double f : {0.5, 1.0, 3.0}) {
            const double gain = std::norm(frequencyResponse(sections, f, fs));
            for (const double phase : {0.0, 0.7, pi / 2}) {
                const auto x = sample(t, [&](double s) { return std::cos(2 * pi * f * s + phase); });
                std::vector<double> expected = x;
                for (double& v : expected)
                    v *= gain;
                const double ls = maxAbsDifference(filtFilt(sections, x), expected);
                const double odd = maxAbsDifference(filtFilt(sections, x, FilterEnds::Odd), expected);
                // The ends are fitted to the data, not to |H|^2 x: they lean towards x by up to 1 - |H|^2.
                QVERIFY2(
                    ls < 1e-8 + 2 * (1 - gain),
                    qPrintable(QString("%1 Hz, phase %2: least-squares ends off by %3").arg(f).arg(phase).arg(ls)));
                if (phase == 0.0)
                    QVERIFY2(odd > 5e-4, qPrintable(QString("%1 Hz: odd ends off by only %2").arg(f).arg(odd)));
            }
        }
    }

    // The seed 004 situation: a record that starts at an impulse, the free decay of an oscillator
    // (1 Hz, damping 0.5 1/s) from u(0) = 0, u'(0) = 1, in the pass band of a 10 Hz low-pass. The
    // velocity starts with a curvature (-omega^2), the displacement with a slope; least-squares ends
    // keep both to 1e-6, odd reflection bends the velocity by 2e-3 of its peak at the start.
    void filtFiltLeastSquaresEndsKeepARecordThatStartsAtAnImpulse()
    {
        const double fs = 100;
        const auto sections = butterworthLowPass(4, 10, fs);
        const auto t = uniformTime(500, 1 / fs);
        const double g = 0.5, w = 2 * pi, wd = std::sqrt(w * w - g * g);
        const auto u = sample(t, [&](double s) { return std::exp(-g * s) * std::sin(wd * s) / wd; });
        const auto v =
            sample(t, [&](double s) { return std::exp(-g * s) * (std::cos(wd * s) - g / wd * std::sin(wd * s)); });
        const double uPeak = *std::max_element(u.begin(), u.end());
        QVERIFY(maxAbsDifference(filtFilt(sections, u), u) < 1e-6 * uPeak);
        QVERIFY(maxAbsDifference(filtFilt(sections, v), v) < 1e-6);
        const double odd = maxAbsDifference(filtFilt(sections, v, FilterEnds::Odd), v);
        QVERIFY2(odd > 1e-3, qPrintable(QString("odd ends off by %1").arg(odd)));
        // A record long enough that each end is fitted on its own (n > 2 x the settling length).
        const auto longT = uniformTime(5000, 1 / fs);
        const auto longV = sample(longT, [&](double s) { return std::cos(2 * pi * 0.5 * s + 0.3); });
        QVERIFY(2 * settlingSamples(sections, 1e-16) < longV.size());
        QVERIFY(maxAbsDifference(filtFilt(sections, longV), longV) < 1e-8);
    }

    void settlingFollowsTheSlowestPole()
    {
        QCOMPARE(settlingSamples({}, 0.01), std::size_t(0));
        SecondOrderSection first;  // pole at 0.5
        first.b0 = 0.5;
        first.a1 = -0.5;
        QCOMPARE(settlingSamples({first}, 1e-3), std::size_t(10));  // 0.5^10 < 1e-3 < 0.5^9
        SecondOrderSection resonant;  // poles 0.9 exp(+-i 0.3)
        resonant.a1 = -2 * 0.9 * std::cos(0.3);
        resonant.a2 = 0.81;
        QCOMPARE(settlingSamples({first, resonant}, 0.01), std::size_t(44));  // 0.9^44 < 0.01 < 0.9^43
    }

    void filtFiltMatchesScipy()
    {
        struct Case {
            int order;
            std::size_t n;
            const std::vector<double>* expected;
        };
        const Case cases[] = {
            {4, 40, &scipyFiltFiltOrder4}, {3, 40, &scipyFiltFiltOrder3}, {4, 12, &scipyFiltFiltOrder4Short}};
        for (const auto& c : cases) {
            const std::vector<double> x(scipyX40.begin(), scipyX40.begin() + static_cast<std::ptrdiff_t>(c.n));
            const auto y = filtFilt(butterworthLowPass(c.order, 10, 100), x, FilterEnds::Odd);
            const double err = maxAbsDifference(y, *c.expected);
            QVERIFY2(err < 1e-10,
                     qPrintable(QString("order %1, %2 samples: max difference %3").arg(c.order).arg(c.n).arg(err)));
        }
    }

    void filtFiltPaddingAndLengthLimits()
    {
        QCOMPARE(defaultPadLength(butterworthLowPass(4, 10, 100)), std::size_t(15));
        QCOMPARE(defaultPadLength(butterworthLowPass(3, 10, 100)), std::size_t(12));
        QCOMPARE(defaultPadLength(butterworthLowPass(5, 10, 100)), std::size_t(18));
        const auto sections = butterworthLowPass(4, 10, 100);
        QCOMPARE(minimumFilterLength(sections), std::size_t(5));
        const std::string m = messageOf<std::invalid_argument>([&] { filtFilt(sections, {1, 2, 3, 4}); });
        QVERIFY2(contains(m, "4 samples") && contains(m, "at least 5"), m.c_str());
        QCOMPARE(filtFilt(sections, {1, 2, 3, 4, 5}).size(), std::size_t(5));
        QVERIFY(contains(messageOf<std::invalid_argument>([&] {
                             filtFilt(sections, {1, 2, NAN, 4, 5, 6});
                         }),
                         "sample 3"));
        QCOMPARE(filtFilt({}, {1.0, 2.0}), (std::vector<double>{1.0, 2.0}));
    }

    void decimateKeepsSlowSine()
    {
        const double fs = 100;
        const auto t = uniformTime(1001, 1 / fs);
        auto slow = [](double s) { return std::sin(2 * pi * 0.25 * s + 0.2); };
        const auto d = decimate(t, sample(t, slow), 4);
        QCOMPARE(d.time.size(), std::size_t(251));
        QCOMPARE(d.values.size(), std::size_t(251));
        for (std::size_t i = 0; i < d.time.size(); ++i) {
            QCOMPARE(d.time[i], t[4 * i]);
            QVERIFY2(std::abs(d.values[i] - slow(d.time[i])) < 1e-3,
                     qPrintable(QString("t = %1: %2").arg(d.time[i]).arg(d.values[i])));
        }
        // 20 Hz lies above the new Nyquist frequency 12.5 Hz and is removed (away from the
        // ends, where the filter starts from a steady state for the first sample: SciPy's
        // sosfiltfilt leaves the same 2e-3 at t = 0).
        const auto x = sample(t, [&](double s) { return slow(s) + 0.5 * std::sin(2 * pi * 20 * s); });
        const auto dx = decimate(t, x, 4);
        for (std::size_t i = 0; i < dx.time.size(); ++i) {
            const bool nearEnd = i < 5 || i + 5 >= dx.time.size();
            QVERIFY2(std::abs(dx.values[i] - slow(dx.time[i])) < (nearEnd ? 5e-3 : 3e-4),
                     qPrintable(QString("t = %1: %2").arg(dx.time[i]).arg(dx.values[i])));
        }
        const auto same = decimate(t, x, 1);
        QCOMPARE(same.values, x);
    }

    void decimateRejectsBadInput()
    {
        auto t = uniformTime(100, 0.01);
        const std::vector<double> x(100, 1.0);
        QVERIFY(contains(messageOf<std::invalid_argument>([&] { decimate(t, x, 0); }), "factor 0"));
        t[50] += 1e-5;
        const std::string m = messageOf<std::invalid_argument>([&] { decimate(t, x, 2); });
        QVERIFY2(contains(m, "not uniformly sampled"), m.c_str());
        t[50] -= 1e-5;
        t[50] += 1e-13;  // within 1e-9 relative: accepted
        QCOMPARE(decimate(t, x, 2).values.size(), std::size_t(50));
        QVERIFY(contains(messageOf<std::invalid_argument>([&] { decimate(t, {1.0, 2.0}, 2); }), "same number"));
    }

    void resampleUniformInterpolatesLinearly()
    {
        const std::vector<double> t = {0.0, 0.3, 0.5, 1.2, 2.0};
        const auto v = sample(t, [](double s) { return 2 * s + 1; });
        const auto r = resampleUniform(t, v, 0.25);
        QCOMPARE(r.time.size(), std::size_t(9));
        for (std::size_t i = 0; i < r.time.size(); ++i) {
            QCOMPARE(r.time[i], 0.25 * static_cast<double>(i));
            QVERIFY(std::abs(r.values[i] - (2 * r.time[i] + 1)) < 1e-14);
        }
        QCOMPARE(r.values.back(), 5.0);
        const auto r3 = resampleUniform(t, v, 0.3);
        QCOMPARE(r3.time.size(), std::size_t(7));  // 0 .. 1.8
        QCOMPARE(r3.values[1], v[1]);  // exactly at a sample
        // Piecewise linear data: the interpolant follows the pieces.
        const auto tri = resampleUniform({0.0, 1.0, 2.0}, {0.0, 1.0, 0.0}, 0.5);
        QCOMPARE(tri.values, (std::vector<double>{0.0, 0.5, 1.0, 0.5, 0.0}));
        QVERIFY(contains(messageOf<std::invalid_argument>([&] { resampleUniform(t, v, 0); }), "interval 0"));
        QVERIFY(contains(messageOf<std::invalid_argument>([&] {
                             resampleUniform({0.0, 1.0, 1.0}, {1.0, 2.0, 3.0}, 0.1);
                         }),
                         "strictly increasing"));
    }

    void trimWindowKeepsRowsInside()
    {
        DataTable table;
        table.source = "run.csv";
        table.columnNames = {"x", "t"};
        table.timeColumn = 1;
        table.columns = {{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
        const DataTable w = trimWindow(table, 2.5, 6);
        QCOMPARE(w.columns[1], (std::vector<double>{3, 4, 5, 6}));
        QCOMPARE(w.columns[0], (std::vector<double>{13, 14, 15, 16}));
        QCOMPARE(w.columnNames, table.columnNames);
        QCOMPARE(w.timeColumn, std::size_t(1));
        QCOMPARE(w.source, table.source);
        const std::string m = messageOf<DataError>([&] { trimWindow(table, 20, 30); });
        QVERIFY2(contains(m, "run.csv") && contains(m, "[20, 30]") && contains(m, "from 0 to 9") &&
                     contains(m, "at least 2"),
                 m.c_str());
        QVERIFY(contains(messageOf<DataError>([&] { trimWindow(table, 2.5, 3.5); }), "holds 1 sample"));
        QVERIFY(contains(messageOf<DataError>([&] { trimWindow(table, 5, 1); }), "start <= end"));
    }

    void centralDifferenceExactForQuadratics()
    {
        // Non-uniform grid.
        std::vector<double> t = {0.0};
        std::mt19937_64 rng(11);
        for (int i = 0; i < 30; ++i)
            t.push_back(t.back() + 0.05 + 0.2 * static_cast<double>(rng() >> 11) * 0x1.0p-53);
        const auto f = sample(t, [](double s) { return 3 * s * s - 2 * s + 1; });
        const auto d = differentiate(t, f, DerivativeMethod::CentralDifference);
        const auto exact = sample(t, [](double s) { return 6 * s - 2; });
        QVERIFY2(maxAbsDifference(d, exact) < 1e-10, qPrintable(QString("error %1").arg(maxAbsDifference(d, exact))));
        // A cubic is not exact: the test above can fail.
        const auto g = sample(t, [](double s) { return s * s * s; });
        const auto dg = differentiate(t, g, DerivativeMethod::CentralDifference);
        QVERIFY(maxAbsDifference(dg, sample(t, [](double s) { return 3 * s * s; })) > 1e-4);
        QCOMPARE(differentiate({1.0, 3.0}, {2.0, 6.0}, DerivativeMethod::CentralDifference),
                 (std::vector<double>{2.0, 2.0}));
    }

    void savitzkyGolayExactForCubics()
    {
        auto cubic = [](double s) { return 0.5 * s * s * s - 2 * s * s + s - 4; };
        auto slope = [](double s) { return 1.5 * s * s - 4 * s + 1; };
        for (auto [n, window] : {std::pair{40, 7}, std::pair{40, 11}, std::pair{5, 7}, std::pair{7, 7}}) {
            const auto t = uniformTime(static_cast<std::size_t>(n), 0.1, -1.0);
            const auto d = differentiate(t, sample(t, cubic), DerivativeMethod::SavitzkyGolay, window, 3);
            const double err = maxAbsDifference(d, sample(t, slope));
            QVERIFY2(err < 1e-9, qPrintable(QString("n %1 window %2: error %3").arg(n).arg(window).arg(err)));
        }
        // Order 2 is not exact for a cubic.
        const auto t = uniformTime(40, 0.1);
        const auto d2 = differentiate(t, sample(t, cubic), DerivativeMethod::SavitzkyGolay, 7, 2);
        QVERIFY(maxAbsDifference(d2, sample(t, slope)) > 1e-3);
    }

    void savitzkyGolayBeatsCentralDifferenceOnNoise()
    {
        const NoisySine sine;
        const auto& t = sine.t;
        const auto& x = sine.x;
        auto rmsError = [&](const std::vector<double>& d) { return sine.derivativeRmsError(d); };
        const double central = rmsError(differentiate(t, x, DerivativeMethod::CentralDifference));
        const double sg = rmsError(differentiate(t, x, DerivativeMethod::SavitzkyGolay));
        const double sgWide = rmsError(differentiate(t, x, DerivativeMethod::SavitzkyGolay, 21, 3));
        QVERIFY2(sg < 0.85 * central, qPrintable(QString("SG %1, central %2").arg(sg).arg(central)));
        QVERIFY2(sgWide < 0.3 * central, qPrintable(QString("SG(21) %1, central %2").arg(sgWide).arg(central)));
    }

    // Green & Silverman (1994) sec. 2.3: alpha = 0 is the natural interpolating spline (slope error
    // O(h^3) for a function with zero second derivative at the ends); alpha -> infinity the
    // least-squares line.
    void smoothingSplineLimits()
    {
        auto f = [](double s) { return std::sin(pi * s); };
        double interpolationError = 0.0;
        auto slopeError = [&](std::size_t n) {
            const auto t = uniformTime(n, 1.0 / static_cast<double>(n - 1));
            const auto y = sample(t, f);
            const SmoothingSpline s = smoothingSpline(t, y, 0.0);
            interpolationError = std::max(interpolationError, maxAbsDifference(s.values, y));
            return maxAbsDifference(s.slopes, sample(t, [](double u) { return pi * std::cos(pi * u); }));
        };
        const double coarse = slopeError(21), fine = slopeError(41);
        QVERIFY2(coarse / fine > 6.0, qPrintable(QString("slope errors %1 and %2").arg(coarse).arg(fine)));
        QVERIFY(interpolationError < 1e-12);
        const std::vector<double> t = {0.0, 0.3, 0.5, 1.1, 1.2, 2.0};
        const std::vector<double> y = {1.0, 0.2, 0.9, 2.0, 1.1, 2.5};
        const SmoothingSpline line = smoothingSpline(t, y, 1e12);
        double tm = 0, ym = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
            tm += t[i] / 6;
            ym += y[i] / 6;
        }
        double sty = 0, stt = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
            sty += (t[i] - tm) * (y[i] - ym);
            stt += (t[i] - tm) * (t[i] - tm);
        }
        for (double slope : line.slopes)
            QVERIFY2(std::abs(slope - sty / stt) < 1e-6, qPrintable(QString::number(slope)));
    }

    void smoothingSplineBeatsCentralDifferenceOnNoise()
    {
        const NoisySine sine;
        const auto& t = sine.t;
        const auto& x = sine.x;
        auto rmsError = [&](const std::vector<double>& d) { return sine.derivativeRmsError(d); };
        const double central = rmsError(differentiate(t, x, DerivativeMethod::CentralDifference));
        const double spline = rmsError(differentiate(t, x, DerivativeMethod::SmoothingSpline));
        QVERIFY2(spline < 0.1 * central, qPrintable(QString("spline %1, central %2").arg(spline).arg(central)));
        // The smoothing is set by the noise: the residual RMS is the estimated noise level.
        const SmoothingSpline s = smoothingSplineForResidual(t, x, noiseSd(t, x.data()));
        QVERIFY(s.alpha > 0);
        double sum = 0;
        for (std::size_t i = 0; i < t.size(); ++i)
            sum += (x[i] - s.values[i]) * (x[i] - s.values[i]);
        const double residual = std::sqrt(sum / static_cast<double>(t.size()));
        QVERIFY2(std::abs(residual / noiseSd(t, x.data()) - 1) < 0.01, qPrintable(QString::number(residual)));
        // The noise level is what was added: 2 % of the RMS of a unit sine.
        QVERIFY2(std::abs(noiseSd(t, x.data()) / (0.02 / std::sqrt(2.0)) - 1) < 0.1,
                 qPrintable(QString::number(noiseSd(t, x.data()))));
    }

    void differentiationRejectsBadInput()
    {
        const auto t = uniformTime(20, 0.1);
        const std::vector<double> x(20, 1.0);
        auto sg = [&](int window, int order) {
            return messageOf<std::invalid_argument>(
                [&] { differentiate(t, x, DerivativeMethod::SavitzkyGolay, window, order); });
        };
        QVERIFY(contains(sg(6, 3), "odd number"));
        QVERIFY(contains(sg(1, 0), "odd number"));
        QVERIFY(contains(sg(7, 7), "1 <= order < window"));
        QVERIFY(contains(sg(7, 0), "1 <= order < window"));
        auto tBad = t;
        tBad[3] += 0.01;
        QVERIFY(
            contains(messageOf<std::invalid_argument>([&] { differentiate(tBad, x, DerivativeMethod::SavitzkyGolay); }),
                     "not uniformly sampled"));
        QCOMPARE(differentiate(tBad, x, DerivativeMethod::CentralDifference).size(), std::size_t(20));
        tBad[3] = tBad[2];
        QVERIFY(contains(
            messageOf<std::invalid_argument>([&] { differentiate(tBad, x, DerivativeMethod::CentralDifference); }),
            "strictly increasing"));
        QVERIFY(contains(
            messageOf<std::invalid_argument>([&] { differentiate({1.0}, {1.0}, DerivativeMethod::CentralDifference); }),
            "at least 2"));
        QVERIFY(contains(messageOf<std::invalid_argument>([&] {
                             differentiate({1.0, 2.0}, {1.0, 2.0}, DerivativeMethod::SmoothingSpline);
                         }),
                         "at least 3"));
        auto notFinite = x;
        notFinite[5] = std::nan("");
        QVERIFY(contains(
            messageOf<std::invalid_argument>([&] { differentiate(t, notFinite, DerivativeMethod::SmoothingSpline); }),
            "value 6 is not finite"));
    }

    void trapezoidExactForLinear()
    {
        const std::vector<double> t = {-1.0, -0.4, 0.1, 0.15, 1.0, 2.5};
        const auto v = sample(t, [](double s) { return 4 * s - 1; });
        const auto integral = integrateTrapezoid(t, v, 2.0);
        for (std::size_t i = 0; i < t.size(); ++i) {
            const double want = 2.0 + 2 * (t[i] * t[i] - 1.0) - (t[i] + 1.0);
            QVERIFY2(std::abs(integral[i] - want) < 1e-13,
                     qPrintable(QString("t %1: %2 vs %3").arg(t[i]).arg(integral[i]).arg(want)));
        }
        // Not exact for a quadratic: the check above can fail.
        const auto q = integrateTrapezoid(t, sample(t, [](double s) { return s * s; }));
        QVERIFY(std::abs(q.back() - (2.5 * 2.5 * 2.5 + 1.0) / 3.0) > 1e-3);
        QVERIFY(integrateTrapezoid({}, {}).empty());
    }

    void derivativeMethodNames()
    {
        for (auto m :
             {DerivativeMethod::CentralDifference, DerivativeMethod::SavitzkyGolay, DerivativeMethod::SmoothingSpline})
            QCOMPARE(parseDerivativeMethod(derivativeMethodName(m)), std::optional(m));
        QCOMPARE(derivativeMethodName(DerivativeMethod::CentralDifference), std::string_view("central"));
        QCOMPARE(derivativeMethodName(DerivativeMethod::SavitzkyGolay), std::string_view("savitzky-golay"));
        QCOMPARE(parseDerivativeMethod("Savitzky-Golay"), std::optional(DerivativeMethod::SavitzkyGolay));
        QVERIFY(!parseDerivativeMethod("sg"));
        QVERIFY(!parseDerivativeMethod(""));
    }

    void welchFindsSinePeakAndVariance()
    {
        const double fs = 100;
        for (double f : {12.5, 13.1}) {
            const auto t = uniformTime(4096, 1 / fs);
            const double a = 2;
            const auto x = sample(t, [&](double s) { return 5 + a * std::sin(2 * pi * f * s + 0.4); });
            const Spectrum s = welch(x, fs);
            QCOMPARE(s.frequency.size(), std::size_t(129));
            QCOMPARE(s.power.size(), std::size_t(129));
            QCOMPARE(s.frequency.back(), 50.0);
            const auto peak =
                static_cast<std::size_t>(std::max_element(s.power.begin(), s.power.end()) - s.power.begin());
            const double df = s.frequency[1] - s.frequency[0];
            QVERIFY2(std::abs(s.frequency[peak] - f) <= df / 2,
                     qPrintable(QString("peak at %1 Hz for %2 Hz").arg(s.frequency[peak]).arg(f)));
            double total = 0;
            for (double p : s.power)
                total += p * df;
            QVERIFY2(std::abs(total / (a * a / 2) - 1) < 0.05,
                     qPrintable(QString("f %1: integral %2").arg(f).arg(total)));
        }
        // White noise: flat density with integral = variance (checks the one-sided scaling).
        std::vector<double> noise(1 << 16, 0.0);
        std::mt19937_64 rng(3);
        for (double& v : noise)
            v = static_cast<double>(rng() >> 11) * 0x1.0p-53 - 0.5;  // variance 1/12
        const Spectrum s = welch(noise, 10, 128);
        double total = 0;
        for (double p : s.power)
            total += p * (s.frequency[1] - s.frequency[0]);
        QVERIFY2(std::abs(total * 12 - 1) < 0.05, qPrintable(QString("noise integral %1").arg(total)));
        QVERIFY(contains(messageOf<std::invalid_argument>([&] { welch({1.0}, 10); }), "at least 2"));
        QVERIFY(contains(messageOf<std::invalid_argument>([&] { welch({1.0, 2.0}, 0); }), "sample rate"));
    }

    // The offered low-pass cutoff: five times the highest dominant frequency, below Nyquist,
    // and nothing where there is no spectrum to read it from.
    void suggestedCutoffFollowsTheDominantFrequency()
    {
        const double fs = 100;
        const auto t = uniformTime(1000, 1 / fs);
        DataTable table;
        table.source = "sines";
        table.columnNames = {"t", "slow", "fast"};
        table.columns = {t, sample(t, [](double s) { return 3 + std::sin(2 * pi * 0.8 * s); }),
                         sample(t, [](double s) { return 0.2 * std::sin(2 * pi * 2.0 * s) + 0.01 * s; })};
        const auto dominant = dominantFrequency(table.columns[2], fs);
        QVERIFY(dominant);
        QVERIFY2(std::abs(*dominant - 2.0) <= 0.1, qPrintable(QString::number(*dominant)));
        const auto cutoff = suggestedLowPassCutoff(table);
        QVERIFY(cutoff);
        QCOMPARE(*cutoff, 10.0);  // 5 x 2 Hz
        // The filter that the suggestion configures is one the design accepts, and it keeps the signal.
        Preprocessing p;
        p.lowPass = Preprocessing::LowPass{4, *cutoff};
        const DataTable filtered = preprocess(table, p);
        QVERIFY(maxAbsDifference(filtered.columns[1], table.columns[1]) < 0.05);

        // A dominant frequency near Nyquist: the cutoff stays below it.
        table.columns[2] = sample(t, [](double s) { return std::sin(2 * pi * 30.0 * s); });
        QCOMPARE(*suggestedLowPassCutoff(table), kCutoffOfNyquist * fs / 2);
        // Two significant digits: 5 x 0.3 Hz.
        table.columns[2] = sample(t, [](double s) { return std::sin(2 * pi * 0.3 * s); });
        table.columns[1] = table.columns[2];
        QCOMPARE(*suggestedLowPassCutoff(table), 1.5);
        // Constant columns and non-uniform time give no suggestion.
        table.columns[1].assign(t.size(), 1.0);
        table.columns[2].assign(t.size(), -2.0);
        QVERIFY(!suggestedLowPassCutoff(table));
        QVERIFY(!dominantFrequency(table.columns[1], fs));
        table.columns[2] = sample(t, [](double s) { return std::sin(2 * pi * 2.0 * s); });
        table.columns[0][500] += 0.003;
        QVERIFY(!suggestedLowPassCutoff(table));
    }

    // The spectrum's peak between the bins: a sinusoid of the seed's record (5 s, 335 samples) at
    // frequencies off the bin grid (bin width 0.2 Hz) comes out within 0.01 Hz; the free decay of an
    // oscillator peaks at its damped natural frequency.
    void spectralPeakGivesTheNaturalFrequency()
    {
        const double fs = 334.0 / 5.0;
        const auto t = uniformTime(335, 1 / fs);
        for (const double f : {0.8, 0.8123, 1.37, 2.95})
            for (const double phase : {0.0, 1.1}) {
                const auto peak =
                    spectralPeak(sample(t, [&](double s) { return std::cos(2 * pi * f * s + phase); }), fs);
                QVERIFY(peak);
                QVERIFY2(std::abs(peak->frequencyHz - f) < 0.01,
                         qPrintable(QString("%1 Hz: peak at %2 Hz").arg(f).arg(peak->frequencyHz)));
            }
        const double g = 0.5, w = 5.0, wd = std::sqrt(w * w - g * g);
        DataTable table;
        table.columnNames = {"t", "u", "flat"};
        table.columns = {t, sample(t, [&](double s) { return std::exp(-g * s) * std::sin(wd * s); }),
                         std::vector<double>(t.size(), 2.0)};
        const auto peaks = spectralPeaks(table);
        QCOMPARE(peaks.size(), std::size_t(1));  // the constant column has none
        QCOMPARE(peaks[0].column, std::string("u"));
        QVERIFY2(std::abs(peaks[0].angularFrequency() / wd - 1) < 0.03,
                 qPrintable(QString("omega %1 rad/s for %2").arg(peaks[0].angularFrequency()).arg(wd)));
        QCOMPARE(peaks[0].angularFrequencySquared(), peaks[0].angularFrequency() * peaks[0].angularFrequency());
        QVERIFY(!spectralPeak({1.0, 2.0, 3.0}, fs));
        table.columns[0][100] += 1e-3;
        QVERIFY(spectralPeaks(table).empty());
    }
};

QTEST_APPLESS_MAIN(TestDataPreprocess)
#include "test_data_preprocess.moc"
